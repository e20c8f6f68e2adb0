package org.dyper.cli.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.runtime.jfr.DyperEvents;
import org.dyper.runtime.monitor.internal.sampling.Frame;
import org.dyper.runtime.monitor.internal.sampling.FrameNames;
import org.dyper.runtime.wire.Xml;

/**
 * A JFR recording as a Dyper report ({@code DYPER_REPORT}), so that {@code dyper report FILE.jfr} draws the same page
 * as for an XML report: the exact tables from the last {@code dyper.Timing}, {@code dyper.Count},
 * {@code dyper.Values}, {@code dyper.Lock} and {@code dyper.Allocation} of every site (the figures are cumulative), the trace timeline ({@code TRACES}) from
 * {@code dyper.MethodTrace}, and the flame graphs from the JDK's own events: CPU from {@code jdk.ExecutionSample}, ALLOC
 * from {@code jdk.ObjectAllocationSample} (bytes, by weight) and LOCK from {@code jdk.JavaMonitorEnter} and
 * {@code jdk.ThreadPark} (time blocked), each also per thread. Read in one pass; the stacks are merged as they come.
 */
final class JfrReport {
    /** At most this many traces go into the page (the earliest); the rest are counted. */
    static final int MAX_TRACES = 5_000;
    private static final String SAMPLE = "jdk.ExecutionSample";

    private JfrReport() {
    }

