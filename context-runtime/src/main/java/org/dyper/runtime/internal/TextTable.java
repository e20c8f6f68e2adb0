package org.dyper.runtime.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * A text table for people: the first column (names) left-aligned, the others right-aligned (the last one optionally
 * left-aligned, for free text), columns as wide as their widest cell. Given a width, rows that would be wider get
 * shorter names, each no more than it needs, step by step: simple parameter types ({@code (String,int)}), abbreviated packages
 * ({@code o.d.s.b.Bank.transfer}), no parameters ({@code transfer(…)}), and last the name's start cut off with
 * {@code …}. Width 0 keeps every name whole.
 */
public final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private boolean lastLeft;

    public TextTable(String... header) {
        rows.add(header);
    }

    /** Left-aligns the last column too (free text such as a failure description). */
    public TextTable lastLeft() {
        lastLeft = true;
        return this;
    }

    public void row(String... cells) {
        rows.add(cells);
    }

    /** Appends the table with every name whole. */
    public void appendTo(StringBuilder out) {
        appendTo(out, 0);
    }

    /** Appends the table, shortening names so that rows fit {@code width} columns where they can (0: no limit). */
    public void appendTo(StringBuilder out, int width) {
        List<String[]> shown = width > 0 && wide(rows) > width ? shortened(width) : rows;
        int columns = rows.get(0).length;
        int[] w = widths(shown);
        for (String[] row : shown) {
            StringBuilder line = new StringBuilder("  ");
            for (int c = 0; c < columns; c++) {
                String cell = row[c];
                int pad = w[c] - cell.length();
                if (c == 0 || c == columns - 1 && lastLeft) {
                    line.append(cell).append(" ".repeat(pad));
                } else {
                    line.append(" ".repeat(pad)).append(cell);
                }
                if (c < columns - 1) {
                    line.append("  ");
                }
            }
            int end = line.length();
            while (end > 0 && line.charAt(end - 1) == ' ') {
                end--;
            }
            out.append(line, 0, end).append('\n');
        }
    }

    private int[] widths(List<String[]> list) {
        int[] w = new int[rows.get(0).length];
        for (String[] row : list) {
            for (int c = 0; c < w.length; c++) {
                w[c] = Math.max(w[c], row[c].length());
            }
        }
        return w;
    }

    private int wide(List<String[]> list) {
        int total = 2;
        for (int x : widths(list)) {
            total += x + 2;
        }
        return total - 2;
    }

    /** Each name too long for the room the other columns leave, shortened no more than it needs. */
    private List<String[]> shortened(int width) {
        int others = wide(rows) - widths(rows)[0];
        int room = Math.max(24, width - others);
        List<String[]> out = new ArrayList<>(rows.size());
        out.add(rows.get(0));
        for (int r = 1; r < rows.size(); r++) {
            String[] row = rows.get(r).clone();
            for (int level = 1; level <= 4 && row[0].length() > room; level++) {
                row[0] = shorten(rows.get(r)[0], level, room);
            }
            out.add(row);
        }
        return out;
    }

    /** A name made shorter, {@code level} 1 to 4 (each includes the earlier ones); {@code room} for level 4. */
    public static String shorten(String name, int level, int room) {
        String s = name;
        int open = s.indexOf('(');
        String head = open < 0 ? s : s.substring(0, open);
        String params = open < 0 ? "" : s.substring(open);
        if (level >= 1 && params.length() > 2) {
            StringBuilder p = new StringBuilder("(");
            String inner = params.substring(1, params.endsWith(")") ? params.length() - 1 : params.length());
            String[] types = inner.split(",", -1);
            for (int i = 0; i < types.length; i++) {
                String t = types[i].trim();
                p.append(t.substring(t.lastIndexOf('.') + 1));
                if (i < types.length - 1) {
                    p.append(',');
                }
            }
            params = p.append(params.endsWith(")") ? ")" : "").toString();
        }
        if (level >= 2) {
            String[] parts = head.split("\\.", -1);
            StringBuilder h = new StringBuilder();
            boolean inPackage = true;
            for (int i = 0; i < parts.length; i++) {
                String part = parts[i];
                inPackage &= i < parts.length - 1 && !part.isEmpty() && Character.isLowerCase(part.charAt(0));
                h.append(inPackage ? part.substring(0, 1) : part);
                if (i < parts.length - 1) {
                    h.append('.');
                }
            }
            head = h.toString();
        }
        if (level >= 3 && params.length() > 2) {
            params = "(…)";
        }
        s = head + params;
        if (level >= 4 && s.length() > room) {
            s = "…" + s.substring(s.length() - room + 1);
        }
        return s;
    }
}
