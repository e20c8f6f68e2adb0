package org.dyper.cli.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/** The parts of a MONITOR_REPORT the page shows beside the flame graph: threads, GC pauses, detailing. */
final class Summary {
    private Summary() {
    }

    /** Per thread: id, name, CPU time, and the samples per activity (RUNNING, WAITING, ...). */
    static List<Object> threads(Element report) {
        Map<String, Map<String, Object>> byId = new LinkedHashMap<>();
        Element cpu = Xml.child(report, "CPU");
        if (cpu != null && Xml.child(cpu, "THREADS") != null) {
            for (Element t : Xml.children(Xml.child(cpu, "THREADS"), "THREAD")) {
                Map<String, Object> j = row(byId, t);
                j.put("cpuNs", Api.number(t, "CPU_NS"));
                j.put("cpuSamples", Api.number(t, "RUNNABLE"));
            }
        }
        Element contention = Xml.child(report, "CONTENTION");
        if (contention != null && Xml.child(contention, "THREADS") != null) {
            for (Element t : Xml.children(Xml.child(contention, "THREADS"), "THREAD")) {
                Map<String, Object> j = row(byId, t);
                Map<String, Object> states = new LinkedHashMap<>();
                String top = null;
                long most = -1;
                for (Element s : Xml.children(t, "STATE")) {
                    long n = Api.number(s, "SAMPLES");
                    states.put(s.getAttribute("NAME"), n);
                    if (n > most) {
                        most = n;
                        top = s.getAttribute("NAME");
                    }
                }
                j.put("states", states);
                j.put("mostly", top);
                j.put("blocked", Api.number(t, "BLOCKED_COUNT"));
                j.put("waited", Api.number(t, "WAITED_COUNT"));
            }
        }
        return new ArrayList<>(byId.values());
    }

    private static Map<String, Object> row(Map<String, Map<String, Object>> byId, Element t) {
        return byId.computeIfAbsent(t.getAttribute("ID"), id -> {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("id", id);
            j.put("name", t.getAttribute("NAME"));
            return j;
        });
    }

    /**
     * Collections, pause time, the longest pause and the last pauses (the monitor keeps the last 16: when, which
     * collector, why, how long; from the flight recorder: without it the JVM's counters have no single pauses).
     */
    static Map<String, Object> gc(Element report) {
        Map<String, Object> j = new LinkedHashMap<>();
        Element gc = Xml.child(report, "GC");
        if (gc == null) {
            return j;
        }
        j.put("source", gc.getAttribute("SOURCE"));
        j.put("collections", Api.number(gc, "COLLECTIONS"));
        j.put("pauseNs", Api.number(gc, "PAUSE_NS"));
        j.put("longestPauseNs", Api.number(gc, "LONGEST_PAUSE_NS"));
        List<Object> pauses = new ArrayList<>();
        for (Element p : Xml.children(gc, "PAUSE")) {
            pauses.add(Map.of("time", Api.number(p, "TIME"), "collector", p.getAttribute("COLLECTOR"), "cause",
                    p.getAttribute("CAUSE"), "pauseNs", Api.number(p, "PAUSE_NS")));
        }
        j.put("pauses", pauses);
        return j;
    }

    /** Automatic detailing: on or off, its state, what it has patched now, why it waits. */
    static Map<String, Object> detail(Element report) {
        Map<String, Object> j = new LinkedHashMap<>();
        Element d = Xml.child(report, "DETAIL");
        if (d == null) {
            j.put("state", "OFF");
            return j;
        }
        j.put("state", d.hasAttribute("STATE") ? d.getAttribute("STATE") : "OFF");
        j.put("auto", "true".equals(d.getAttribute("AUTO")));
        List<Object> patched = new ArrayList<>();
        for (Element m : Xml.children(d, "DETAILED")) {
            if (m.getAttribute("STATE").equals("PATCHED")) {
                Element exact = Xml.child(m, "EXACT");
                patched.add(Map.of("method", m.getAttribute("CLASS") + "." + m.getAttribute("NAME"), "calls",
                        exact == null ? 0 : Api.number(exact, "COUNT")));
            }
        }
        j.put("patched", patched);
        j.put("waiting", Xml.children(d, "WAITING").stream().map(Element::getTextContent).toList());
        return j;
    }
}
