package org.dyper.runtime.monitor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dyper.runtime.internal.TextReport;
import org.dyper.runtime.internal.TextReportXml;
import org.dyper.runtime.internal.TextTable;
import org.dyper.runtime.internal.Units;
import org.w3c.dom.Element;

/**
 * A monitor's {@code <MONITOR_REPORT>} as text for people ({@code dyper ctl PID REPORT}): the hottest methods, the
 * heaviest stack paths of each view, threads and what they did, contended monitors, deadlocks, GC pauses, thread
 * lifecycle, and the instrumentation's exact figures as the report at exit shows them. Rows fit {@code width}
 * columns by shortening names (0: whole names).
 */
public final class ReportText {
    /** Columns the rows fit unless told otherwise. */
    public static final int DEFAULT_WIDTH = org.dyper.runtime.internal.Config.DEFAULT_REPORT_WIDTH;

    private static final int TOP_METHODS = 20;
    private static final int TOP_PATHS = 5;

    private final StringBuilder s = new StringBuilder(8192);
    private final int width;

    private ReportText(int width) {
        this.width = width;
    }

    /** The text of {@code report}, a {@code <MONITOR_REPORT>} element. */
    public static String render(Element report, int width) {
        ReportText t = new ReportText(width);
        t.report(report);
        return t.s.toString();
    }

    /**
     * A table for people in the report's style: the first column left-aligned, the others right-aligned, columns as
     * wide as their widest cell, names whole ({@code dyper ctl PID instrumented} lists patched classes with it).
     */
    public static String table(List<String> header, List<List<String>> rows) {
        TextTable t = new TextTable(header.toArray(String[]::new));
        rows.forEach(r -> t.row(r.toArray(String[]::new)));
        StringBuilder out = new StringBuilder();
        t.appendTo(out);
        return out.toString();
    }

    private void report(Element r) {
        s.append("Monitor report: pid ").append(r.getAttribute("PID")).append(", ").append(r.getAttribute("MAIN"))
                .append(", monitoring ").append(Boolean.parseBoolean(r.getAttribute("MONITOR")) ? "on" : "off")
                .append(", every ").append(r.getAttribute("CHECKTIME")).append(" ms\n");
        long start = num(r, "START");
        Element cpu = child(r, "CPU");
        Element before = child(r, "CPU_BEFORE_JFR");
        if (cpu != null) {
            cpu(cpu, before == null ? "" : " since " + after(num(cpu, "FROM"), start));
        }
        if (before != null) {
            // the thread dumps' figures of the time before the recorder's (docs/monitor.md, "Where samples come from")
            s.append("\nCPU before the flight recorder (estimates from ").append(Units.count(num(before,
                    "SAMPLES"))).append(" samples, thread dumps, ").append(window(before, start)).append(")\n");
            methods(before);
        }
        Element stacks = child(r, "STACKS");
        if (stacks != null) {
            stacks(stacks, start);
        }
        Element contention = child(r, "CONTENTION");
        if (contention != null) {
            contention(contention);
        }
        Element gc = child(r, "GC");
        if (gc != null && !gc.getAttribute("COLLECTIONS").equals("0")) {
            s.append("\nGC (exact, from ").append(gc.getAttribute("SOURCE").equals("JFR") ? "the flight recorder"
                    : "the JVM's counters").append("): ").append(gc.getAttribute("COLLECTIONS"))
                    .append(" collections, ").append(Units.duration(num(gc, "PAUSE_NS"))).append(" paused");
            if (num(gc, "LONGEST_PAUSE_NS") >= 0) {
                s.append(", longest ").append(Units.duration(num(gc, "LONGEST_PAUSE_NS")));
            }
            s.append('\n');
            TextTable t = new TextTable("collector", "collections", "paused", "longest");
            for (Element c : children(gc, "COLLECTOR")) {
                t.row(c.getAttribute("NAME"), Units.count(num(c, "COLLECTIONS")), Units.duration(num(c, "PAUSE_NS")),
                        num(c, "LONGEST_PAUSE_NS") < 0 ? "-" : Units.duration(num(c, "LONGEST_PAUSE_NS")));
            }
            t.appendTo(s, width);
        }
        Element life = child(r, "LIFECYCLE");
        if (life != null) {
            s.append("\nThreads: ").append(life.getAttribute("LIVE")).append(" live (peak ")
                    .append(life.getAttribute("PEAK")).append("), ").append(life.getAttribute("STARTED"))
                    .append(" started");
            if (num(life, "ENDED") >= 0) {
                s.append(", ").append(life.getAttribute("ENDED")).append(" ended");
            }
            s.append(life.getAttribute("SOURCE").equals("JFR") ? " while monitored\n" : " since the JVM started\n");
        }
        Element detail = child(r, "DETAIL");
        if (detail != null) {
            detail(detail);
        }
        Element instr = child(r, "INSTRUMENTATION");
        Element dyper = instr == null ? null : child(instr, "DYPER_REPORT");
        if (dyper != null) {
            s.append("\nInstrumentation (exact)\n");
            String text = TextReport.render(TextReportXml.read(dyper), width);
            s.append(text.substring(text.indexOf('\n') + 1));
        }
    }

