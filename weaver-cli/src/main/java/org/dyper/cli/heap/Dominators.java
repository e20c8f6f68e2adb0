package org.dyper.cli.heap;

/**
 * Retained sizes from the dominator tree of a {@link HeapGraph} (Lengauer and Tarjan, the simple version with path
 * compression, without recursion). The tree hangs from a virtual root whose children are the GC roots, every class
 * object, and then, in address order, each object still not reached (a dump of live objects has few such: objects
 * kept by roots the dump does not name). An object's retained size is its shallow size plus the retained sizes of the
 * objects it dominates: the bytes that would be freed if it went.
 */
final class Dominators {
    /** Each object's immediate dominator (an object index, or the number of objects for the virtual root). */
    final int[] idom;
    /** Each object's retained bytes. */
    final long[] retained;

    private Dominators(int[] idom, long[] retained) {
        this.idom = idom;
        this.retained = retained;
    }

    static Dominators of(HeapGraph g) {
        int n = g.objects();
        int root = n;
        int size = n + 1;
        // predecessors, as compressed rows
        int[] predStart = new int[size + 1];
        int[] edges = g.edges;
        for (int v = 0; v < n; v++) {
            int s = g.outStart[v];
            for (int e = s, end = s + g.outCount[v]; e < end; e++) {
                predStart[edges[e] + 1]++;
            }
        }
        for (int i = 0; i < size; i++) {
            predStart[i + 1] += predStart[i];
        }
        int[] preds = new int[predStart[size]];
        int[] fill = new int[size];                 // also the DFS's edge cursor, below
        for (int v = 0; v < n; v++) {
            int s = g.outStart[v];
            for (int e = s, end = s + g.outCount[v]; e < end; e++) {
                int w = edges[e];
                preds[predStart[w] + fill[w]++] = v;
            }
        }
        // the virtual root's children: the roots, then each object not reached from them; a bit each
        long[] rootChild = g.roots.clone();

        // depth-first numbering from the virtual root (semi holds the number, 0: not reached yet)
        int[] semi = new int[size];
        int[] vertex = new int[size + 1];
        int[] parent = new int[size];
        int[] stack = new int[size];
        int[] cursor = fill;
        java.util.Arrays.fill(cursor, 0);
        int count = 0;
        semi[root] = ++count;
        vertex[count] = root;
        parent[root] = -1;
        boolean sweeping = false;
        int nextRoot = 0;
        while (true) {
            int top = 0;
            // the next child of the virtual root: a named root not reached yet, then any object not reached
            int start = -1;
            while (start < 0) {
                if (nextRoot == n) {
                    if (sweeping) {
                        break;
                    }
                    sweeping = true;
                    nextRoot = 0;
                    continue;
                }
                int r = nextRoot++;
                if (semi[r] == 0 && (sweeping || (rootChild[r >>> 6] & 1L << r) != 0)) {
                    start = r;
                }
            }
            if (start < 0) {
                break;
            }
            if (sweeping) {
                rootChild[start >>> 6] |= 1L << start;
            }
            semi[start] = ++count;
            vertex[count] = start;
            parent[start] = root;
            stack[top++] = start;
            while (top > 0) {
                int v = stack[top - 1];
                int c = cursor[v];
                if (c < g.outCount[v]) {
                    cursor[v] = c + 1;
                    int w = edges[g.outStart[v] + c];
                    if (semi[w] == 0) {
                        semi[w] = ++count;
                        vertex[count] = w;
                        parent[w] = v;
                        stack[top++] = w;
                    }
                } else {
                    top--;
                }
            }
        }
        cursor = null;
        fill = null;

        int[] ancestor = new int[size];
        int[] label = new int[size];
        int[] idom = new int[size];
        int[] bucketHead = new int[size];
        int[] bucketNext = stack;        // the DFS is done with it
        java.util.Arrays.fill(ancestor, -1);
        java.util.Arrays.fill(bucketHead, -1);
        for (int v = 0; v < size; v++) {
            label[v] = v;
        }
        int[] path = new int[size];
        for (int i = count; i >= 2; i--) {
            int w = vertex[i];
            for (int p = predStart[w], end = predStart[w + 1]; p <= end; p++) {
                // the preds of w, and the virtual root when w is one of its children
                int v;
                if (p < end) {
                    v = preds[p];
                } else if (w < n && (rootChild[w >>> 6] & 1L << w) != 0) {
                    v = root;
                } else {
                    break;
                }
                if (semi[v] == 0) {
                    continue;   // cannot happen: every object is reached
                }
                int u = eval(v, ancestor, label, semi, path);
                if (semi[u] < semi[w]) {
                    semi[w] = semi[u];
                }
            }
            int s = vertex[semi[w]];
            bucketNext[w] = bucketHead[s];
            bucketHead[s] = w;
            int pw = parent[w];
            ancestor[w] = pw;
            for (int v = bucketHead[pw]; v != -1; v = bucketNext[v]) {
                int u = eval(v, ancestor, label, semi, path);
                idom[v] = semi[u] < semi[v] ? u : pw;
            }
            bucketHead[pw] = -1;
        }
        for (int i = 2; i <= count; i++) {
            int w = vertex[i];
            if (idom[w] != vertex[semi[w]]) {
                idom[w] = idom[idom[w]];
            }
        }
        idom[root] = -1;
        long[] retained = new long[size];
        for (int v = 0; v < n; v++) {
            retained[v] = g.shallow(v);
        }
        for (int i = count; i >= 2; i--) {
            int w = vertex[i];
            retained[idom[w]] += retained[w];
        }
        return new Dominators(idom, retained);
    }

    /** The vertex of least semi-dominator number on the compressed path from {@code v} up its forest tree. */
    private static int eval(int v, int[] ancestor, int[] label, int[] semi, int[] path) {
        if (ancestor[v] == -1) {
            return v;
        }
        int top = 0;
        int x = v;
        while (ancestor[ancestor[x]] != -1) {
            path[top++] = x;
            x = ancestor[x];
        }
        while (top > 0) {
            x = path[--top];
            int a = ancestor[x];
            if (semi[label[a]] < semi[label[x]]) {
                label[x] = label[a];
            }
            ancestor[x] = ancestor[a];
        }
        return label[v];
    }
}
