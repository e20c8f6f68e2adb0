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
 * {@code FLEET} section with one {@code JVM} per member: who it is, whether it answered, its own view totals and its
 * own exact figures. The page ({@code dyper report}) and a later {@code dyper report FILE.xml} read it as any report.
 */
final class FleetReport {
    private FleetReport() {
    }

    /** One member's REPORT as it came: its parts, or why there is none. */
    private record Part(int n, Fleet.Member member, String label, Element monitor, String error) {
    }

    /**
     * The merged report of the REPORT answers {@code answers} of the fleet {@code carrier} ({@code fleet.describe()}),
     * each member named by {@code fleet.describe(member)}; {@code time}: when it was taken (epoch ms).
     */
    static String merge(Fleet fleet, List<Fleet.Answer> answers, long time) {
        List<Part> parts = new ArrayList<>();
        int n = 0;
        for (Fleet.Answer a : answers) {
            n++;
            String label = fleet.describe(a.member());
            if (!a.ok()) {
                parts.add(new Part(n, a.member(), label, null, a.error()));
                continue;
            }
            try {
                Element root = MonitorReply.parse(a.reply());
                Element error = Xml.child(root, "ERROR");
                Element monitor = root.getTagName().equals("MONITOR_REPORT") ? root : Xml.child(root, "MONITOR_REPORT");
                if (error != null || monitor == null) {
                    parts.add(new Part(n, a.member(), label, null, label + ": " + (error != null
                            ? "the monitor answered ERROR: " + error.getTextContent()
                            : "the reply holds no MONITOR_REPORT")));
                } else {
                    parts.add(new Part(n, a.member(), label, monitor, null));
                }
            } catch (MonitorReply.MalformedException e) {
                parts.add(new Part(n, a.member(), label, null, label + ": unreadable reply: " + e.getMessage()));
            }
        }
        List<Part> ok = parts.stream().filter(p -> p.monitor() != null).toList();
        StringBuilder x = new StringBuilder(65536);
        Set<String> mains = new LinkedHashSet<>();
        parts.forEach(p -> mains.add(p.member().mainClass()));
        long start = ok.stream().mapToLong(p -> ExactMerge.parse(p.monitor().getAttribute("START"))).filter(s -> s > 0)
                .min().orElse(-1);
        x.append("<MONITOR_REPORT VERSION='1' TIME='").append(time).append('\'');
        if (start > 0) {
            x.append(" START='").append(start).append('\'');
        }
        x.append(" MAIN='").append(Xml.esc(mains.size() == 1 ? mains.iterator().next()
                : String.join(", ", mains))).append("' MONITOR='true'");
        String check = same(ok, p -> p.monitor().getAttribute("CHECKTIME"));
        if (check != null) {
            x.append(" CHECKTIME='").append(Xml.esc(check)).append('\'');
        }
        x.append('>');
        List<Element> exact = new ArrayList<>();
        for (Part p : ok) {
            Element e = exact(p.monitor());
            if (e != null) {
                exact.add(e);
            }
        }
        x.append("<INSTRUMENTATION EXACT='true' ACTIVE='").append(!exact.isEmpty()).append("'>");
        if (!exact.isEmpty()) {
            x.append(ExactMerge.merge(exact, time));
        }
        x.append("</INSTRUMENTATION>");
        cpu(x, ok);
        stacks(x, ok);
        fleetSection(x, fleet, parts);
        return x.append("</MONITOR_REPORT>").toString();
    }

    /** The woven code's figures of one JVM's report, or null when nothing woven reports there. */
    static Element exact(Element monitor) {
        Element ins = Xml.child(monitor, "INSTRUMENTATION");
        return ins == null || !"true".equals(ins.getAttribute("ACTIVE")) ? null : Xml.child(ins, "DYPER_REPORT");
    }

    private interface Value {
        String of(Part p);
    }

    /** The value every part gives, or null when they differ (or there is none). */
    private static String same(List<Part> parts, Value v) {
        String seen = null;
        for (Part p : parts) {
            String s = v.of(p);
            if (seen != null && !seen.equals(s)) {
                return null;
            }
            seen = s;
        }
        return seen == null || seen.isEmpty() ? null : seen;
    }

