package org.dyper.cli.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.cli.fleet.Fleet;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * One {@code MONITOR_REPORT} for many JVMs (docs/fleet.md, "One report for many JVMs"): the exact figures of their
 * woven code added up ({@link ExactMerge}), the sampled stacks of every view merged into one tree whose per-thread
 * trees are the JVMs (so the page's thread choice shows one JVM's flame graph), the CPU tables added up, and a
 * {@code FLEET} section with one {@code JVM} per member: who it is, whether it answered, how it was woven or patched,
 * its run-time patches, its own view totals and its own exact figures. The page ({@code dyper report}) and a later
 * {@code dyper report FILE.xml} read it as any report.
 *
 * <p>{@link Merger} folds each reply in as it comes and keeps only the sums and what each JVM's own part of the page
 * needs, never the replies: a thousand REPORTs of 150 kB are not held at once (benchmarks/run-fleet). Each JVM's own
 * flame graph keeps its heaviest paths up to {@link #OWN_PATHS_CHARS} over all JVMs; the rest of it is counted as
 * omitted (the merged graph keeps every path).
 */
final class FleetReport {
    /** How many characters of path text the JVMs' own flame graphs keep, over all JVMs of one report. */
    static final long OWN_PATHS_CHARS = 32L << 20;

    private FleetReport() {
    }

    /** The merged report of the REPORT answers {@code answers} (in the members' order); see {@link Merger}. */
    static String merge(Fleet fleet, List<Fleet.Answer> answers, long time) {
        Merger m = new Merger(fleet, answers.stream().map(Fleet.Answer::member).toList());
        for (int i = 0; i < answers.size(); i++) {
            m.add(i, answers.get(i));
        }
        return m.xml(time);
    }

    /** What stays of one member's REPORT once it is folded in. */
    private static final class Part {
        final int n;
        final Fleet.Member member;
        final String label;
        String error;
        boolean ok;
        long start = -1;
        String checktime;
        String woven;
        String patches;
        String exact;
        final StringBuilder sampled = new StringBuilder();

        Part(int n, Fleet.Member member, String label) {
            this.n = n;
            this.member = member;
            this.label = label;
        }
    }

    /** One view of the merged stacks: its paths added up, and each JVM's own (bounded) tree. */
    private static final class View {
        final int firstJvm;
        final int position;
        String unit;
        final Set<String> sources = new LinkedHashSet<>();
        final Map<String, Long> paths = new LinkedHashMap<>();
        long total;
        final Map<String, Long> sums = new LinkedHashMap<>();
        final Map<Integer, String> threads = new java.util.TreeMap<>();

        View(int firstJvm, int position) {
            this.firstJvm = firstJvm;
            this.position = position;
        }
    }

    /** The views' attributes that add up. */
    private static final List<String> VIEW_SUMS = List.of("EVENTS", "OMITTED_PATHS", "OMITTED_WEIGHT", "DROPPED",
            "DROPPED_WEIGHT", "THREAD_DROPPED");

    /**
     * Folds the REPORT answers of a fleet's {@code members} in one at a time, in any order ({@link #add}), and makes
     * the merged report at the end ({@link #xml}); each member is named by {@code fleet.describe(member)}.
     */
    static final class Merger {
        private final Fleet fleet;
        private final Part[] parts;
        private final long ownChars;
        private final ExactMerge exact = new ExactMerge();
        private final Set<String> mains = new LinkedHashSet<>();
        // CPU
        private final Map<String, String> cpuAttrs = new LinkedHashMap<>();
        private final String[] cpuThreads;
        private final Map<String, Map<String, Map<String, String>>> cpuTables = new LinkedHashMap<>();
        private boolean cpu;
        // STACKS
        private boolean stacks;
        private final Set<String> stackSources = new LinkedHashSet<>();
        private long maxDepth;
        private long nodes;
        private long nodeLimit;
        private long dropped;
        private final Map<String, View> views = new LinkedHashMap<>();

        Merger(Fleet fleet, List<Fleet.Member> members) {
            this(fleet, members, OWN_PATHS_CHARS);
        }

        /** As {@link #Merger(Fleet, List)}, the JVMs' own trees keeping {@code ownPathsChars} of path text in all. */
        Merger(Fleet fleet, List<Fleet.Member> members, long ownPathsChars) {
            this.fleet = fleet;
            this.parts = new Part[members.size()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = new Part(i + 1, members.get(i), fleet.describe(members.get(i)));
                mains.add(members.get(i).mainClass());
            }
            this.cpuThreads = new String[parts.length];
            this.ownChars = Math.max(4096, ownPathsChars / Math.max(1, parts.length));
            for (String[] table : CPU_TABLES) {
                cpuTables.put(table[0], new LinkedHashMap<>());
            }
        }

        /** Folds in the answer of member {@code index} (its reply is not kept); why it has no report, or null. */
        String add(int index, Fleet.Answer a) {
            Part p = parts[index];
            if (!a.ok()) {
                p.error = a.error();
                return p.error;
            }
            Element monitor;
            try {
                Element root = MonitorReply.parse(a.reply());
                Element error = Xml.child(root, "ERROR");
                monitor = root.getTagName().equals("MONITOR_REPORT") ? root : Xml.child(root, "MONITOR_REPORT");
                if (error != null || monitor == null) {
                    p.error = p.label + ": " + (error != null ? "the monitor answered ERROR: " + error.getTextContent()
                            : "the reply holds no MONITOR_REPORT");
                    return p.error;
                }
            } catch (MonitorReply.MalformedException e) {
                p.error = p.label + ": unreadable reply: " + e.getMessage();
                return p.error;
            }
            p.ok = true;
            p.start = ExactMerge.parse(monitor.getAttribute("START"));
            p.checktime = monitor.getAttribute("CHECKTIME");
            Element own = exact(monitor);
            if (own != null) {
                exact.add(own, index);
                p.exact = Xml.serialize(own);
            }
            Element patches = Xml.child(monitor, "PATCHES");
            if (patches != null && !Xml.children(patches, "MODEL").isEmpty()) {
                p.patches = Xml.serialize(patches);
            }
            p.woven = woven(patches, own != null);
            cpu(p, Xml.child(monitor, "CPU"));
            stacks(p, Xml.child(monitor, "STACKS"));
            return null;
        }

        /** The merged report, stamped {@code time} (epoch ms). */
        String xml(long time) {
            StringBuilder x = new StringBuilder(65536);
            long start = -1;
            String check = null;
            boolean sameCheck = true;
            for (Part p : parts) {
                if (!p.ok) {
                    continue;
                }
                if (p.start > 0) {
                    start = start < 0 ? p.start : Math.min(start, p.start);
                }
                if (check != null && !check.equals(p.checktime)) {
                    sameCheck = false;
                }
                check = p.checktime;
            }
            x.append("<MONITOR_REPORT VERSION='1' TIME='").append(time).append('\'');
            if (start > 0) {
                x.append(" START='").append(start).append('\'');
            }
            x.append(" MAIN='").append(Xml.esc(mains.size() == 1 ? mains.iterator().next()
                    : String.join(", ", mains))).append("' MONITOR='true'");
            if (sameCheck && check != null && !check.isEmpty()) {
                x.append(" CHECKTIME='").append(Xml.esc(check)).append('\'');
            }
            x.append('>');
            x.append("<INSTRUMENTATION EXACT='true' ACTIVE='").append(!exact.isEmpty()).append("'>");
            if (!exact.isEmpty()) {
                x.append(exact.xml(time));
            }
            x.append("</INSTRUMENTATION>");
            cpuXml(x);
            stacksXml(x);
            fleetXml(x);
            return x.append("</MONITOR_REPORT>").toString();
        }

        // ---- CPU ----

        private static final String[][] CPU_TABLES = {{"PACKAGES", "PACKAGE"}, {"CLASSES", "CLASS"},
            {"METHODS", "METHOD"}, {"LINES", "LINE"}};

        /** The CPU section: its figures and tables added up; the threads listed under their JVM's number. */
        private void cpu(Part p, Element c) {
            if (c == null) {
                return;
            }
            cpu = true;
            p.sampled.append("<SAMPLED VIEW='CPU_TABLE' UNIT='SAMPLES' TOTAL='")
                    .append(ExactMerge.parse(c.getAttribute("SAMPLES"))).append("'/>");
            var list = c.getAttributes();
            for (int i = 0; i < list.getLength(); i++) {
                String name = list.item(i).getNodeName();
                String value = list.item(i).getNodeValue();
                String had = cpuAttrs.get(name);
                boolean number = value.matches("-?\\d+");
                if (had == null) {
                    cpuAttrs.put(name, value);
                } else if (number && had.matches("-?\\d+") && name.equals("FROM")) {
                    // a time, not an amount: the merged samples begin at the earliest JVM's
                    cpuAttrs.put(name, Long.toString(Math.min(Long.parseLong(had), Long.parseLong(value))));
                } else if (number && had.matches("-?\\d+")) {
                    long a = Long.parseLong(had);
                    long b = Long.parseLong(value);
                    // MONITOR_CPU_NS is -1 where a JVM has no thread CPU clock: then the sum is unknown too
                    cpuAttrs.put(name, Long.toString(a < 0 || b < 0 ? -1 : a + b));
                } else if (!had.equals(value)) {
                    cpuAttrs.put(name, had + "," + value);
                }
            }
            StringBuilder threads = new StringBuilder();
            for (Element t : Xml.children(Xml.child(c, "THREADS"), "THREAD")) {
                threads.append("<THREAD ID='").append(Xml.esc(t.getAttribute("ID"))).append("' NAME='")
                        .append(Xml.esc("JVM " + p.n + ": " + t.getAttribute("NAME"))).append("' SAMPLES='")
                        .append(Xml.esc(t.getAttribute("SAMPLES"))).append("' RUNNABLE='")
                        .append(Xml.esc(t.getAttribute("RUNNABLE"))).append("' CPU_NS='")
                        .append(Xml.esc(t.getAttribute("CPU_NS"))).append("' CPU_EXACT='true'/>");
            }
            cpuThreads[p.n - 1] = threads.toString();
            for (String[] table : CPU_TABLES) {
                Map<String, Map<String, String>> items = cpuTables.get(table[0]);
                for (Element item : Xml.children(Xml.child(c, table[0]), table[1])) {
                    String key = item.getAttribute("CLASS") + "\u0000" + item.getAttribute("METHOD") + "\u0000"
                            + item.getAttribute("NAME") + "\u0000" + item.getAttribute("LINE");
                    Map<String, String> merged = items.get(key);
                    if (merged == null) {
                        merged = new LinkedHashMap<>();
                        items.put(key, merged);
                        var attrs = item.getAttributes();
                        for (int i = 0; i < attrs.getLength(); i++) {
                            merged.put(attrs.item(i).getNodeName(), attrs.item(i).getNodeValue());
                        }
                        continue;
                    }
                    for (String k : List.of("SELF", "TOTAL", "IO", "SELF_NS", "TOTAL_NS", "IO_NS")) {
                        merged.put(k, Long.toString(ExactMerge.parse(merged.getOrDefault(k, "0"))
                                + ExactMerge.parse(item.getAttribute(k))));
                    }
                    if ("true".equals(item.getAttribute("DETAIL"))) {
                        merged.put("DETAIL", "true");
                    }
                }
            }
        }

        private void cpuXml(StringBuilder x) {
            if (!cpu) {
                return;
            }
            x.append("<CPU");
            cpuAttrs.forEach((k, v) -> x.append(' ').append(k).append("='").append(Xml.esc(v)).append('\''));
            x.append("><THREADS>");
            for (String t : cpuThreads) {
                if (t != null) {
                    x.append(t);
                }
            }
            x.append("</THREADS>");
            for (String[] table : CPU_TABLES) {
                x.append('<').append(table[0]).append('>');
                List<Map.Entry<String, Map<String, String>>> sorted = new ArrayList<>(cpuTables.get(table[0])
                        .entrySet());
                sorted.sort(Comparator.comparingLong((Map.Entry<String, Map<String, String>> e) ->
                        ExactMerge.parse(e.getValue().get("SELF")) - ExactMerge.parse(e.getValue().get("IO")))
                        .reversed()
                        .thenComparing(Comparator.comparingLong((Map.Entry<String, Map<String, String>> e) ->
                                ExactMerge.parse(e.getValue().get("TOTAL"))).reversed())
                        .thenComparing(Map.Entry::getKey));
                for (Map.Entry<String, Map<String, String>> e : sorted) {
                    x.append('<').append(table[1]);
                    e.getValue().forEach((k, v) -> x.append(' ').append(k).append("='").append(Xml.esc(v))
                            .append('\''));
                    x.append("/>");
                }
                x.append("</").append(table[0]).append('>');
            }
            x.append("</CPU>");
        }

        // ---- STACKS ----

        /**
         * One JVM's STACKS: per view its paths added to the merged ones, and kept as that JVM's tree (a THREAD: ID
         * its number, NAME the JVM), its heaviest paths within its share of {@link #OWN_PATHS_CHARS}.
         */
        private void stacks(Part p, Element s) {
            if (s == null) {
                return;
            }
            stacks = true;
            stackSources.add(s.getAttribute("SOURCE"));
            maxDepth = Math.max(maxDepth, ExactMerge.parse(s.getAttribute("MAXDEPTH")));
            nodes += ExactMerge.parse(s.getAttribute("NODES"));
            nodeLimit += ExactMerge.parse(s.getAttribute("NODE_LIMIT"));
            dropped += ExactMerge.parse(s.getAttribute("DROPPED"));
            List<Element> own = Xml.children(s, "VIEW");
            int position = 0;
            for (Element v : own) {
                String name = v.getAttribute("NAME");
                int at = position++;
                View view = views.computeIfAbsent(name, k -> new View(p.n, at));
                if (view.unit == null) {
                    view.unit = v.getAttribute("UNIT");
                }
                view.sources.add(v.getAttribute("SOURCE"));
                for (String a : VIEW_SUMS) {
                    view.sums.merge(a, ExactMerge.parse(v.getAttribute(a)), Long::sum);
                }
                List<Map.Entry<String, Long>> paths = new ArrayList<>();
                for (Element path : Xml.children(v, "PATH")) {
                    long w = ExactMerge.parse(path.getAttribute("WEIGHT"));
                    String frames = path.getTextContent().trim();
                    view.paths.merge(frames, w, Long::sum);
                    view.total += w;
                    paths.add(Map.entry(frames, w));
                }
                paths.sort(Map.Entry.<String, Long>comparingByValue().reversed());
                long budget = ownChars / own.size();
                long used = 0;
                long omittedPaths = ExactMerge.parse(v.getAttribute("OMITTED_PATHS"));
                long omittedWeight = ExactMerge.parse(v.getAttribute("OMITTED_WEIGHT"));
                StringBuilder kept = new StringBuilder();
                long keptWeight = 0;
                for (int i = 0; i < paths.size(); i++) {
                    Map.Entry<String, Long> e = paths.get(i);
                    used += e.getKey().length();
                    if (i > 0 && used > budget) {
                        omittedPaths++;
                        omittedWeight += e.getValue();
                        continue;
                    }
                    keptWeight += e.getValue();
                    path(kept, e.getKey(), e.getValue());
                }
                // TOTAL is what the paths listed add up to (the report's rule); what was left out is OMITTED_*
                view.threads.put(p.n, "<THREAD ID='" + p.n + "' NAME='" + Xml.esc(p.label) + "' TOTAL='" + keptWeight
                        + "' OMITTED_PATHS='" + omittedPaths + "' OMITTED_WEIGHT='" + omittedWeight + "'>" + kept
                        + "</THREAD>");
                p.sampled.append("<SAMPLED VIEW='").append(Xml.esc(name)).append("' UNIT='")
                        .append(Xml.esc(v.getAttribute("UNIT"))).append("' TOTAL='")
                        .append(ExactMerge.parse(v.getAttribute("TOTAL"))).append("'/>");
            }
        }

        private void stacksXml(StringBuilder x) {
            if (!stacks) {
                return;
            }
            x.append("<STACKS EXACT='false' SOURCE='").append(Xml.esc(String.join(",", stackSources)))
                    .append("' MAXDEPTH='").append(maxDepth).append("' NODES='").append(nodes)
                    .append("' NODE_LIMIT='").append(nodeLimit).append("' DROPPED='").append(dropped).append("'>");
            List<Map.Entry<String, View>> ordered = new ArrayList<>(views.entrySet());
            // in the order the first JVM (by number) that has them lists them, whatever order the replies came in
            ordered.sort(Comparator.comparingInt((Map.Entry<String, View> e) -> e.getValue().firstJvm)
                    .thenComparingInt(e -> e.getValue().position));
            for (Map.Entry<String, View> e : ordered) {
                View view = e.getValue();
                x.append("<VIEW NAME='").append(Xml.esc(e.getKey())).append("' UNIT='").append(Xml.esc(view.unit))
                        .append("' SOURCE='").append(Xml.esc(String.join(",", view.sources))).append("' TOTAL='")
                        .append(view.total);
                for (String a : VIEW_SUMS) {
                    x.append("' ").append(a).append("='").append(view.sums.getOrDefault(a, 0L));
                }
                x.append("' THREADS_OMITTED='0'>");
                List<Map.Entry<String, Long>> paths = new ArrayList<>(view.paths.entrySet());
                paths.sort(Map.Entry.<String, Long>comparingByValue().reversed()
                        .thenComparing(Map.Entry.comparingByKey()));
                for (Map.Entry<String, Long> p : paths) {
                    path(x, p.getKey(), p.getValue());
                }
                view.threads.values().forEach(x::append);
                x.append("</VIEW>");
            }
            x.append("</STACKS>");
        }

        // ---- FLEET ----

        /**
         * {@code <FLEET CARRIER ASKED ANSWERED>}, then per member {@code <JVM N NAME LABEL HOST PID MAIN START JAVA
         * STATUS [WOVEN] [ERROR]>} with its view totals ({@code <SAMPLED VIEW UNIT TOTAL/>}), its run-time patches
         * ({@code PATCHES}, as its monitor reported them) and its own {@code DYPER_REPORT}.
         */
        private void fleetXml(StringBuilder x) {
            long answered = java.util.Arrays.stream(parts).filter(p -> p.ok).count();
            x.append("<FLEET CARRIER='").append(Xml.esc(fleet.describe())).append("' ASKED='").append(parts.length)
                    .append("' ANSWERED='").append(answered).append("'>");
            for (Part p : parts) {
                Fleet.Member m = p.member;
                x.append("<JVM N='").append(p.n).append("' NAME='").append(Xml.esc(m.id())).append("' LABEL='")
                        .append(Xml.esc(p.label)).append("' HOST='").append(Xml.esc(m.host())).append("' PID='")
                        .append(m.pid()).append("' MAIN='").append(Xml.esc(m.mainClass())).append("' START='")
                        .append(m.startMillis()).append("' JAVA='").append(Xml.esc(m.jdk())).append("' STATUS='")
                        .append(p.ok ? "OK" : "MISSING").append('\'');
                if (!p.ok) {
                    x.append(" ERROR='").append(Xml.esc(p.error == null ? p.label + ": no answer" : p.error))
                            .append("'/>");
                    continue;
                }
                x.append(" WOVEN='").append(Xml.esc(p.woven)).append("'>").append(p.sampled);
                if (p.patches != null) {
                    x.append(p.patches);
                }
                if (p.exact != null) {
                    x.append(p.exact);
                }
                x.append("</JVM>");
            }
            x.append("</FLEET>");
        }
    }

    /** The woven code's figures of one JVM's report, or null when nothing woven reports there. */
    static Element exact(Element monitor) {
        Element ins = Xml.child(monitor, "INSTRUMENTATION");
        return ins == null || !"true".equals(ins.getAttribute("ACTIVE")) ? null : Xml.child(ins, "DYPER_REPORT");
    }

    /**
     * How one JVM was woven or patched, as its REPORT tells: its run-time patches (PATCHES), else whether woven code
     * reports there (woven at or before its launch: the REPORT does not say which way).
     */
    static String woven(Element patches, boolean reporting) {
        List<Element> models = patches == null ? List.of() : Xml.children(patches, "MODEL");
        if (models.isEmpty()) {
            return reporting ? "woven at or before its launch (no run-time patch)" : "nothing woven";
        }
        List<String> said = new ArrayList<>();
        for (Element model : models) {
            Set<String> now = new LinkedHashSet<>();
            for (Element c : Xml.children(model, "CLASS")) {
                if ("PATCHED".equals(c.getAttribute("STATE"))) {
                    now.add(c.getAttribute("NAME"));
                }
            }
            said.add("model " + model.getAttribute("NAME") + (("true".equals(model.getAttribute("ACTIVE")))
                    ? " in (" + now.size() + (now.size() == 1 ? " class" : " classes") + " patched now)"
                    : " taken out"));
        }
        return "patched at run time: " + String.join("; ", said);
    }

    private static void path(StringBuilder x, String frames, long weight) {
        x.append("<PATH WEIGHT='").append(weight).append("'>").append(Xml.text(frames)).append("</PATH>");
    }
}
