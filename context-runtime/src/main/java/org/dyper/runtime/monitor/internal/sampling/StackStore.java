package org.dyper.runtime.monitor.internal.sampling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;

/**
 * Collapsed stacks with weights, per view, for all threads together and for each thread: a call tree per view and
 * per (view, thread) in one pool of at most {@code limit} nodes. A node is a frame under its parent; a path's weight
 * sits on its last node. Past the bound, an event that would need new nodes is not recorded and is counted as
 * dropped (with its weight), never lost silently. Memory is about 40 bytes per node plus the frame names, so the
 * default of 100,000 nodes stays under 12 MB. Thread-safe (one lock; samplers add, reports read).
 */
public final class StackStore {
    /** The views and the unit of their weights. */
    enum View {
        /**
         * CPU_BEFORE_JFR: the thread dumps' CPU view of the time before the flight recorder started, kept apart once
         * the recorder's samples are shown in CPU ({@link #keep}).
         */
        CPU("SAMPLES"), CPU_BEFORE_JFR("SAMPLES"), WALL("SAMPLES"), LOCK("NS"), ALLOC("BYTES"), THREAD_START("THREADS");

        final String unit;

        View(String unit) {
            this.unit = unit;
        }
    }

    private static final int VIEWS = View.values().length;

    private int limit;
    private int size;
    private int[] parent = new int[1024];
    private int[] frame = new int[1024];
    private long[] weight = new long[1024];
    /** (parent, frame) → node + 1, open addressing; 0 is empty. */
    private int[] table = new int[4096];
    private final Map<String, Integer> frameIds = new HashMap<>();
    private final List<String> frameNames = new ArrayList<>();
    private final int[] viewRoot = new int[VIEWS];
    private final List<Map<Long, Integer>> threadRoot = new ArrayList<>();
    private final Map<Long, String> threadNames = new HashMap<>();
    private final long[] events = new long[VIEWS];
    private final long[] dropped = new long[VIEWS];
    private final long[] droppedWeight = new long[VIEWS];
    private final long[] threadDropped = new long[VIEWS];
    private final String[] sources = new String[VIEWS];
    /** Per view, the epoch ms its events begin at (0: not said) and, for a kept view, end at. */
    private final long[] from = new long[VIEWS];
    private final long[] to = new long[VIEWS];
    /** A view kept but not shown yet (CPU_BEFORE_JFR until the recorder's samples are shown). */
    private final boolean[] hidden = new boolean[VIEWS];
    private final java.util.function.LongSupplier clock;

    public StackStore(int limit) {
        this(limit, System::currentTimeMillis);
    }

    /** With a clock of its own (epoch ms: where CPU and LOCK begin after CLEAR). */
    StackStore(int limit, java.util.function.LongSupplier clockMillis) {
        this.limit = limit;
        this.clock = clockMillis;
        sources[View.CPU.ordinal()] = "THREAD_DUMP";
        sources[View.CPU_BEFORE_JFR.ordinal()] = "THREAD_DUMP";
        sources[View.WALL.ordinal()] = "THREAD_DUMP";
        sources[View.LOCK.ordinal()] = "THREAD_DUMP";
        sources[View.ALLOC.ordinal()] = "JFR";
        sources[View.THREAD_START.ordinal()] = "JFR";
        for (int v = 0; v < VIEWS; v++) {
            threadRoot.add(new HashMap<>());
        }
        clear();
    }

    public synchronized void clear() {
        size = 0;
        Arrays.fill(table, 0);
        frameIds.clear();
        frameNames.clear();
        Arrays.fill(viewRoot, -1);
        threadRoot.forEach(Map::clear);
        threadNames.clear();
        Arrays.fill(events, 0);
        Arrays.fill(dropped, 0);
        Arrays.fill(droppedWeight, 0);
        Arrays.fill(threadDropped, 0);
        Arrays.fill(from, 0);
        Arrays.fill(to, 0);
        Arrays.fill(hidden, false);
        long now = clock.getAsLong();
        from[View.CPU.ordinal()] = now;
        from[View.LOCK.ordinal()] = now;
    }