    /** The CPU section: its figures and tables added up; the threads listed under their JVM's number. */
    private static void cpu(StringBuilder x, List<Part> parts) {
        List<Element> cpus = new ArrayList<>();
        List<Part> with = new ArrayList<>();
        for (Part p : parts) {
            Element c = Xml.child(p.monitor(), "CPU");
            if (c != null) {
                cpus.add(c);
                with.add(p);
            }
        }
        if (cpus.isEmpty()) {
            return;
        }
        x.append("<CPU");
        Map<String, String> attrs = new LinkedHashMap<>();
        for (Element c : cpus) {
            var list = c.getAttributes();
            for (int i = 0; i < list.getLength(); i++) {
                String name = list.item(i).getNodeName();
                String value = list.item(i).getNodeValue();
                String had = attrs.get(name);
                boolean number = value.matches("-?\\d+");
                if (had == null) {
                    attrs.put(name, value);
                } else if (number && had.matches("-?\\d+")) {
                    long a = Long.parseLong(had);
                    long b = Long.parseLong(value);
                    // MONITOR_CPU_NS is -1 where a JVM has no thread CPU clock: then the sum is unknown too
                    attrs.put(name, Long.toString(a < 0 || b < 0 ? -1 : a + b));
                } else if (!had.equals(value)) {
                    attrs.put(name, had + "," + value);
                }
            }
        }
        attrs.forEach((k, v) -> x.append(' ').append(k).append("='").append(Xml.esc(v)).append('\''));
        x.append("><THREADS>");
        for (int i = 0; i < cpus.size(); i++) {
            for (Element t : Xml.children(Xml.child(cpus.get(i), "THREADS"), "THREAD")) {
                x.append("<THREAD ID='").append(Xml.esc(t.getAttribute("ID"))).append("' NAME='")
                        .append(Xml.esc("JVM " + with.get(i).n() + ": " + t.getAttribute("NAME"))).append("' SAMPLES='")
                        .append(Xml.esc(t.getAttribute("SAMPLES"))).append("' RUNNABLE='")
                        .append(Xml.esc(t.getAttribute("RUNNABLE"))).append("' CPU_NS='")
                        .append(Xml.esc(t.getAttribute("CPU_NS"))).append("' CPU_EXACT='true'/>");
            }
        }
        x.append("</THREADS>");
        for (String[] table : new String[][] {{"PACKAGES", "PACKAGE"}, {"CLASSES", "CLASS"}, {"METHODS", "METHOD"},
                {"LINES", "LINE"}}) {
            x.append('<').append(table[0]).append('>');
            Map<String, Map<String, String>> items = new LinkedHashMap<>();
            for (Element c : cpus) {
                for (Element item : Xml.children(Xml.child(c, table[0]), table[1])) {
                    String key = item.getAttribute("CLASS") + "\u0000" + item.getAttribute("METHOD") + "\u0000"
                            + item.getAttribute("NAME") + "\u0000" + item.getAttribute("LINE");
                    Map<String, String> merged = items.get(key);
                    if (merged == null) {
                        merged = new LinkedHashMap<>();
                        items.put(key, merged);
                        var list = item.getAttributes();
                        for (int i = 0; i < list.getLength(); i++) {
                            merged.put(list.item(i).getNodeName(), list.item(i).getNodeValue());
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
            List<Map<String, String>> sorted = new ArrayList<>(items.values());
            sorted.sort(Comparator.comparingLong((Map<String, String> m) -> ExactMerge.parse(m.get("SELF"))
                    - ExactMerge.parse(m.get("IO"))).reversed()
                    .thenComparing(Comparator.comparingLong((Map<String, String> m) -> ExactMerge.parse(m.get("TOTAL")))
                            .reversed()));
            for (Map<String, String> m : sorted) {
                x.append('<').append(table[1]);
                m.forEach((k, v) -> x.append(' ').append(k).append("='").append(Xml.esc(v)).append('\''));
                x.append("/>");
            }
            x.append("</").append(table[0]).append('>');
        }
        x.append("</CPU>");
    }

    /** One view's paths of one JVM (its whole-view paths, not its threads'). */
    private static final class ViewPart {
        final Part part;
        final Element view;

        ViewPart(Part part, Element view) {
            this.part = part;
            this.view = view;
        }
    }

    /**
     * STACKS: per view, the paths of every JVM added up by their frames, then one THREAD per JVM (ID its number, NAME
     * the JVM) holding that JVM's paths of the view, so that the sum over the THREADs is the view's TOTAL.
     */
    private static void stacks(StringBuilder x, List<Part> parts) {
        List<Element> all = new ArrayList<>();
        List<Part> with = new ArrayList<>();
        for (Part p : parts) {
            Element s = Xml.child(p.monitor(), "STACKS");
            if (s != null) {
                all.add(s);
                with.add(p);
            }
        }
        if (all.isEmpty()) {
            return;
        }
        x.append("<STACKS EXACT='false' SOURCE='").append(Xml.esc(joined(all, "SOURCE"))).append("' MAXDEPTH='")
                .append(all.stream().mapToLong(s -> ExactMerge.parse(s.getAttribute("MAXDEPTH"))).max().orElse(0))
                .append("' NODES='").append(sum(all, "NODES")).append("' NODE_LIMIT='").append(sum(all, "NODE_LIMIT"))
                .append("' DROPPED='").append(sum(all, "DROPPED")).append("'>");
        Map<String, List<ViewPart>> views = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            for (Element v : Xml.children(all.get(i), "VIEW")) {
                views.computeIfAbsent(v.getAttribute("NAME"), k -> new ArrayList<>()).add(new ViewPart(with.get(i), v));
            }
        }
        for (Map.Entry<String, List<ViewPart>> view : views.entrySet()) {
            List<Element> elements = view.getValue().stream().map(vp -> vp.view).toList();
            Map<String, Long> merged = new LinkedHashMap<>();
            long total = 0;
            for (Element v : elements) {
                for (Element path : Xml.children(v, "PATH")) {
                    long w = ExactMerge.parse(path.getAttribute("WEIGHT"));
                    merged.merge(path.getTextContent().trim(), w, Long::sum);
                    total += w;
                }
            }
            x.append("<VIEW NAME='").append(Xml.esc(view.getKey())).append("' UNIT='")
                    .append(Xml.esc(elements.get(0).getAttribute("UNIT"))).append("' SOURCE='")
                    .append(Xml.esc(joined(elements, "SOURCE"))).append("' TOTAL='").append(total);
            for (String a : List.of("EVENTS", "OMITTED_PATHS", "OMITTED_WEIGHT", "DROPPED", "DROPPED_WEIGHT",
                    "THREAD_DROPPED")) {
                x.append("' ").append(a).append("='").append(sum(elements, a));
            }
            x.append("' THREADS_OMITTED='0'>");
            List<Map.Entry<String, Long>> paths = new ArrayList<>(merged.entrySet());
            paths.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
            for (Map.Entry<String, Long> p : paths) {
                path(x, p.getKey(), p.getValue());
            }
            for (ViewPart vp : view.getValue()) {
                long own = 0;
                for (Element path : Xml.children(vp.view, "PATH")) {
                    own += ExactMerge.parse(path.getAttribute("WEIGHT"));
                }
                x.append("<THREAD ID='").append(vp.part.n()).append("' NAME='").append(Xml.esc(vp.part.label()))
                        .append("' TOTAL='").append(own).append("' OMITTED_PATHS='")
                        .append(Xml.esc(vp.view.getAttribute("OMITTED_PATHS"))).append("' OMITTED_WEIGHT='")
                        .append(Xml.esc(vp.view.getAttribute("OMITTED_WEIGHT"))).append("'>");
                for (Element path : Xml.children(vp.view, "PATH")) {
                    path(x, path.getTextContent().trim(), ExactMerge.parse(path.getAttribute("WEIGHT")));
                }
                x.append("</THREAD>");
            }
            x.append("</VIEW>");
        }
        x.append("</STACKS>");
    }

    private static void path(StringBuilder x, String frames, long weight) {
        x.append("<PATH WEIGHT='").append(weight).append("'>").append(Xml.text(frames)).append("</PATH>");
    }

    private static long sum(List<Element> elements, String attribute) {
        return elements.stream().mapToLong(e -> ExactMerge.parse(e.getAttribute(attribute))).sum();
    }

    private static String joined(List<Element> elements, String attribute) {
        Set<String> values = new LinkedHashSet<>();
        elements.forEach(e -> values.add(e.getAttribute(attribute)));
        return String.join(",", values);
    }

    /**
     * {@code <FLEET CARRIER ASKED ANSWERED>}, then per member {@code <JVM N NAME LABEL HOST PID MAIN START JAVA
     * STATUS [ERROR]>} with its view totals ({@code <SAMPLED VIEW UNIT TOTAL/>}) and its own {@code DYPER_REPORT}.
     */
    private static void fleetSection(StringBuilder x, Fleet fleet, List<Part> parts) {
        long answered = parts.stream().filter(p -> p.monitor() != null).count();
        x.append("<FLEET CARRIER='").append(Xml.esc(fleet.describe())).append("' ASKED='").append(parts.size())
                .append("' ANSWERED='").append(answered).append("'>");
        for (Part p : parts) {
            Fleet.Member m = p.member();
            x.append("<JVM N='").append(p.n()).append("' NAME='").append(Xml.esc(m.id())).append("' LABEL='")
                    .append(Xml.esc(p.label())).append("' HOST='").append(Xml.esc(m.host())).append("' PID='")
                    .append(m.pid()).append("' MAIN='").append(Xml.esc(m.mainClass())).append("' START='")
                    .append(m.startMillis()).append("' JAVA='").append(Xml.esc(m.jdk())).append("' STATUS='")
                    .append(p.monitor() != null ? "OK" : "MISSING").append('\'');
            if (p.monitor() == null) {
                x.append(" ERROR='").append(Xml.esc(p.error())).append("'/>");
                continue;
            }
            x.append('>');
            Element cpu = Xml.child(p.monitor(), "CPU");
            if (cpu != null) {
                x.append("<SAMPLED VIEW='CPU_TABLE' UNIT='SAMPLES' TOTAL='")
                        .append(ExactMerge.parse(cpu.getAttribute("SAMPLES"))).append("'/>");
            }
            for (Element v : Xml.children(Xml.child(p.monitor(), "STACKS"), "VIEW")) {
                x.append("<SAMPLED VIEW='").append(Xml.esc(v.getAttribute("NAME"))).append("' UNIT='")
                        .append(Xml.esc(v.getAttribute("UNIT"))).append("' TOTAL='")
                        .append(ExactMerge.parse(v.getAttribute("TOTAL"))).append("'/>");
            }
            Element exact = exact(p.monitor());
            if (exact != null) {
                x.append(Xml.serialize(exact));
            }
            x.append("</JVM>");
        }
        x.append("</FLEET>");
    }
}
