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
 * snapshot less the one taken at the window's start. A mark keeps one snapshot for as long as the UI runs, so a window
 * picked by hand (from one mark to another, or to now) can be shown and compared with another at any time.
 */
final class Snapshots {
    /** How long snapshots are kept: the longest window twice (a comparison with the minute before) and some slack. */
    static final long KEEP_MILLIS = 135_000;

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

    /** A moment kept by hand: its number (from 1, per process), label and snapshot. */
    record Mark(int id, String label, Snapshot snapshot) {
    }

    /** How many marks a process keeps at most (each holds a whole snapshot). */
    static final int MAX_MARKS = 16;

    private final ArrayDeque<Snapshot> history = new ArrayDeque<>();
    private final Map<String, String> texts = new HashMap<>();
    private final List<Mark> marks = new ArrayList<>();
    private int lastMark;

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
            List<Snapshot> kept = new ArrayList<>(history);
            marks.forEach(m -> kept.add(m.snapshot()));
            for (Snapshot h : kept) {
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

    /** Keeps the newest snapshot as a mark; null when {@link #MAX_MARKS} are kept already or there is no snapshot. */
    synchronized Mark mark(String label) {
        Snapshot newest = history.peekLast();
        if (newest == null || marks.size() >= MAX_MARKS) {
            return null;
        }
        lastMark++;
        Mark m = new Mark(lastMark, label == null || label.isBlank() ? "mark " + lastMark : label, newest);
        marks.add(m);
        return m;
    }

    synchronized List<Mark> marks() {
        return List.copyOf(marks);
    }

    /** Forgets a mark; false when there is none with that number. */
    synchronized boolean unmark(int id) {
        return marks.removeIf(m -> m.id() == id);
    }

    synchronized Mark markOf(int id) {
        for (Mark m : marks) {
            if (m.id() == id) {
                return m;
            }
        }
        return null;
    }

    /**
     * The stacks of {@code view} (thread id, or "" for all) from mark {@code from} to mark {@code to} (0: to the newest
     * snapshot); the marks must exist ({@link #markOf}), {@code to} after {@code from}.
     */
    synchronized Window between(String view, String thread, int from, int to) {
        Snapshot base = markOf(from).snapshot();
        Snapshot now = to == 0 ? history.peekLast() : markOf(to).snapshot();
        View v = now.views().get(view);
        if (v == null) {
            return new Window(new View(view, "", "", Map.of(), Map.of()), Map.of(), now.millis() - base.millis(),
                    "no " + view + " events by the window's end");
        }
        return difference(v, now, base, thread, -1);
    }

    /**
     * The stacks of {@code view} (thread id, or "" for all) over the last {@code windowMillis} (-1: since the start),
     * from the newest snapshot; null when the view has no events yet.
     */
    synchronized Window window(String view, String thread, long windowMillis) {
        return window(view, thread, windowMillis, 0);
    }

    /**
     * As {@link #window(String, String, long)}, for the window that ends {@code endsAgoMillis} before the newest
     * snapshot (the "before" of a comparison: the window just before the current one); null when the history does not
     * reach back that far.
     */
    synchronized Window window(String view, String thread, long windowMillis, long endsAgoMillis) {
        Snapshot newest = history.peekLast();
        if (newest == null || !newest.views().containsKey(view)) {
            return null;
        }
        Snapshot now = newest;
        if (endsAgoMillis > 0) {
            now = null;
            for (Snapshot s : history) {
                if (s.millis() <= newest.millis() - endsAgoMillis) {
                    now = s;
                }
            }
            if (now == null || !now.views().containsKey(view)) {
                return null;
            }
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
            return endsAgoMillis > 0 ? null
                    : new Window(v, current, -1, "since the start: the window fills as the page refreshes");
        }
        return difference(v, now, base, thread, windowMillis);
    }

    /** The paths of {@code v} (in {@code now}) less those of {@code base}; windowMillis -1: picked by hand. */
    private static Window difference(View v, Snapshot now, Snapshot base, String thread, long windowMillis) {
        Map<String, Long> current = v.paths().getOrDefault(thread, Map.of());
        View b = base.views().get(v.name());
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