    /**
     * Empties one view (its tree of all threads and the threads' trees, its counts) and says where its events come
     * from from now on, and since when ({@code fromMillis}, epoch ms): a view never holds the events of two sources.
     * The emptied nodes stay in the pool until CLEAR.
     */
    synchronized void restart(View v, String source, long fromMillis) {
        int vi = v.ordinal();
        viewRoot[vi] = -1;
        threadRoot.get(vi).clear();
        events[vi] = 0;
        dropped[vi] = 0;
        droppedWeight[vi] = 0;
        threadDropped[vi] = 0;
        sources[vi] = source;
        from[vi] = fromMillis;
        to[vi] = 0;
        hidden[vi] = false;
    }

    /**
     * Copies view {@code v} as it is now, with its source and its window up to {@code toMillis}, into view
     * {@code into} (emptied first), not shown until {@link #show}: the thread dumps' CPU view of the time before the
     * recorder started, kept while thread dumps sample on until the recorder hands over its first samples (those go
     * with the recorder's). Past the node bound a path is counted as dropped in {@code into}, as any event would be.
     */
    synchronized void keep(View v, View into, long toMillis) {
        int vi = v.ordinal();
        int ki = into.ordinal();
        restart(into, sources[vi], from[vi]);
        to[ki] = toMillis;
        hidden[ki] = true;
        events[ki] = events[vi];
        dropped[ki] = dropped[vi];
        droppedWeight[ki] = droppedWeight[vi];
        threadDropped[ki] = threadDropped[vi];
        if (viewRoot[vi] < 0) {
            return;
        }
        Map<Integer, List<Integer>> byRoot = leavesByRoot();
        for (int node : byRoot.getOrDefault(viewRoot[vi], List.of())) {
            int root = addPath(viewRoot[ki], names(node), weight[node]);
            if (root == NO_ROOM) {
                dropped[ki]++;
                droppedWeight[ki] += weight[node];
            } else {
                viewRoot[ki] = root;
            }
        }
        for (Map.Entry<Long, Integer> t : new ArrayList<>(threadRoot.get(vi).entrySet())) {
            for (int node : byRoot.getOrDefault(t.getValue(), List.of())) {
                Integer kept = threadRoot.get(ki).get(t.getKey());
                int root = addPath(kept == null ? -1 : kept, names(node), weight[node]);
                if (root == NO_ROOM) {
                    threadDropped[ki]++;
                } else {
                    threadRoot.get(ki).put(t.getKey(), root);
                }
            }
        }
    }

    /** Shows a kept view ({@link #keep}). */
    synchronized void show(View v) {
        hidden[v.ordinal()] = false;
    }

    /** A node's frames, root first. */
    private List<String> names(int node) {
        List<String> names = new ArrayList<>();
        for (int n = node; parent[n] >= 0; n = parent[n]) {
            names.add(frameNames.get(frame[n]));
        }
        java.util.Collections.reverse(names);
        return names;
    }

    /** A new node bound; nodes already recorded stay (a lower bound only stops growth). */
    public synchronized void limit(int nodes) {
        limit = nodes;
    }

    /**
     * Records one event: its frames root first (a synthetic leaf such as {@code [lock C]} included) with a positive
     * weight, in the view's tree of all threads and in the thread's own tree (none when {@code threadName} is null).
     */
    synchronized void add(View v, long threadId, String threadName, List<String> rootFirst, long w) {
        int vi = v.ordinal();
        if (w <= 0 || rootFirst.isEmpty()) {
            return;
        }
        events[vi]++;
        int root = addPath(viewRoot[vi], rootFirst, w);
        if (root == NO_ROOM) {
            dropped[vi]++;
            droppedWeight[vi] += w;
            return;
        }
        viewRoot[vi] = root;
        if (threadName == null) {
            return;
        }
        threadNames.put(threadId, threadName);
        Integer t = threadRoot.get(vi).get(threadId);
        root = addPath(t == null ? -1 : t, rootFirst, w);
        if (root == NO_ROOM) {
            threadDropped[vi]++;
            return;
        }
        threadRoot.get(vi).put(threadId, root);
    }

    /** What {@link #addPath} returns when the path does not fit within the node bound. */
    private static final int NO_ROOM = -2;

