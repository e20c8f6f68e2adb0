package org.dyper.cli.heap;

import java.util.Map;

/**
 * The object graph of a heap dump, in primitive arrays indexed by object (0..{@link #objects}-1, in address order):
 * what the heap report is computed from. References go to objects only; a reference to an object the dump does not
 * hold is left out.
 */
final class HeapGraph {
    /** Each object's id (its address in the dump), sorted. */
    final long[] ids;
    /** Each object's class, an index into {@link #classNames}. */
    final int[] cls;
    /** Each object's shallow size in units of 8 bytes. */
    final int[] size8;
    /** Where an object's references start in {@link #edges}, and how many it has. */
    final int[] outStart;
    final int[] outCount;
    /** The objects each object refers to (indexes), grouped by referring object. */
    final int[] edges;
    /** The GC roots the dump names, and every class object: bit i is object i. */
    final long[] roots;
    /** The names of classes, as Java writes them ({@code byte[]}, {@code java.lang.Object[]}). */
    final String[] classNames;
    /** Class objects (index) and the class each stands for (an index into {@link #classNames}). */
    final Map<Integer, Integer> mirrors;
    final Layout layout;
    final int idSize;
    final long fileBytes;
    final int rootCount;

    HeapGraph(long[] ids, int[] cls, int[] size8, int[] outStart, int[] outCount, int[] edges, long[] roots,
            int rootCount, String[] classNames, Map<Integer, Integer> mirrors, Layout layout, int idSize,
            long fileBytes) {
        this.ids = ids;
        this.cls = cls;
        this.size8 = size8;
        this.outStart = outStart;
        this.outCount = outCount;
        this.edges = edges;
        this.roots = roots;
        this.rootCount = rootCount;
        this.classNames = classNames;
        this.mirrors = mirrors;
        this.layout = layout;
        this.idSize = idSize;
        this.fileBytes = fileBytes;
    }

    int objects() {
        return ids.length;
    }

    long shallow(int object) {
        return (size8[object] & 0xffffffffL) * 8;
    }

    boolean root(int object) {
        return (roots[object >>> 6] & 1L << object) != 0;
    }

    /** Bytes per object and per reference the CLI holds while it reads a dump and finds its dominators. */
    static final int BYTES_PER_OBJECT = 8 + 4 + 4 + 4 + 4 + 8 + 4 * 9 + 1;
    static final int BYTES_PER_REFERENCE = 8;
}
