package org.dyper.cli.ui;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The stacks of one process's monitor over time: every REPORT the UI takes is kept as a snapshot (the weights of the
 * collapsed paths per view and thread, path texts shared between snapshots), for the last {@link #KEEP_MILLIS}. The
 * monitor's stacks are cumulative since its start (or CLEAR); a window (the last 10 s, the last minute) is the newest
 * snapshot less the one taken at the window's start.
 */
final class Snapshots {
    /** How long snapshots are kept: the longest window and some slack. */
    static final long KEEP_MILLIS = 75_000;

    /** One view's paths: all threads together ({@code ""}) and per thread id. */
    record View(String name, String unit, String source, Map<String, Map<String, Long>> paths,
            Map<String, String> threadNames) {
    }

    /** One REPORT: when it was taken (epoch ms) and its views. */
    record Snapshot(long millis, Map<String, View> views) {
    }

    /** A window's stacks: the paths, what it covers (ms; -1: since the start), and why it is not the full window. */
    record Window(View view, Map<String, Long> paths, long coveredMillis, String note) {
    }

    private final ArrayDeque<Snapshot> history = new ArrayDeque<>();
    private final Map<String, String> texts = new HashMap<>();

    /** Adds the stacks of a MONITOR_REPORT taken at {@code millis}. */
    synchronized Snapshot add(Element report, long millis) {
        Map<String, View> views = new LinkedHashMap<>();
        Element stacks = Xml.child(report, "STACKS");
        if (stacks != null) {
            for (Element v : Xml.children(stacks, "VIEW")) {
                Map<String, Map<String, Long>> paths = new HashMap<>();
                Map<String, String> names = new LinkedHashMap<>();
                paths.put("", paths(v));
                for (Element t : Xml.children(v, "THREAD")) {
                    paths.put(t.getAttribute("ID"), paths(t));
                    names.put(t.getAttribute("ID"), t.getAttribute("NAME"));
                }
                String source = v.hasAttribute("SOURCE") ? v.getAttribute("SOURCE") : stacks.getAttribute("SOURCE");
                views.put(v.getAttribute("NAME"), new View(v.getAttribute("NAME"), v.getAttribute("UNIT"), source,
                        paths, names));
            }
        }
        Snapshot s = new Snapshot(millis, views);
        history.addLast(s);
        while (history.size() > 2 && history.peekFirst().millis() < millis - KEEP_MILLIS) {
            history.removeFirst();
        }
        if (texts.size() > 200_000) {
            // paths no snapshot holds any more: keep the texts of those that do
            texts.clear();
            for (Snapshot h : history) {
                h.views().values().forEach(view -> view.paths().values().forEach(m -> m.keySet()
                        .forEach(k -> texts.put(k, k))));
            }
        }
        return s;
    }

    private Map<String, Long> paths(Element parent) {
        Map<String, Long> m = new HashMap<>();
        for (Element p : Xml.children(parent, "PATH")) {
            String text = p.getTextContent();
            m.merge(texts.computeIfAbsent(text, k -> k), Long.parseLong(p.getAttribute("WEIGHT")), Long::sum);
        }
        return m;
    }

    synchronized Snapshot latest() {
        return history.peekLast();
    }

    /**
     * The stacks of {@code view} (thread id, or "" for all) over the last {@code windowMillis} (-1: since the start),
     * from the newest snapshot; null when the view has no events yet.
     */
    synchronized Window window(String view, String thread, long windowMillis) {
        Snapshot now = history.peekLast();
        if (now == null || !now.views().containsKey(view)) {
            return null;
        }
        View v = now.views().get(view);
        Map<String, Long> current = v.paths().getOrDefault(thread, Map.of());
        if (windowMillis < 0) {
            return new Window(v, current, -1, "");
        }
        Snapshot base = null;
        for (Snapshot s : history) {
            if (s.millis() <= now.millis() - windowMillis || base == null) {
                base = s;
            }
        }
        if (base == now) {
            return new Window(v, current, -1, "since the start: the window fills as the page refreshes");
        }
        View b = base.views().get(view);
        Map<String, Long> before = b == null ? Map.of() : b.paths().getOrDefault(thread, Map.of());
        if (sum(current) < sum(before)) {
            // the monitor's stacks were cleared (CLEAR) inside the window: what it has now is all there is
            return new Window(v, current, -1, "the monitor's stacks were cleared: since then");
        }
        Map<String, Long> diff = new HashMap<>();
        current.forEach((path, w) -> {
            long d = w - before.getOrDefault(path, 0L);
            if (d > 0) {
                diff.put(path, d);
            }
        });
        long covered = now.millis() - base.millis();
        return new Window(v, diff, covered, covered + 500 < windowMillis ? "the UI has watched this process for "
                + Math.round(covered / 1000.0) + " s of the window" : "");
    }

    static long sum(Map<String, Long> m) {
        long s = 0;
        for (long w : m.values()) {
            s += w;
        }
        return s;
    }

    /** The heaviest paths first. */
    static List<Map.Entry<String, Long>> sorted(Map<String, Long> paths) {
        List<Map.Entry<String, Long>> l = new ArrayList<>(paths.entrySet());
        l.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return l;
    }
}