    /**
     * Adds weight {@code w} at the path {@code rootFirst} under {@code root} (-1: no tree yet, one is made); returns
     * the tree's root, or {@link #NO_ROOM} (nothing added) when its new nodes would pass the bound.
     */
    private int addPath(int root, List<String> rootFirst, long w) {
        if (size + (root < 0 ? 1 : 0) + missing(root, rootFirst) > limit) {
            return NO_ROOM;
        }
        if (root < 0) {
            root = newNode(-1, -1);
        }
        // not weight[insert(..)]: the array is read before insert, which may grow it
        int node = insert(root, rootFirst);
        weight[node] += w;
        return root;
    }

    /** How many of the path's nodes are not in the tree under {@code root} yet (all of them without a root). */
    private int missing(int root, List<String> rootFirst) {
        if (root < 0) {
            return rootFirst.size();
        }
        int node = root;
        for (int i = 0; i < rootFirst.size(); i++) {
            Integer f = frameIds.get(rootFirst.get(i));
            int child = f == null ? -1 : find(node, f);
            if (child < 0) {
                return rootFirst.size() - i;
            }
            node = child;
        }
        return 0;
    }

    private int insert(int root, List<String> rootFirst) {
        int node = root;
        for (String name : rootFirst) {
            Integer f = frameIds.get(name);
            if (f == null) {
                f = frameNames.size();
                frameNames.add(name);
                frameIds.put(name, f);
            }
            int child = find(node, f);
            node = child >= 0 ? child : newNode(node, f);
        }
        return node;
    }

    private static int hash(int p, int f) {
        int h = p * 0x9E3779B1 + f * 0x85EBCA77;
        return h ^ (h >>> 15);
    }

    private int find(int p, int f) {
        int mask = table.length - 1;
        for (int i = hash(p, f) & mask; table[i] != 0; i = (i + 1) & mask) {
            int n = table[i] - 1;
            if (parent[n] == p && frame[n] == f) {
                return n;
            }
        }
        return -1;
    }

    private int newNode(int p, int f) {
        if (size == parent.length) {
            int n = size * 2;
            parent = Arrays.copyOf(parent, n);
            frame = Arrays.copyOf(frame, n);
            weight = Arrays.copyOf(weight, n);
        }
        int node = size++;
        parent[node] = p;
        frame[node] = f;
        weight[node] = 0;
        if (p >= 0) {
            if (size * 2 > table.length) {
                rehash(table.length * 2);
            }
            place(node);
        }
        return node;
    }

    private void place(int node) {
        int mask = table.length - 1;
        int i = hash(parent[node], frame[node]) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = node + 1;
    }

    private void rehash(int length) {
        table = new int[length];
        for (int n = 0; n < size; n++) {
            if (parent[n] >= 0) {
                place(n);
            }
        }
    }

    /** Nodes in use. */
    synchronized int nodes() {
        return size;
    }

    /** Events a tree lacks because of the bound (in a view's tree of all threads, or in a thread's). */
    synchronized long dropped() {
        long n = 0;
        for (int v = 0; v < VIEWS; v++) {
            n += hidden[v] ? 0 : dropped[v] + threadDropped[v];
        }
        return n;
    }

    /** One path and its weight, for a text report. */
    record Path(String path, long weight) {
    }

    /** The heaviest paths of a view's tree of all threads, at most {@code max}. */
    synchronized List<Path> top(View v, int max) {
        int root = hidden[v.ordinal()] ? -1 : viewRoot[v.ordinal()];
        return root < 0 ? List.of() : paths(leavesByRoot().getOrDefault(root, List.of()), max);
    }

    /** Every weighted node grouped by the root of its tree, each list heaviest first (one pass over the pool). */
    private Map<Integer, List<Integer>> leavesByRoot() {
        int[] rootOf = new int[size];
        Map<Integer, List<Integer>> byRoot = new HashMap<>();
        for (int n = 0; n < size; n++) {
            rootOf[n] = parent[n] < 0 ? n : rootOf[parent[n]];
            if (weight[n] > 0) {
                byRoot.computeIfAbsent(rootOf[n], k -> new ArrayList<>()).add(n);
            }
        }
        Comparator<Integer> heaviest = Comparator.<Integer>comparingLong(n -> weight[n]).reversed()
                .thenComparing(Comparator.naturalOrder());
        byRoot.values().forEach(l -> l.sort(heaviest));
        return byRoot;
    }

