package org.dyper.runtime.ask;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dyper.runtime.internal.Reports;
import org.dyper.runtime.internal.TextTable;
import org.dyper.runtime.internal.Units;

/**
 * The answers in the exit report: one table per question, headed by the question as asked, in the text report
 * ("Answers") and in the XML report ({@code <ANSWERS>}, docs/questions.md), which the HTML page shows too.
 */
public final class AnswerReport {
    private AnswerReport() {
    }

    /** Whether the report has an Answers section. */
    public static boolean active() {
        return Questions.any();
    }

    /** One question's groups as the report shows them, sorted, the top N kept and the rest folded into others. */
    record Answer(Question question, List<Line> lines) {
    }

    /** One shown row: a group, or the others row ({@code others}: groups past the bound or past the top N). */
    record Line(String name, long count, long sum, long min, long max, long[] buckets, boolean others, int folded) {
        double mean() {
            return count == 0 ? 0 : (double) sum / count;
        }

        double percentile(double q) {
            long rank = Math.max(1, (long) Math.ceil(q * count));
            long below = 0;
            for (int b = 0; b < buckets.length; b++) {
                long c = buckets[b];
                if (c > 0 && below + c >= rank) {
                    double lo = b == 0 ? 0 : Math.scalb(1.0, b - 1);
                    double hi = Math.scalb(1.0, b);
                    return Math.min(max, Math.max(min, lo + (hi - lo) * (rank - below) / c));
                }
                below += c;
            }
            return max;
        }

        double stat(Question.Stat s) {
            return switch (s) {
                case COUNT -> count;
                case TOTAL, SUM -> sum;
                case MEAN -> mean();
                case MIN -> min;
                case MAX -> max;
                case P50 -> percentile(0.50);
                case P99 -> percentile(0.99);
            };
        }
    }

    static Answer answer(Question q) {
        List<Line> lines = new ArrayList<>();
        long now = q.window == null ? 0 : q.window.period(Window.nanos(), q.definedNanos);
        for (Groups.Row r : q.groups.rows()) {
            Line l = line(q, now, r.name(), r, false);
            if (l.count > 0 || q.window == null) {
                lines.add(l);   // a group with no event in the window is not shown
            }
        }
        Comparator<Line> order = Comparator.comparingDouble((Line l) -> l.stat(q.stat));
        if (q.stat != Question.Stat.MIN) {
            order = order.reversed();
        }
        lines.sort(order.thenComparing(Line::name));
        Groups.Row over = q.groups.others();
        Line others = over.cells.get(Groups.COUNT) > 0 ? line(q, now, "(others)", over, true) : null;
        if (others != null && others.count == 0) {
            others = null;
        }
        if (q.top > 0 && lines.size() > q.top) {
            List<Line> rest = lines.subList(q.top, lines.size());
            for (Line l : rest) {
                others = others == null ? new Line("(others)", l.count, l.sum, l.min, l.max, l.buckets, true, 1)
                        : merge(others, l);
            }
            lines = new ArrayList<>(lines.subList(0, q.top));
        }
        if (others != null) {
            lines.add(others);
        }
        return new Answer(q, lines);
    }

    /** A group's line: since the start, or over the window at period {@code now} (no histogram there). */
    private static Line line(Question q, long now, String name, Groups.Row r, boolean others) {
        if (q.window != null) {
            long[] w = q.window.sum(r.ring, now);
            return new Line(name, w[0], w[1], w[2], w[3], new long[0], others, 0);
        }
        long[] buckets = new long[Math.max(0, r.cells.length() - Groups.HIST)];
        for (int b = 0; b < buckets.length; b++) {
            buckets[b] = r.cells.get(Groups.HIST + b);
        }
        return new Line(name, r.cells.get(Groups.COUNT), r.cells.get(Groups.SUM), r.cells.get(Groups.MIN),
                r.cells.get(Groups.MAX), buckets, others, 0);
    }

    private static Line merge(Line a, Line b) {
        long[] buckets = a.buckets.clone();
        for (int i = 0; i < buckets.length && i < b.buckets.length; i++) {
            buckets[i] += b.buckets[i];
        }
        return new Line(a.name, a.count + b.count, a.sum + b.sum, Math.min(a.min, b.min), Math.max(a.max, b.max),
                buckets, true, a.folded + 1);
    }

    /** The text report's Answers section (empty when no question is defined). */
    public static String text(int width) {
        if (!active()) {
            return "";
        }
        List<Shown> shown = new ArrayList<>();
        for (Question q : Questions.all()) {
            if (q != null) {
                shown.add(shown(q, answer(q)));
            }
        }
        return text(problems(), shown, width);
    }

