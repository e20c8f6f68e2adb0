package org.dyper.runtime.internal;

/** Maps site ids to dense storage indexes (zig-zag), so generated ids (>= 0) and registered ids (< 0) both stay dense. */
public final class SiteIndexes {
    /**
     * Largest storage index a thread slab may grow to: ids in [-2^19, 2^19 - 1]. A thread's counts array at this
     * size is 8 MB; a bigger id is almost certainly a bug, so it is counted as a failure instead of allocated.
     */
    public static final int MAX_INDEX = (1 << 20) - 1;

    private SiteIndexes() {
    }

    /** Zig-zag index of {@code id}: 0, -1, 1, -2, ... map to 0, 1, 2, 3, ...; read the result as unsigned. */
    public static int index(int id) {
        return (id << 1) ^ (id >> 31);
    }

    /** Inverse of {@link #index(int)}. */
    public static int id(int index) {
        return (index >>> 1) ^ -(index & 1);
    }

    /** Whether storage may be grown to hold {@code index} (an unsigned value). */
    static boolean inRange(int index) {
        return Integer.compareUnsigned(index, MAX_INDEX) <= 0;
    }
}