    private List<Path> paths(List<Integer> leaves, int max) {
        List<Path> out = new ArrayList<>(Math.min(max, leaves.size()));
        for (int i = 0; i < leaves.size() && i < max; i++) {
            out.add(new Path(path(leaves.get(i)), weight[leaves.get(i)]));
        }
        return out;
    }

    private String path(int node) {
        return String.join(";", names(node));
    }

    /**
     * The {@code <STACKS>} element: per view with events, its heaviest {@code maxPaths} paths and, for the
     * {@code maxThreads} threads with most weight, their heaviest {@code maxPaths / 10} paths (at least 10).
     */
    public synchronized String xml(String source, int maxDepth, int maxPaths, int maxThreads) {
        StringBuilder x = new StringBuilder(65536);
        x.append("<STACKS EXACT='false' SOURCE='").append(source).append("' MAXDEPTH='").append(maxDepth)
                .append("' NODES='").append(size).append("' NODE_LIMIT='").append(limit).append("' DROPPED='")
                .append(dropped()).append("'>");
        Map<Integer, List<Integer>> byRoot = leavesByRoot();
        for (View v : View.values()) {
            int vi = v.ordinal();
            if (events[vi] == 0 || hidden[vi]) {
                continue;
            }
            List<Integer> leaves = byRoot.getOrDefault(viewRoot[vi], List.of());
            x.append("<VIEW NAME='").append(v).append("' UNIT='").append(v.unit).append("' SOURCE='")
                    .append(sources[vi]).append('\'');
            int shown = Math.min(maxPaths, leaves.size());
            x.append(" TOTAL='").append(sum(leaves, 0, shown)).append("' EVENTS='").append(events[vi])
                    .append("' OMITTED_PATHS='").append(leaves.size() - shown).append("' OMITTED_WEIGHT='")
                    .append(sum(leaves, shown, leaves.size())).append("' DROPPED='").append(dropped[vi])
                    .append("' DROPPED_WEIGHT='").append(droppedWeight[vi]).append("' THREAD_DROPPED='")
                    .append(threadDropped[vi]).append('\'');
            List<long[]> threads = new ArrayList<>();
            for (Map.Entry<Long, Integer> t : threadRoot.get(vi).entrySet()) {
                threads.add(new long[] {t.getKey(), t.getValue(), 0});
            }
            for (long[] t : threads) {
                List<Integer> l = byRoot.getOrDefault((int) t[1], List.of());
                t[2] = sum(l, 0, l.size());
            }
            threads.sort(Comparator.<long[]>comparingLong(t -> t[2]).reversed().thenComparingLong(t -> t[0]));
            x.append(" THREADS_OMITTED='").append(Math.max(0, threads.size() - maxThreads)).append('\'');
            if (from[vi] > 0) {
                x.append(" FROM='").append(from[vi]).append('\'');
            }
            if (to[vi] > 0) {
                x.append(" TO='").append(to[vi]).append('\'');
            }
            x.append('>');
            for (int i = 0; i < shown; i++) {
                pathXml(x, leaves.get(i));
            }
            int perThread = Math.max(10, maxPaths / 10);
            for (int i = 0; i < threads.size() && i < maxThreads; i++) {
                long[] t = threads.get(i);
                List<Integer> l = byRoot.getOrDefault((int) t[1], List.of());
                int n = Math.min(perThread, l.size());
                x.append("<THREAD ID='").append(t[0]).append("' NAME='")
                        .append(Xml.esc(threadNames.getOrDefault(t[0], ""))).append("' TOTAL='").append(sum(l, 0, n))
                        .append("' OMITTED_PATHS='").append(l.size() - n).append("' OMITTED_WEIGHT='")
                        .append(sum(l, n, l.size())).append("'>");
                for (int j = 0; j < n; j++) {
                    pathXml(x, l.get(j));
                }
                x.append("</THREAD>");
            }
            x.append("</VIEW>");
        }
        return x.append("</STACKS>").toString();
    }

    private long sum(List<Integer> nodes, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += weight[nodes.get(i)];
        }
        return s;
    }

    private void pathXml(StringBuilder x, int node) {
        x.append("<PATH WEIGHT='").append(weight[node]).append("'>").append(Xml.text(path(node))).append("</PATH>");
    }
}