    /** The hot items, and what automatic detailing patched: exact figures beside the sampled estimate. */
    private void detail(Element detail) {
        List<Element> hot = new ArrayList<>(children(detail, "CLASS"));
        hot.addAll(children(detail, "METHOD"));
        if (!hot.isEmpty()) {
            s.append("\nHot (worth detailing)\n");
            TextTable t = new TextTable("class or method");
            for (Element e : hot) {
                t.row(e.hasAttribute("CLASS") ? e.getAttribute("CLASS") + "." + e.getAttribute("NAME")
                        : e.getAttribute("NAME"));
            }
            t.appendTo(s, width);
        }
        List<Element> detailed = children(detail, "DETAILED");
        if ("true".equals(detail.getAttribute("AUTO")) || !detailed.isEmpty()) {
            s.append("\nDetailed automatically (").append(detail.getAttribute("STATE").toLowerCase(Locale.ROOT))
                    .append(", ").append(detail.getAttribute("DETAILED")).append(" patched now, at most ")
                    .append(detail.getAttribute("MAX")).append("; exact figures beside the sampled estimate)\n");
            TextTable t = new TextTable("method", "now", "calls", "total", "mean", "min", "max", "est. samples",
                    "est. total");
            for (Element d : detailed) {
                Element exact = child(d, "EXACT");
                Element est = child(d, "ESTIMATE");
                boolean any = num(exact, "COUNT") > 0;
                t.row(d.getAttribute("CLASS") + "." + d.getAttribute("NAME"),
                        d.getAttribute("STATE").equals("PATCHED") ? "patched" : "removed",
                        Units.count(num(exact, "COUNT")), Units.duration(num(exact, "TOTAL_NS")),
                        any ? Units.duration(num(exact, "MEAN_NS")) : "-", any ? Units.duration(num(exact, "MIN_NS"))
                        : "-", any ? Units.duration(num(exact, "MAX_NS")) : "-", Units.count(num(est, "TOTAL")),
                        Units.duration(num(est, "TOTAL_NS")));
            }
            t.appendTo(s, width);
            for (Element w : children(detail, "WAITING")) {
                s.append("  waiting: ").append(w.getTextContent()).append('\n');
            }
            for (Element f : children(detail, "FAILURE")) {
                s.append("  failed (").append(f.getAttribute("COUNT")).append("x): ").append(f.getAttribute("WHAT"))
                        .append(": ").append(f.getTextContent()).append('\n');
            }
        }
    }

    /** A time of the report (epoch ms) as seconds after the JVM's start ({@code start}, epoch ms). */
    private static String after(long millis, long start) {
        return String.format(Locale.ROOT, "%.1f s", (millis - start) / 1000.0);
    }

    /** A window of the report (epoch ms) in seconds after the JVM's start. */
    private static String window(Element e, long start) {
        return after(num(e, "FROM"), start) + " to " + after(num(e, "TO"), start) + " after the JVM started";
    }

