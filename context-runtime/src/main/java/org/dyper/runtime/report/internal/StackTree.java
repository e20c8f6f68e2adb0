package org.dyper.runtime.report.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The call tree of one stacks view (or one thread of it): collapsed paths merged by common prefix, each node with the
 * weight of the paths through it. The page draws it from a pre-order encoding (frame, depth, weight per node).
 */
public final class StackTree {
    /** Paths deeper than this are refused (so the recursive walks below stay far from the stack's limit). */
    public static final int MAX_DEPTH = 4096;

    final Node root = new Node(null);
    private int nodes;

    /** One frame at one place in the tree. */
    static final class Node {
        final String frame;
        long weight;
        /** A path ends here (paths are unique within their parent element). */
        boolean end;
        Map<String, Node> children;

        Node(String frame) {
            this.frame = frame;
        }

        Node child(String name, StackTree tree) {
            if (children == null) {
                children = new HashMap<>(4);
            }
            Node c = children.get(name);
            if (c == null) {
                c = new Node(name);
                children.put(name, c);
                tree.nodes++;
            }
            return c;
        }

        List<Node> sorted() {
            if (children == null) {
                return List.of();
            }
            List<Node> list = new ArrayList<>(children.values());
            list.sort((a, b) -> a.frame.compareTo(b.frame));
            return list;
        }

        long self() {
            long s = weight;
            if (children != null) {
                for (Node c : children.values()) {
                    s -= c.weight;
                }
            }
            return s;
        }
    }

    /** Adds one path (root first, frames already checked) with its weight; false when the path was there before. */
    boolean add(String[] frames, long weight) {
        Node n = root;
        n.weight += weight;
        for (String f : frames) {
            n = n.child(f, this);
            n.weight += weight;
        }
        boolean fresh = !n.end;
        n.end = true;
        return fresh;
    }

    /** The sum of the weights of every path. */
    public long total() {
        return root.weight;
    }

    /** Nodes below the root. */
    public int nodes() {
        return nodes;
    }

    /** Appends one {@code frame;frame;... weight} line per node with self weight, in pre-order by frame name. */
    public void collapsed(StringBuilder out) {
        collapsed(root, new ArrayList<>(), out);
    }

    private static void collapsed(Node n, List<String> path, StringBuilder out) {
        if (n.frame != null) {
            path.add(n.frame);
            long self = n.self();
            if (self > 0) {
                out.append(String.join(";", path)).append(' ').append(self).append('\n');
            }
        }
        for (Node c : n.sorted()) {
            collapsed(c, path, out);
        }
        if (n.frame != null) {
            path.remove(path.size() - 1);
        }
    }

    /**
     * Writes {@code "f":[...],"d":[...],"w":[...]} (and {@code "w0"} with {@code before}): frame ids from
     * {@code frames}, depths (root frames are depth 0) and weights, in pre-order with children sorted by name. With
     * {@code before} the tree is the union of both; {@code w} is this tree's weight, {@code w0} the other's.
     */
    void encode(Json json, Frames frames, StackTree before) {
        LongList f = new LongList();
        LongList d = new LongList();
        LongList w = new LongList();
        LongList w0 = before == null ? null : new LongList();
        walk(root, before == null ? null : before.root, -1, frames, f, d, w, w0);
        json.key("f", false).raw(f.toString()).key("d", true).raw(d.toString()).key("w", true).raw(w.toString());
        if (w0 != null) {
            json.key("w0", true).raw(w0.toString());
        }
    }

    private static void walk(Node after, Node before, int depth, Frames frames, LongList f, LongList d, LongList w,
            LongList w0) {
        Node named = after != null ? after : before;
        if (named.frame != null) {
            f.add(frames.id(named.frame));
            d.add(depth);
            w.add(after == null ? 0 : after.weight);
            if (w0 != null) {
                w0.add(before == null ? 0 : before.weight);
            }
        }
        if (w0 == null) {
            for (Node c : after.sorted()) {
                walk(c, null, depth + 1, frames, f, d, w, null);
            }
            return;
        }
        Map<String, Node[]> union = new java.util.TreeMap<>();
        if (after != null && after.children != null) {
            after.children.forEach((k, v) -> union.computeIfAbsent(k, x -> new Node[2])[0] = v);
        }
        if (before != null && before.children != null) {
            before.children.forEach((k, v) -> union.computeIfAbsent(k, x -> new Node[2])[1] = v);
        }
        for (Node[] pair : union.values()) {
            walk(pair[0], pair[1], depth + 1, frames, f, d, w, w0);
        }
    }

    /** The page-wide frame dictionary: each distinct frame name once, numbered in order of first use. */
    static final class Frames {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> names = new ArrayList<>();

        int id(String name) {
            Integer id = ids.get(name);
            if (id == null) {
                id = names.size();
                ids.put(name, id);
                names.add(name);
            }
            return id;
        }

        void encode(Json json) {
            json.raw("[");
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    json.raw(",");
                }
                json.str(names.get(i));
            }
            json.raw("]");
        }
    }

    /** A growable array of integers that prints as a JSON array. */
    static final class LongList {
        private long[] a = new long[64];
        private int n;

        void add(long v) {
            if (n == a.length) {
                a = java.util.Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(n * 6 + 2).append('[');
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    s.append(',');
                }
                s.append(a[i]);
            }
            return s.append(']').toString();
        }
    }
}
