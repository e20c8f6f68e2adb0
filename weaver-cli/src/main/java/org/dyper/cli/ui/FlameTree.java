package org.dyper.cli.ui;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A window's collapsed paths as the flame graph draws them: the call tree in pre-order (children by frame name), as
 * parallel arrays of frame ids, depths and weights, with the frame names once each; with the window compared against,
 * the union of both trees with a second weight per node. Built here so the page does no tree building per refresh
 * (the HTML report sends the same form).
 */
final class FlameTree {
    private FlameTree() {
    }

    private static final class Node {
        final int frame;
        long w;
        long w0;
        Map<Integer, Node> kids;

        Node(int frame) {
            this.frame = frame;
        }

        Node kid(int frame) {
            if (kids == null) {
                kids = new HashMap<>(4);
            }
            return kids.computeIfAbsent(frame, Node::new);
        }
    }

    /** {@code {names, f, d, w, w0?}}: {@code before} null, or the paths of the window compared against. */
    static Map<String, Object> of(Map<String, Long> paths, Map<String, Long> before) {
        List<String> names = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        Node root = new Node(-1);
        add(root, paths, names, ids, false);
        if (before != null) {
            add(root, before, names, ids, true);
        }
        Ints f = new Ints();
        Ints d = new Ints();
        Longs w = new Longs();
        Longs w0 = before == null ? null : new Longs();
        walk(root, -1, names, f, d, w, w0);
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("names", names);
        j.put("f", f.json());
        j.put("d", d.json());
        j.put("w", w.json());
        if (w0 != null) {
            j.put("w0", w0.json());
        }
        return j;
    }

    private static void add(Node root, Map<String, Long> paths, List<String> names, Map<String, Integer> ids,
            boolean before) {
        for (Map.Entry<String, Long> e : paths.entrySet()) {
            long weight = e.getValue();
            Node n = root;
            int from = 0;
            String path = e.getKey();
            while (from <= path.length()) {
                int semi = path.indexOf(';', from);
                int to = semi < 0 ? path.length() : semi;
                String frame = path.substring(from, to);
                Integer id = ids.get(frame);
                if (id == null) {
                    id = names.size();
                    ids.put(frame, id);
                    names.add(frame);
                }
                n = n.kid(id);
                if (before) {
                    n.w0 += weight;
                } else {
                    n.w += weight;
                }
                from = to + 1;
            }
        }
    }

    private static void walk(Node n, int depth, List<String> names, Ints f, Ints d, Longs w, Longs w0) {
        if (n.frame >= 0) {
            f.add(n.frame);
            d.add(depth);
            w.add(n.w);
            if (w0 != null) {
                w0.add(n.w0);
            }
        }
        if (n.kids == null) {
            return;
        }
        // by name, as the page's search and zoom expect (String order is JavaScript's string order)
        TreeMap<String, Node> sorted = new TreeMap<>();
        n.kids.values().forEach(k -> sorted.put(names.get(k.frame), k));
        for (Node k : sorted.values()) {
            walk(k, depth + 1, names, f, d, w, w0);
        }
    }

    private static final class Ints {
        int[] a = new int[256];
        int n;

        void add(int v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        int[] json() {
            return Arrays.copyOf(a, n);
        }
    }

    private static final class Longs {
        long[] a = new long[256];
        int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        long[] json() {
            return Arrays.copyOf(a, n);
        }
    }
}
