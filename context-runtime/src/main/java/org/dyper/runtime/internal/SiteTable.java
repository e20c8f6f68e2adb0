package org.dyper.runtime.internal;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.dyper.runtime.SiteTableFormat;

/** Site names by id: the generator's TAB tables ({@link #define}) and run-time registrations ({@link #register}). */
public final class SiteTable {
    private static final Map<Integer, String> NAMES = new ConcurrentHashMap<>();
    private static final Map<String, Integer> REGISTERED = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_NEGATIVE = new AtomicInteger(-1);
    private static final AtomicLong MALFORMED = new AtomicLong();
    private static final AtomicLong CONFLICTS = new AtomicLong();
    /** The first id of each generation of generated code, by generation name; guarded by itself. */
    private static final Map<String, Integer> BASES = new java.util.HashMap<>();
    /** The id after the highest one any generation was given so far; guarded by {@link #BASES}. */
    private static int nextBase;

    private SiteTable() {
    }

    /**
     * The offset added to the ids 1..{@code count} of generation {@code generation}: 0 for the first generation the
     * JVM meets (so a program woven once keeps the ids of its site table), then above every id handed out before, so
     * separately woven jars never share an id. The same generation (a woven jar loaded by two class loaders) gets the
     * same offset.
     */
    public static int base(String generation, int count) {
        synchronized (BASES) {
            Integer known = BASES.get(generation);
            if (known != null) {
                return known;
            }
            int base = nextBase;
            BASES.put(generation, base);
            nextBase = base + Math.max(0, count);
            return base;
        }
    }

    /** Parses a site table; returns the number of malformed lines (skipped and counted, never thrown). */
    public static int define(String table) {
        return define(0, table);
    }

    /** Parses a site table whose ids are relative to {@code base} (see {@link #base}). */
    public static int define(int base, String table) {
        if (table == null) {
            return 0;
        }
        int malformed = 0;
        int start = 0;
        int length = table.length();
        while (start <= length) {
            int end = table.indexOf('\n', start);
            if (end < 0) {
                end = length;
            }
            if (!defineLine(base, table.substring(start, end))) {
                malformed++;
            }
            start = end + 1;
        }
        MALFORMED.addAndGet(malformed);
        return malformed;
    }

    /** Defines one line; true when it was valid, blank or a comment. */
    static boolean defineLine(String line) {
        return defineLine(0, line);
    }

    private static boolean defineLine(int base, String line) {
        String[] f = SiteTableFormat.fields(line);
        if (f == null) {
            return true;
        }
        if (f.length < 3 || f.length > 7) {
            return false;
        }
        int id;
        try {
            id = Math.addExact(base, Integer.parseInt(f[0].trim()));
        } catch (NumberFormatException | ArithmeticException e) {
            return false;
        }
        String kind = f[1].trim();
        String className = f[2].trim();
        String methodName = f.length > 3 ? f[3].trim() : "";
        String parameters = f.length > 4 ? f[4].trim() : "";
        String name;
        if (kind.equals(SiteTableFormat.BLOCK)) {
            name = blockName(className, methodName, parameters, f.length > 5 ? f[5].trim() : "",
                    f.length > 6 ? f[6].trim() : "");
        } else {
            name = f.length > 5 ? null : name(kind, className, methodName, parameters);
        }
        if (name == null) {
            return false;
        }
        // the latest definition wins: a class loader that loads a newer generation of aspects renames its ids
        String previous = NAMES.put(id, name);
        if (previous != null && !previous.equals(name)) {
            CONFLICTS.incrementAndGet();
        }
        return true;
    }

    /**
     * The display name of a METHOD, CLASS, FIELD or TYPE site, or null when the parts do not make a valid one. For a
     * FIELD, {@code methodName} is the field name and {@code parameters} its type (not part of the name); for a TYPE,
     * {@code className} is the type name (e.g. {@code int[]}).
     */
    static String name(String kind, String className, String methodName, String parameters) {
        if (className.isEmpty()) {
            return null;
        }
        switch (kind) {
            case SiteTableFormat.METHOD:
                return methodName.isEmpty() ? null : className + "." + methodName + "(" + parameters + ")";
            case SiteTableFormat.CLASS:
            case SiteTableFormat.TYPE:
                return methodName.isEmpty() && parameters.isEmpty() ? className : null;
            case SiteTableFormat.FIELD:
                return methodName.isEmpty() ? null : className + "." + methodName;
            default:
                return null;
        }
    }

    /**
     * {@code className.methodName(parameters) block N (line L)}, without the line part when the line is empty; null
     * when the class, method or block number is missing or a number is malformed or negative.
     */
    static String blockName(String className, String methodName, String parameters, String block, String line) {
        if (className.isEmpty() || methodName.isEmpty() || !isCount(block) || !line.isEmpty() && !isCount(line)) {
            return null;
        }
        String name = className + "." + methodName + "(" + parameters + ") block " + Integer.parseInt(block);
        return line.isEmpty() ? name : name + " (line " + Integer.parseInt(line) + ")";
    }

    private static boolean isCount(String s) {
        try {
            return Integer.parseInt(s) >= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    public static int register(String kind, String className, String methodName, String parameters) {
        String k = kind == null ? "" : kind.trim().toUpperCase(Locale.ROOT);
        String c = className == null ? "" : className.trim();
        String m = methodName == null ? "" : methodName.trim();
        String p = parameters == null ? "" : parameters.trim();
        String name = name(k, c, m, p);
        if (name == null) {
            throw new IllegalArgumentException("Invalid site for Sites.register: kind='" + kind + "', className='"
                    + className + "', methodName='" + methodName + "', parameters='" + parameters
                    + "' (kind must be METHOD with a class and method name, CLASS or TYPE with a class or type name"
                    + " only, or FIELD with a class and field name; BLOCK sites come from the generator's table)");
        }
        return REGISTERED.computeIfAbsent(k + '\t' + c + '\t' + m + '\t' + p, key -> {
            int id = NEXT_NEGATIVE.getAndDecrement();
            NAMES.put(id, name);
            return id;
        });
    }

    public static String name(int id) {
        String name = NAMES.get(id);
        return name != null ? name : "#" + id;
    }

    /** Malformed table lines skipped since start. */
    public static long malformedLines() {
        return MALFORMED.get();
    }

    /** Table lines that tried to rename an id already defined with another name (the latest name wins). */
    public static long conflicts() {
        return CONFLICTS.get();
    }
}