    /** The CPU section; {@code window} says from when, where the thread dumps' figures before are shown apart. */
    private void cpu(Element cpu, String window) {
        boolean jfr = cpu.getAttribute("SOURCE").equals("JFR");
        s.append("\nCPU (estimates from ").append(Units.count(num(cpu, "SAMPLES"))).append(" samples, ")
                .append(jfr ? "flight recorder " + cpu.getAttribute("EVENT") : "thread dumps"
                        + (cpu.getAttribute("EVENT").isEmpty() ? "" : ": " + cpu.getAttribute("EVENT")))
                .append(window).append("; I/O samples ").append(cpu.getAttribute("IO_SAMPLES")).append(")\n");
        methods(cpu);
        cpuCost(cpu);
    }

    /** A CPU section's hottest methods. */
    private void methods(Element cpu) {
        TextTable t = new TextTable("method", "self", "self ms", "total", "total ms", "io", "hot");
        List<Element> methods = children(child(cpu, "METHODS"), "METHOD");
        for (int i = 0; i < methods.size() && i < TOP_METHODS; i++) {
            Element m = methods.get(i);
            t.row(m.getAttribute("CLASS") + "." + m.getAttribute("NAME"), m.getAttribute("SELF"),
                    ms(num(m, "SELF_NS")), m.getAttribute("TOTAL"), ms(num(m, "TOTAL_NS")), m.getAttribute("IO"),
                    "true".equals(m.getAttribute("DETAIL")) ? "*" : "");
        }
        t.appendTo(s, width);
    }

    private void cpuCost(Element cpu) {
        long samples = Math.max(1, num(cpu, "SAMPLES"));
        s.append(String.format(Locale.ROOT, "\nDyper's own cost: %s samples in Dyper's code (%.1f %%); the monitor's"
                + " threads used %s of CPU\n", Units.count(num(cpu, "DYPER_SAMPLES")),
                100.0 * num(cpu, "DYPER_SAMPLES") / samples, num(cpu, "MONITOR_CPU_NS") < 0 ? "(no CPU clock)"
                        : Units.duration(num(cpu, "MONITOR_CPU_NS"))));
        s.append('\n');
        TextTable th = new TextTable("thread", "state samples", "cpu samples", "cpu ms (exact)");
        for (Element e : children(child(cpu, "THREADS"), "THREAD")) {
            th.row(e.getAttribute("NAME"), e.getAttribute("SAMPLES"), e.getAttribute("RUNNABLE"),
                    num(e, "CPU_NS") < 0 ? "-" : ms(num(e, "CPU_NS")));
        }
        th.appendTo(s, width);
    }

    private void stacks(Element stacks, long start) {
        boolean apart = children(stacks, "VIEW").stream().anyMatch(v -> v.hasAttribute("TO"));
        for (Element v : children(stacks, "VIEW")) {
            List<Element> paths = children(v, "PATH");
            if (paths.isEmpty()) {
                continue;
            }
            String unit = v.getAttribute("UNIT");
            long total = Math.max(1, num(v, "TOTAL") + num(v, "OMITTED_WEIGHT"));
            s.append("\nTop ").append(v.getAttribute("NAME")).append(" paths (").append(amount(total, unit))
                    .append(" in all; estimates");
            if (v.hasAttribute("TO")) {
                s.append("; ").append(v.getAttribute("SOURCE")).append(", ").append(window(v, start));
            } else if (apart && v.getAttribute("NAME").equals("CPU")) {
                s.append("; ").append(v.getAttribute("SOURCE")).append(", from ").append(after(num(v, "FROM"), start))
                        .append(" after the JVM started");
            }
            if (num(v, "DROPPED") > 0) {
                s.append("; ").append(Units.count(num(v, "DROPPED"))).append(" events dropped past the node limit");
            }
            s.append(")\n");
            for (int i = 0; i < paths.size() && i < TOP_PATHS; i++) {
                Element p = paths.get(i);
                long w = num(p, "WEIGHT");
                String head = String.format(Locale.ROOT, "  %5.1f%%  %10s  ", 100.0 * w / total, amount(w, unit));
                s.append(head).append(path(p.getTextContent(), width == 0 ? 0 : Math.max(40, width - head.length())))
                        .append('\n');
            }
        }
    }

