package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.*;

/**
 * Agent data merged over threads, indexed like a slab (zig-zag index, rows per site). Used for reports and to keep
 * the data of threads that have ended. Not thread-safe: each instance is confined to the registry lock or one reader.
 */
public final class Totals {
    long[] counts = new long[0];
    long[] calls = new long[0];
    long[][] timing = new long[0][];
    long[][] sampled = new long[0][];
    long[][] values = new long[0][];

    Totals copy() {
        Totals t = new Totals();
        t.add(this);
        return t;
    }

    /** Adds a live or ended thread's slab, read with acquire loads. */
    void add(ThreadData d) {
        counts = addCounts(counts, d.publishedCounts(), true);
        calls = addCounts(calls, d.publishedCalls(), true);
        timing = addRows(timing, d.publishedTiming(), T_LENGTH, true);
        sampled = addRows(sampled, d.publishedSampled(), S_LENGTH, true);
        values = addRows(values, d.publishedValues(), V_LENGTH, true);
    }

    void add(Totals other) {
        counts = addCounts(counts, other.counts, false);
        calls = addCounts(calls, other.calls, false);
        timing = addRows(timing, other.timing, T_LENGTH, false);
        sampled = addRows(sampled, other.sampled, S_LENGTH, false);
        values = addRows(values, other.values, V_LENGTH, false);
    }

    private static long[] addCounts(long[] into, long[] from, boolean acquire) {
        into = ensure(into, from.length);
        for (int i = 0; i < from.length; i++) {
            into[i] += acquire ? ThreadData.read(from, i) : from[i];
        }
        return into;
    }

    private static long[][] addRows(long[][] into, long[][] from, int length, boolean acquire) {
        into = ensure(into, from.length);
        long[] src = new long[length];
        for (int i = 0; i < from.length; i++) {
            long[] row = acquire ? ThreadData.readRow(from, i) : from[i];
            if (row == null) {
                continue;
            }
            for (int f = 0; f < length; f++) {
                src[f] = acquire ? ThreadData.read(row, f) : row[f];
            }
            if (into[i] == null) {
                into[i] = emptyRow(length);
            }
            merge(into[i], src, length);
        }
        return into;
    }

    private static long[] emptyRow(int length) {
        long[] r = new long[length];
        if (length == T_LENGTH) {
            r[T_MIN] = Long.MAX_VALUE;
            r[T_MAX] = Long.MIN_VALUE;
        } else if (length == V_LENGTH) {
            r[V_MIN] = Long.MAX_VALUE;
            r[V_MAX] = Long.MIN_VALUE;
        }
        return r;
    }

    private static void merge(long[] into, long[] src, int length) {
        if (length == T_LENGTH) {
            into[T_COUNT] += src[T_COUNT];
            into[T_TOTAL] += src[T_TOTAL];
            if (src[T_COUNT] > 0) {
                into[T_MIN] = Math.min(into[T_MIN], src[T_MIN]);
                into[T_MAX] = Math.max(into[T_MAX], src[T_MAX]);
            }
            for (int b = T_HIST; b < T_LENGTH; b++) {
                into[b] += src[b];
            }
        } else if (length == S_LENGTH) {
            into[S_COUNT] += src[S_COUNT];
            into[S_SAMPLES] += src[S_SAMPLES];
            into[S_TOTAL] += src[S_TOTAL];
            into[S_SUMSQ] = Double.doubleToRawLongBits(
                    Double.longBitsToDouble(into[S_SUMSQ]) + Double.longBitsToDouble(src[S_SUMSQ]));
        } else {
            into[V_COUNT] += src[V_COUNT];
            into[V_SUM] += src[V_SUM];
            if (src[V_COUNT] > 0) {
                into[V_MIN] = Math.min(into[V_MIN], src[V_MIN]);
                into[V_MAX] = Math.max(into[V_MAX], src[V_MAX]);
            }
            into[V_NULLS] += src[V_NULLS];
            into[V_NONNULLS] += src[V_NONNULLS];
        }
    }

    private static long[] ensure(long[] a, int length) {
        return a.length >= length ? a : java.util.Arrays.copyOf(a, length);
    }

    private static long[][] ensure(long[][] a, int length) {
        return a.length >= length ? a : java.util.Arrays.copyOf(a, length);
    }

    // ---- read access for reports and tests (by site id) ----

    /** Events counted at {@code id}. */
    public long count(int id) {
        int i = Ids.index(id);
        return Integer.compareUnsigned(i, counts.length) < 0 ? counts[i] : 0;
    }

    /** Calls of the method {@code id} counted at call sites ({@code Counting.countCall}). */
    public long calls(int id) {
        int i = Ids.index(id);
        return Integer.compareUnsigned(i, calls.length) < 0 ? calls[i] : 0;
    }

    /** A copy of the timing row of {@code id} (see {@link ThreadData#T_COUNT} and following), or null. */
    public long[] timing(int id) {
        return rowCopy(timing, id);
    }

    /** A copy of the sampled-timing row of {@code id} (see {@link ThreadData#S_COUNT} and following), or null. */
    public long[] sampled(int id) {
        return rowCopy(sampled, id);
    }

    /** A copy of the values row of {@code id} (see {@link ThreadData#V_COUNT} and following), or null. */
    public long[] values(int id) {
        return rowCopy(values, id);
    }

    private static long[] rowCopy(long[][] rows, int id) {
        int i = Ids.index(id);
        if (Integer.compareUnsigned(i, rows.length) >= 0 || rows[i] == null) {
            return null;
        }
        return rows[i].clone();
    }

    /** Whether any agent recorded anything. */
    public boolean isEmpty() {
        for (long c : counts) {
            if (c != 0) {
                return false;
            }
        }
        for (long c : calls) {
            if (c != 0) {
                return false;
            }
        }
        return allEmpty(timing, T_COUNT) && allEmpty(sampled, S_COUNT)
                && allEmpty(values, V_COUNT) && allEmpty(values, V_NULLS) && allEmpty(values, V_NONNULLS);
    }

    private static boolean allEmpty(long[][] rows, int field) {
        for (long[] r : rows) {
            if (r != null && r[field] != 0) {
                return false;
            }
        }
        return true;
    }
}