    /**
     * The same Answers section from an {@code <ANSWERS>} element of an XML report ({@link #xml}), as {@code dyper ctl
     * PID answers} prints it; {@code answers} null: none. Needs {@code java.xml}, which the exit report does not.
     */
    public static String text(org.w3c.dom.Element answers, int width) {
        if (answers == null) {
            return "";
        }
        List<String> problems = new ArrayList<>();
        List<Shown> shown = new ArrayList<>();
        org.w3c.dom.NodeList nodes = answers.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (!(nodes.item(i) instanceof org.w3c.dom.Element e)) {
                continue;
            }
            if (e.getTagName().equals("PROBLEM")) {
                problems.add(e.getAttribute("TEXT"));
            } else if (e.getTagName().equals("QUESTION")) {
                shown.add(shown(e, Integer.parseInt(answers.getAttribute("MAX_GROUPS"))));
            }
        }
        return text(problems, shown, width);
    }

    /** The question table's problems, and monitors nested too deep for a hold question to time. */
    private static List<String> problems() {
        List<String> out = new ArrayList<>(Questions.problems());
        if (Held.overflows() > 0) {
            out.add(Held.overflows() + " monitor acquisition(s) nested deeper than " + Held.DEPTH + " on one thread "
                    + "were not timed");
        }
        return out;
    }

    /** One question as the text shows it, from the live table or from the XML report. */
    private record Shown(String text, Question.Measure measure, String groupTitle, String valueTitle, int sites,
                         long checks, long records, int groups, boolean bounded, int max, double seconds,
                         int window, List<Row> rows) {
    }

    /** One row of a shown question; {@code others}: -1 for a group, else the groups folded into it. */
    private record Row(String name, long count, long sum, long min, long max, double mean, double p50, double p99,
                       int others) {
    }

    private static Shown shown(Question q, Answer a) {
        List<Row> rows = new ArrayList<>();
        for (Line l : a.lines()) {
            rows.add(new Row(l.name, l.count, l.sum, l.min, l.max, l.mean(), l.percentile(0.50), l.percentile(0.99),
                    l.others ? l.folded : -1));
        }
        return new Shown(q.text, q.measure, q.group == Question.Group.NONE ? "" : q.groupTitle, q.valueTitle, q.sites,
                q.checks.sum(), q.records(), q.group == Question.Group.NONE ? -1 : q.groups.size(),
                q.groups.others().cells.get(Groups.COUNT) > 0, q.groups.max(), seconds(q),
                q.window == null ? 0 : q.window.seconds, rows);
    }

    private static Shown shown(org.w3c.dom.Element q, int max) {
        List<Row> rows = new ArrayList<>();
        org.w3c.dom.NodeList nodes = q.getElementsByTagName("GROUP");
        for (int i = 0; i < nodes.getLength(); i++) {
            org.w3c.dom.Element g = (org.w3c.dom.Element) nodes.item(i);
            rows.add(new Row(g.getAttribute("NAME"), number(g, "COUNT"), number(g, "SUM"), number(g, "MIN"),
                    number(g, "MAX"), Double.parseDouble(g.getAttribute("MEAN")), number(g, "P50"), number(g, "P99"),
                    g.hasAttribute("OTHERS") ? Integer.parseInt(g.getAttribute("OTHERS")) : -1));
        }
        String groupBy = q.getAttribute("GROUP_BY");
        return new Shown(q.getAttribute("TEXT"), Question.Measure.valueOf(q.getAttribute("MEASURE")), groupBy,
                q.getAttribute("VALUE"), (int) number(q, "SITES"), number(q, "CHECKS"), number(q, "RECORDS"),
                groupBy.isEmpty() ? -1 : (int) number(q, "GROUPS"), "true".equals(q.getAttribute("BOUNDED")), max,
                q.getAttribute("SECONDS").isEmpty() ? 0 : Double.parseDouble(q.getAttribute("SECONDS")),
                (int) number(q, "WINDOW"), rows);
    }

    /**
     * The seconds since {@code q} was defined (the span of its rate), or, for a window, the seconds its slots cover, to
     * the millisecond.
     */
    private static double seconds(Question q) {
        long now = Window.nanos();
        double s = q.window == null ? (now - q.definedNanos) / 1e9 : q.window.span(now, q.definedNanos);
        return Math.round(s * 1e3) / 1e3;
    }

    private static long number(org.w3c.dom.Element e, String attribute) {
        String v = e.getAttribute(attribute);
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }

    private static String text(List<String> problems, List<Shown> questions, int width) {
        StringBuilder out = new StringBuilder();
        out.append("\nAnswers (checks: events whose conditions were tested; records: events recorded)\n");
        for (String p : problems) {
            out.append("  problem: ").append(p).append('\n');
        }
        for (Shown q : questions) {
            out.append("\n  ").append(q.text()).append('\n');
            out.append("  ").append(Units.count(q.sites())).append(q.sites() == 1 ? " site" : " sites")
                    .append(" patched; ").append(Units.count(q.checks())).append(" checks, ")
                    .append(Units.count(q.records())).append(" records");
            if (q.groups() >= 0) {
                out.append("; ").append(Units.count(q.groups())).append(q.groups() == 1 ? " group" : " groups");
            }
            if (q.bounded()) {
                out.append(" (the bound, ").append(Units.count(q.max())).append("; later groups went to (others))");
            }
            if (q.window() > 0) {
                out.append("; the table: the last ").append(Units.count(q.window())).append(" seconds");
            }
            out.append('\n');
            if (q.rows().isEmpty()) {
                out.append("    no events\n");
                continue;
            }
            table(q).appendTo(out, width);
        }
        return out.toString();
    }

    private static TextTable table(Shown q) {
        String g = q.groupTitle();
        TextTable t;
        switch (q.measure()) {
            case COUNT -> {
                t = new TextTable(g, "count");
                for (Row l : q.rows()) {
                    t.row(name(l), Units.count(l.count()));
                }
            }
            case RATE -> {
                t = new TextTable(g, "count", "per second");
                for (Row l : q.rows()) {
                    t.row(name(l), Units.count(l.count()), q.seconds() <= 0 ? "-"
                            : String.format(java.util.Locale.ROOT, "%.2f", l.count() / q.seconds()));
                }
            }
            case TIME, WAIT, HOLD -> {
                t = new TextTable(g, q.measure() == Question.Measure.WAIT ? "waits" : q.measure()
                        == Question.Measure.HOLD ? "holds" : "calls", "total", "mean", "min",
                        "max", "p50 (est.)", "p99 (est.)");
                for (Row l : q.rows()) {
                    // a window keeps no histogram: no percentiles
                    t.row(name(l), Units.count(l.count()), Units.duration(l.sum()), Units.duration(l.mean()),
                            Units.duration(l.min()), Units.duration(l.max()), q.window() > 0 ? "-"
                            : Units.duration(l.p50()), q.window() > 0 ? "-" : Units.duration(l.p99()));
                }
            }
            default -> {
                String v = q.valueTitle();
                t = new TextTable(g, "count", "sum " + v, "min " + v, "max " + v, "mean " + v);
                for (Row l : q.rows()) {
                    t.row(name(l), Units.count(l.count()), Long.toString(l.sum()), Long.toString(l.min()),
                            Long.toString(l.max()), String.format(java.util.Locale.ROOT, "%.2f", l.mean()));
                }
            }
        }
        return t;
    }

    private static String name(Row l) {
        return l.others() > 0 ? "(others: " + Units.count(l.others()) + " more groups)" : l.name();
    }

    /** The XML report's {@code <ANSWERS>} element, indented as a child of the root (empty when none). */
    public static String xml() {
        if (!active()) {
            return "";
        }
        StringBuilder x = new StringBuilder("  <ANSWERS MAX_GROUPS='").append(maxGroups()).append("'>\n");
        for (String p : problems()) {
            Reports.escape(x.append("    <PROBLEM TEXT='"), p).append("'/>\n");
        }
        for (Question q : Questions.all()) {
            if (q == null) {
                continue;
            }
            Answer a = answer(q);
            x.append("    <QUESTION ID='").append(q.id).append("' TEXT='");
            Reports.escape(x, q.text).append("' MEASURE='").append(q.measure).append("' STAT='").append(q.stat)
                    .append("' GROUP_BY='");
            Reports.escape(x, q.group == Question.Group.NONE ? "" : q.groupTitle).append("' VALUE='");
            Reports.escape(x, q.valueTitle).append("' SITES='").append(q.sites).append("' CHECKS='")
                    .append(q.checks.sum()).append("' RECORDS='").append(q.records()).append("' GROUPS='")
                    .append(q.groups.size()).append("' SECONDS='")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", seconds(q))).append('\'');
            if (q.window != null) {
                x.append(" WINDOW='").append(q.window.seconds).append('\'');
            }
            if (q.groups.others().cells.get(Groups.COUNT) > 0) {
                x.append(" BOUNDED='true'");
            }
            x.append(">\n");
            for (Line l : a.lines()) {
                x.append("      <GROUP NAME='");
                Reports.escape(x, l.name).append("' COUNT='").append(l.count).append("' SUM='").append(l.sum)
                        .append("' MIN='").append(l.min).append("' MAX='").append(l.max).append("' MEAN='")
                        .append(String.format(java.util.Locale.ROOT, "%.3f", l.mean())).append('\'');
                if (q.timed() && q.window == null) {
                    x.append(" P50='").append(Math.round(l.percentile(0.5))).append("' P99='")
                            .append(Math.round(l.percentile(0.99))).append('\'');
                }
                if (l.others) {
                    x.append(" OTHERS='").append(l.folded).append('\'');
                }
                x.append("/>\n");
            }
            x.append("    </QUESTION>\n");
        }
        return x.append("  </ANSWERS>\n").toString();
    }

    private static int maxGroups() {
        Question[] all = Questions.all();
        for (Question q : all) {
            if (q != null) {
                return q.groups.max();
            }
        }
        return Questions.DEFAULT_MAX_GROUPS;
    }
}