    /** A collapsed path root first, frames as {@code Class.method} joined by {@code >}; the root side cut to fit. */
    static String path(String collapsed, int room) {
        String[] frames = collapsed.split(";");
        List<String> shown = new ArrayList<>();
        for (String f : frames) {
            shown.add(room == 0 ? f : simple(f));
        }
        String all = String.join(" > ", shown);
        if (room == 0 || all.length() <= room) {
            return all;
        }
        StringBuilder tail = new StringBuilder();
        for (int i = shown.size() - 1; i >= 0; i--) {
            String next = shown.get(i) + (tail.length() == 0 ? "" : " > ") + tail;
            if (next.length() + 4 > room && tail.length() > 0) {
                return "… > " + tail;
            }
            tail = new StringBuilder(next);
        }
        return tail.toString();
    }

    /** {@code pkg.Outer$Inner.method} as {@code Outer$Inner.method}; synthetic leaves stay whole. */
    private static String simple(String frame) {
        if (frame.startsWith("[")) {
            return frame;
        }
        int method = frame.lastIndexOf('.');
        int cls = method <= 0 ? -1 : frame.lastIndexOf('.', method - 1);
        return cls < 0 ? frame : frame.substring(cls + 1);
    }

    private static String amount(long n, String unit) {
        return switch (unit) {
            case "NS" -> Units.duration(n);
            case "BYTES" -> Units.count(n) + " B";
            case "SAMPLES" -> Units.count(n) + (n == 1 ? " sample" : " samples");
            default -> Units.count(n) + " " + unit.toLowerCase(Locale.ROOT);
        };
    }

    private void contention(Element contention) {
        List<Element> monitors = children(child(contention, "MONITORS"), "MONITOR");
        if (!monitors.isEmpty()) {
            s.append("\nContended monitors (threads seen BLOCKED in thread dumps; estimates)\n");
            TextTable t = new TextTable("monitor", "blocked samples", "blocked ms", "threads");
            for (Element m : monitors) {
                t.row(m.getAttribute("NAME"), m.getAttribute("BLOCKED_SAMPLES"), ms(num(m, "BLOCKED_NS")),
                        Integer.toString(children(m, "BLOCKED").size()));
            }
            t.appendTo(s, width);
        }
        s.append("\nThreads (states from thread dumps, estimates; blocked/waited counts exact, from the JVM)\n");
        TextTable t = new TextTable("thread", "running", "native", "blocked", "waiting", "blocked #", "blocked ms",
                "waited #", "waited ms");
        for (Element th : children(child(contention, "THREADS"), "THREAD")) {
            long[] states = new long[4];
            for (Element st : children(th, "STATE")) {
                String n = st.getAttribute("NAME");
                int at = n.equals("RUNNING") ? 0 : n.equals("NATIVE") ? 1 : n.equals("BLOCKED") ? 2 : 3;
                states[at] += num(st, "SAMPLES");
            }
            t.row(th.getAttribute("NAME"), Long.toString(states[0]), Long.toString(states[1]),
                    Long.toString(states[2]), Long.toString(states[3]), th.getAttribute("BLOCKED_COUNT"),
                    th.getAttribute("BLOCKED_MS"), th.getAttribute("WAITED_COUNT"), th.getAttribute("WAITED_MS"));
        }
        t.appendTo(s, width);
        Element deadlocks = child(contention, "DEADLOCKS");
        if (deadlocks != null && !deadlocks.getAttribute("COUNT").equals("0")) {
            s.append("\nDeadlocks: ").append(deadlocks.getAttribute("COUNT")).append('\n');
            for (Element d : children(deadlocks, "DEADLOCK")) {
                for (Element th : children(d, "THREAD")) {
                    s.append("  \"").append(th.getAttribute("NAME")).append("\" waits for ")
                            .append(th.getAttribute("WAITS_FOR")).append(" held by \"")
                            .append(th.getAttribute("HELD_BY")).append("\"\n");
                }
            }
        }
    }

    private static String ms(long ns) {
        return String.format(Locale.ROOT, "%.0f", ns / 1e6);
    }

    private static long num(Element e, String attribute) {
        try {
            return Long.parseLong(e.getAttribute(attribute).trim());
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    private static Element child(Element e, String tag) {
        return TextReportXml.child(e, tag);
    }

    private static List<Element> children(Element e, String tag) {
        return TextReportXml.children(e, tag);
    }
}