    /** Whether {@code file} starts as a JFR recording does ({@code FLR\0}). */
    static boolean isRecording(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] magic = in.readNBytes(4);
            return Arrays.equals(magic, new byte[] {'F', 'L', 'R', 0});
        } catch (IOException e) {
            return false;
        }
    }

    /** One stacks view: weights per path, overall and per thread. */
    private static final class View {
        final String name;
        final String unit;
        final Map<String, Long> paths = new LinkedHashMap<>();
        final Map<Long, String> threadNames = new TreeMap<>();
        final Map<Long, Map<String, Long>> threads = new TreeMap<>();
        long events;

        View(String name, String unit) {
            this.name = name;
            this.unit = unit;
        }

        void add(RecordedEvent e, String leaf, long weight) {
            RecordedStackTrace st = e.getStackTrace();
            if (st == null || weight <= 0) {
                return;
            }
            List<Frame> topFirst = new ArrayList<>(st.getFrames().size());
            for (RecordedFrame f : st.getFrames()) {
                if (f.getMethod() == null || f.getMethod().getType() == null || !f.isJavaFrame()) {
                    continue;
                }
                topFirst.add(new Frame(FrameNames.typeName(f.getMethod().getType().getName()), f.getMethod().getName(),
                        f.getLineNumber(), "Native".equals(f.getType()), null));
            }
            // as the monitor names them: AspectJ's around-advice frames folded into the woven method, lambdas unnumbered
            StringBuilder p = new StringBuilder(String.join(";", FrameNames.rootFirst(topFirst)));
            if (leaf != null) {
                p.append(p.length() > 0 ? ";" : "").append(leaf);
            }
            if (p.length() == 0) {
                return;
            }
            String path = p.toString().replace("\n", " ");
            events++;
            paths.merge(path, weight, Long::sum);
            RecordedThread t = threadOf(e);
            if (t != null) {
                threadNames.putIfAbsent(t.getJavaThreadId(), t.getJavaName());
                threads.computeIfAbsent(t.getJavaThreadId(), k -> new LinkedHashMap<>()).merge(path, weight, Long::sum);
            }
        }

        void xml(StringBuilder x) {
            x.append("      <VIEW NAME='").append(name).append("' UNIT='").append(unit).append("' SOURCE='JFR' TOTAL='")
                    .append(total(paths)).append("' EVENTS='").append(events).append("'>\n");
            paths(x, paths, "        ");
            threads.forEach((id, p) -> {
                x.append("        <THREAD ID='").append(id).append("' NAME='").append(Xml.esc(threadNames.get(id)))
                        .append("' TOTAL='").append(total(p)).append("'>\n");
                paths(x, p, "          ");
                x.append("        </THREAD>\n");
            });
            x.append("      </VIEW>\n");
        }

        int nodes() {
            return paths.size();
        }

        private static long total(Map<String, Long> p) {
            return p.values().stream().mapToLong(Long::longValue).sum();
        }

        private static void paths(StringBuilder x, Map<String, Long> p, String indent) {
            p.forEach((path, w) -> x.append(indent).append("<PATH WEIGHT='").append(w).append("'>")
                    .append(Xml.esc(path)).append("</PATH>\n"));
        }
    }

    private static RecordedThread threadOf(RecordedEvent e) {
        if (e.getEventType().getName().equals(SAMPLE) && e.hasField("sampledThread")) {
            return e.getThread("sampledThread");
        }
        return e.getThread();
    }

    /** The report of {@code file} as DYPER_REPORT XML. */
    static String xml(Path file) throws IOException {
        Map<String, RecordedEvent> timing = new TreeMap<>();
        Map<String, RecordedEvent> counts = new TreeMap<>();
        Map<String, RecordedEvent> values = new TreeMap<>();
        Map<String, RecordedEvent> locks = new TreeMap<>();
        Map<String, RecordedEvent> allocations = new TreeMap<>();
        List<RecordedEvent> traces = new ArrayList<>();
        long traceCount = 0;
        View cpu = new View("CPU", "SAMPLES");
        View alloc = new View("ALLOC", "BYTES");
        View lock = new View("LOCK", "NS");
        Instant first = null;
        Instant last = null;
        long pid = -1;
        long jvmStart = -1;
        String main = null;
        String dyperVersion = null;
        try (RecordingFile r = new RecordingFile(file)) {
            while (r.hasMoreEvents()) {
                RecordedEvent e = r.readEvent();
                if (first == null || e.getStartTime().isBefore(first)) {
                    first = e.getStartTime();
                }
                if (last == null || e.getEndTime().isAfter(last)) {
                    last = e.getEndTime();
                }
                String type = e.getEventType().getName();
                switch (type) {
                    case DyperEvents.PREFIX + "Timing" -> latest(timing, "T" + e.getInt("siteId"), e, "invocations");
                    case DyperEvents.PREFIX + "Count" -> latest(counts, e.getString("section") + e.getInt("siteId"), e,
                            "count");
                    case DyperEvents.PREFIX + "Values" -> latest(values, "V" + e.getInt("siteId"), e, "count");
                    case DyperEvents.PREFIX + "Lock" -> latest(locks, e.getString("section") + " " + e.getInt("siteId")
                            + " " + e.getString("name"), e, "acquisitions");
                    case DyperEvents.PREFIX + "Allocation" -> latest(allocations, e.getString("section") + " "
                            + e.getInt("siteId"), e, "count");
                    case DyperEvents.PREFIX + "MethodTrace" -> {
                        traceCount++;
                        traces.add(e);
                        if (traces.size() > 2 * MAX_TRACES) {
                            keepEarliest(traces);
                        }
                    }
                    case DyperEvents.PREFIX + "Version" -> dyperVersion = e.getString("version");
                    case SAMPLE -> cpu.add(e, null, 1);
                    case "jdk.ObjectAllocationSample" -> alloc.add(e, "[alloc " + className(e, "objectClass") + "]",
                            e.getLong("weight"));
                    case "jdk.JavaMonitorEnter" -> lock.add(e, "[lock " + className(e, "monitorClass") + "]",
                            e.getDuration().toNanos());
                    case "jdk.ThreadPark" -> lock.add(e, "[lock " + className(e, "parkedClass") + "]",
                            e.getDuration().toNanos());
                    case "jdk.JVMInformation" -> {
                        pid = e.getLong("pid");
                        jvmStart = e.getInstant("jvmStartTime").toEpochMilli();
                        String args = e.getString("javaArguments");
                        main = args == null || args.isBlank() ? null : args.trim().split("\\s+")[0];
                    }
                    default -> { }
                }
            }
        }
        if (first == null) {
            throw new IOException("no events in it");
        }
        keepEarliest(traces);
        long end = last.toEpochMilli();
        long start = jvmStart > 0 ? jvmStart : first.toEpochMilli();
        StringBuilder x = new StringBuilder(8192);
        x.append("<DYPER_REPORT VERSION='1'").append(pid > 0 ? " PID='" + pid + "'" : "").append(" TIME='").append(end)
                .append("' SOURCE='JFR'").append(dyperVersion == null ? "" : " EVENTS_VERSION='" + Xml.esc(dyperVersion)
                        + "'").append(">\n");
        section(x, "COUNTS", counts, "COUNTS");
        section(x, "CALLS", counts, "CALLS");
        x.append("  <TIMING>\n");
        for (RecordedEvent t : timing.values()) {
            x.append("    <SITE ID='").append(t.getInt("siteId")).append("' NAME='").append(Xml.esc(t.getString("method")))
                    .append("' COUNT='").append(t.getLong("invocations")).append("' TOTAL_NS='").append(t.getLong("total"))
                    .append("' MIN_NS='").append(t.getLong("minimum")).append("' MAX_NS='").append(t.getLong("maximum"))
                    .append("' MEAN_NS='").append(t.getLong("average")).append("'>\n");
            String h = t.getString("histogram");
            for (String bucket : h == null || h.isBlank() ? new String[0] : h.trim().split("\\s+")) {
                String[] b = bucket.split(":");
                x.append("      <BUCKET UPPER_NS='").append(Long.parseLong(b[0])).append("' COUNT='")
                        .append(Long.parseLong(b[1])).append("'/>\n");
            }
            x.append("    </SITE>\n");
        }
        x.append("  </TIMING>\n  <VALUES>\n");
        for (RecordedEvent v : values.values()) {
            x.append("    <SITE ID='").append(v.getInt("siteId")).append("' NAME='").append(Xml.esc(v.getString("site")))
                    .append("' COUNT='").append(v.getLong("count")).append("' SUM='").append(v.getLong("sum"))
                    .append("' MIN='").append(v.getLong("minimum")).append("' MAX='").append(v.getLong("maximum"))
                    .append("' NULLS='").append(v.getLong("nulls")).append("' NONNULLS='").append(v.getLong("nonNulls"))
                    .append("'/>\n");
        }
        x.append("  </VALUES>\n  <LOCKS>\n");
        for (RecordedEvent l : locks.values()) {
            boolean site = "SITE".equals(l.getString("section"));
            x.append(site ? "    <SITE ID='" + l.getInt("siteId") + "' NAME='" : "    <LOCK_CLASS NAME='")
                    .append(Xml.esc(l.getString("name"))).append("' ACQUISITIONS='").append(l.getLong("acquisitions"))
                    .append("' CONTENDED='").append(l.getLong("contended")).append("' WAIT_NS='")
                    .append(l.getLong("waitTotal")).append("' MAX_WAIT_NS='").append(l.getLong("maximumWait"))
                    .append("' HOLD_NS='").append(l.getLong("holdTotal")).append("' MAX_HOLD_NS='")
                    .append(l.getLong("maximumHold")).append("'/>\n");
        }
        x.append("  </LOCKS>\n  <ALLOCATIONS>\n");
        for (RecordedEvent a : allocations.values()) {
            boolean site = "SITE".equals(a.getString("section"));
            x.append(site ? "    <SITE" : "    <TYPE").append(" ID='").append(a.getInt("siteId")).append("' NAME='")
                    .append(Xml.esc(a.getString("name"))).append("' COUNT='").append(a.getLong("count"))
                    .append(site ? "' ARRAYS='" + a.getLong("arrays") : "").append("' TOTAL_LENGTH='")
                    .append(a.getLong("totalLength")).append("' MAX_LENGTH='").append(a.getLong("maximumLength"))
                    .append("'/>\n");
        }
        x.append("  </ALLOCATIONS>\n");
        x.append("  <TRACES TOTAL='").append(traceCount).append("' SHOWN='").append(traces.size()).append("' START='")
                .append(first.toEpochMilli()).append("' END='").append(end).append("'>\n");
        for (RecordedEvent t : traces) {
            RecordedThread th = t.getThread();
            x.append("    <TRACE AT_NS='").append(java.time.Duration.between(first, t.getStartTime()).toNanos())
                    .append("' DURATION_NS='").append(t.getDuration().toNanos()).append("' THREAD='")
                    .append(Xml.esc(th == null ? "?" : th.getJavaName())).append("' THREAD_ID='")
                    .append(th == null ? -1 : th.getJavaThreadId()).append("' METHOD='")
                    .append(Xml.esc(t.getString("method"))).append("' DEPTH='").append(t.getInt("depth"))
                    .append("' ARGUMENT='").append(t.getLong("argument")).append("' RETURN='")
                    .append(t.getLong("returnValue")).append("'/>\n");
        }
        x.append("  </TRACES>\n");
        x.append("  <MONITOR_REPORT VERSION='1'").append(pid > 0 ? " PID='" + pid + "'" : "").append(" TIME='")
                .append(end).append("' START='").append(start).append('\'')
                .append(main == null ? "" : " MAIN='" + Xml.esc(main) + "'").append(" SOURCE='JFR'>\n");
        List<View> views = new ArrayList<>();
        for (View v : List.of(cpu, alloc, lock)) {
            if (!v.paths.isEmpty()) {
                views.add(v);
            }
        }
        if (!views.isEmpty()) {
            x.append("    <STACKS EXACT='false' SOURCE='JFR' NODES='")
                    .append(views.stream().mapToInt(View::nodes).sum()).append("' DROPPED='0'>\n");
            views.forEach(v -> v.xml(x));
            x.append("    </STACKS>\n");
        }
        x.append("  </MONITOR_REPORT>\n</DYPER_REPORT>\n");
        return x.toString();
    }

    private static void section(StringBuilder x, String tag, Map<String, RecordedEvent> counts, String section) {
        x.append("  <").append(tag).append(">\n");
        for (RecordedEvent c : counts.values()) {
            if (section.equals(c.getString("section"))) {
                x.append("    <SITE ID='").append(c.getInt("siteId")).append("' NAME='")
                        .append(Xml.esc(c.getString("site"))).append("' COUNT='").append(c.getLong("count"))
                        .append("'/>\n");
            }
        }
        x.append("  </").append(tag).append(">\n");
    }

    /** Keeps the figure event of a site that came last (the figures only grow; a later one of equal time wins). */
    private static void latest(Map<String, RecordedEvent> m, String key, RecordedEvent e, String growing) {
        m.merge(key, e, (old, now) -> now.getStartTime().isAfter(old.getStartTime())
                || now.getStartTime().equals(old.getStartTime()) && now.getLong(growing) >= old.getLong(growing)
                ? now : old);
    }

    private static void keepEarliest(List<RecordedEvent> traces) {
        traces.sort((a, b) -> a.getStartTime().compareTo(b.getStartTime()));
        if (traces.size() > MAX_TRACES) {
            traces.subList(MAX_TRACES, traces.size()).clear();
        }
    }

    private static String className(RecordedEvent e, String field) {
        if (!e.hasField(field)) {
            return "?";
        }
        RecordedClass c = e.getClass(field);
        // as the monitor writes it: "[Ljava.lang.Object;" would end the frame at its ';', the paths' separator
        return c == null ? "?" : FrameNames.typeName(c.getName());
    }
}
