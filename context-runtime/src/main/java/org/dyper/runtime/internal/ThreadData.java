package org.dyper.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's slab of agent data. Only the owning thread writes it (so no locks and no atomic read-modify-write);
 * every store is a release store and report readers use acquire loads, so a report sees the writes without
 * stopping the writer. Storage grows on demand, by the owner only, and is reused in steady state.
 *
 * <p>Counts are one flat {@code long[]} indexed by the zig-zag index of the id, and so are the calls counted at call
 * sites ({@link #countCall}), kept in a second flat array so they never mix with the events counted at the same id.
 * The other agents keep one small
 * row per (thread, site), created the first time the thread reaches that site, so a thread pays only for the sites
 * it uses; a grown index array shares its rows with the old one, so a reader holding the old array still sees them.
 */
public final class ThreadData {
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle ROWS = MethodHandles.arrayElementVarHandle(long[][].class);
    private static final VarHandle EPOCH;
    private static final VarHandle COUNTS;
    private static final VarHandle CALLS;
    private static final VarHandle TIMING;
    private static final VarHandle SAMPLED;
    private static final VarHandle VALUES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EPOCH = lookup.findVarHandle(ThreadData.class, "epoch", int.class);
            COUNTS = lookup.findVarHandle(ThreadData.class, "counts", long[].class);
            CALLS = lookup.findVarHandle(ThreadData.class, "calls", long[].class);
            TIMING = lookup.findVarHandle(ThreadData.class, "timing", long[][].class);
            SAMPLED = lookup.findVarHandle(ThreadData.class, "sampled", long[][].class);
            VALUES = lookup.findVarHandle(ThreadData.class, "values", long[][].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Timing row: count, total, min, max, then 64 log2 buckets (bucket b: {@code 64 - nlz(d) == b}). */
    public static final int T_COUNT = 0, T_TOTAL = 1, T_MIN = 2, T_MAX = 3, T_HIST = 4, BUCKETS = 64,
            T_LENGTH = T_HIST + BUCKETS;
    /** Sampled row: calls, owner-only countdown, samples, sampled total, sum of squares (double bits). */
    public static final int S_COUNT = 0, S_COUNTDOWN = 1, S_SAMPLES = 2, S_TOTAL = 3, S_SUMSQ = 4, S_LENGTH = 5;
    /** Values row: count, sum, min, max of {@code record}; null and non-null counts of {@code recordRef}. */
    public static final int V_COUNT = 0, V_SUM = 1, V_MIN = 2, V_MAX = 3, V_NULLS = 4, V_NONNULLS = 5,
            V_LENGTH = 6;

    private static final long[] NO_COUNTS = new long[0];
    private static final long[][] NO_ROWS = new long[0][];

    private static final ThreadLocal<ThreadData> CURRENT = ThreadLocal.withInitial(ThreadData::register);

    final Thread thread;
    /** The {@link Registry#epoch} this slab's data belongs to; data of an older epoch was cleared by a reset. */
    int epoch;
    long[] counts = NO_COUNTS;
    /** Calls counted at call sites, by the zig-zag index of the called method's id. */
    long[] calls = NO_COUNTS;
    long[][] timing = NO_ROWS;
    long[][] sampled = NO_ROWS;
    long[][] values = NO_ROWS;
    /** Seeds where each new sampled row starts its countdown, so periodic call patterns do not alias. */
    private int seed;

    private ThreadData(Thread thread) {
        this.thread = thread;
        this.seed = System.identityHashCode(thread) | 1;
    }

    private static ThreadData register() {
        ThreadData data = new ThreadData(Thread.currentThread());
        Registry.register(data);
        return data;
    }

    /** The calling thread's slab, cleared first if a reset happened since it last recorded. */
    public static ThreadData current() {
        ThreadData data = CURRENT.get();
        int e = Registry.epoch;
        if (data.epoch != e) {
            data.restart(e);
        }
        return data;
    }

    private void restart(int newEpoch) {
        COUNTS.setRelease(this, NO_COUNTS);
        CALLS.setRelease(this, NO_COUNTS);
        TIMING.setRelease(this, NO_ROWS);
        SAMPLED.setRelease(this, NO_ROWS);
        VALUES.setRelease(this, NO_ROWS);
        EPOCH.setRelease(this, newEpoch);
    }

    // ---- hot path (owner thread only) ----

    public void count(int id) {
        int i = Ids.index(id);
        long[] c = counts;
        if (Integer.compareUnsigned(i, c.length) >= 0) {
            c = growCounts(id, i, false);
            if (c == null) {
                return;
            }
        }
        LONGS.setRelease(c, i, c[i] + 1);
    }

    /** One more call of the method {@code calleeId}, counted at a call site; kept apart from {@link #count}. */
    public void countCall(int calleeId) {
        int i = Ids.index(calleeId);
        long[] c = calls;
        if (Integer.compareUnsigned(i, c.length) >= 0) {
            c = growCounts(calleeId, i, true);
            if (c == null) {
                return;
            }
        }
        LONGS.setRelease(c, i, c[i] + 1);
    }

    public void time(int id, long duration) {
        long[] r = row(id, timing, T_LENGTH);
        if (r == null) {
            return;
        }
        long d = duration < 0 ? 0 : duration;
        LONGS.setRelease(r, T_COUNT, r[T_COUNT] + 1);
        LONGS.setRelease(r, T_TOTAL, r[T_TOTAL] + d);
        if (d < r[T_MIN]) {
            LONGS.setRelease(r, T_MIN, d);
        }
        if (d > r[T_MAX]) {
            LONGS.setRelease(r, T_MAX, d);
        }
        int b = T_HIST + BUCKETS - Long.numberOfLeadingZeros(d);
        LONGS.setRelease(r, b, r[b] + 1);
    }

    /** Counts one call; returns true when this call is the one in {@link Config#SAMPLE_EVERY} to be timed. */
    public boolean sampleCall(int id) {
        long[] r = row(id, sampled, S_LENGTH);
        if (r == null) {
            return false;
        }
        LONGS.setRelease(r, S_COUNT, r[S_COUNT] + 1);
        long left = r[S_COUNTDOWN] - 1;
        if (left > 0) {
            r[S_COUNTDOWN] = left;
            return false;
        }
        r[S_COUNTDOWN] = Config.SAMPLE_EVERY;
        return true;
    }

    public void sample(int id, long duration) {
        long[] r = row(id, sampled, S_LENGTH);
        if (r == null) {
            return;
        }
        long d = duration < 0 ? 0 : duration;
        double dd = (double) d;
        LONGS.setRelease(r, S_SAMPLES, r[S_SAMPLES] + 1);
        LONGS.setRelease(r, S_TOTAL, r[S_TOTAL] + d);
        LONGS.setRelease(r, S_SUMSQ, Double.doubleToRawLongBits(Double.longBitsToDouble(r[S_SUMSQ]) + dd * dd));
    }

    public void value(int id, long value) {
        long[] r = row(id, values, V_LENGTH);
        if (r == null) {
            return;
        }
        LONGS.setRelease(r, V_COUNT, r[V_COUNT] + 1);
        LONGS.setRelease(r, V_SUM, r[V_SUM] + value);
        if (value < r[V_MIN]) {
            LONGS.setRelease(r, V_MIN, value);
        }
        if (value > r[V_MAX]) {
            LONGS.setRelease(r, V_MAX, value);
        }
    }

    public void reference(int id, Object value) {
        long[] r = row(id, values, V_LENGTH);
        if (r == null) {
            return;
        }
        int field = value == null ? V_NULLS : V_NONNULLS;
        LONGS.setRelease(r, field, r[field] + 1);
    }

    /**
     * The row of {@code id} in {@code rows}, created on first use; null if out of range. {@code length} names the
     * table (the row lengths differ), since after a reset all tables are the same empty array.
     */
    private long[] row(int id, long[][] rows, int length) {
        int i = Ids.index(id);
        if (Integer.compareUnsigned(i, rows.length) < 0) {
            long[] r = rows[i];
            if (r != null) {
                return r;
            }
        }
        return newRow(id, i, rows, length);
    }

    // ---- slow path: first use of a site by this thread ----

    /** Grows {@link #calls} when {@code callSites}, else {@link #counts}, to hold index {@code i}; null if out of range. */
    private long[] growCounts(int id, int i, boolean callSites) {
        if (!Ids.inRange(i)) {
            Failures.outOfRange(id);
            return null;
        }
        long[] old = callSites ? calls : counts;
        long[] grown = new long[newLength(old.length, i)];
        System.arraycopy(old, 0, grown, 0, old.length);
        if (callSites) {
            CALLS.setRelease(this, grown);
        } else {
            COUNTS.setRelease(this, grown);
        }
        return grown;
    }

    private long[] newRow(int id, int i, long[][] rows, int length) {
        if (!Ids.inRange(i)) {
            Failures.outOfRange(id);
            return null;
        }
        if (i >= rows.length) {
            long[][] grown = new long[newLength(rows.length, i)][];
            System.arraycopy(rows, 0, grown, 0, rows.length);
            if (length == T_LENGTH) {
                TIMING.setRelease(this, grown);
            } else if (length == S_LENGTH) {
                SAMPLED.setRelease(this, grown);
            } else {
                VALUES.setRelease(this, grown);
            }
            rows = grown;
        }
        long[] r = new long[length];
        if (length == T_LENGTH) {
            r[T_MIN] = Long.MAX_VALUE;
            r[T_MAX] = Long.MIN_VALUE;
        } else if (length == S_LENGTH) {
            r[S_COUNTDOWN] = firstCountdown();
        } else {
            r[V_MIN] = Long.MAX_VALUE;
            r[V_MAX] = Long.MIN_VALUE;
        }
        ROWS.setRelease(rows, i, r);
        return r;
    }

    /** A pseudo-random start in [1, SAMPLE_EVERY]: the first call is not always the sampled one. */
    private int firstCountdown() {
        int x = seed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        seed = x;
        return 1 + Integer.remainderUnsigned(x, Config.SAMPLE_EVERY);
    }

    private static int newLength(int oldLength, int index) {
        long wanted = Math.max(Math.max(64L, (long) oldLength * 2), (long) index + 1);
        return (int) Math.min(wanted, (long) Ids.MAX_INDEX + 1);
    }

    // ---- reader side (any thread) ----

    int publishedEpoch() {
        return (int) EPOCH.getAcquire(this);
    }

    long[] publishedCounts() {
        return (long[]) COUNTS.getAcquire(this);
    }

    long[] publishedCalls() {
        return (long[]) CALLS.getAcquire(this);
    }

    long[][] publishedTiming() {
        return (long[][]) TIMING.getAcquire(this);
    }

    long[][] publishedSampled() {
        return (long[][]) SAMPLED.getAcquire(this);
    }

    long[][] publishedValues() {
        return (long[][]) VALUES.getAcquire(this);
    }

    static long read(long[] array, int i) {
        return (long) LONGS.getAcquire(array, i);
    }

    static long[] readRow(long[][] rows, int i) {
        return (long[]) ROWS.getAcquire(rows, i);
    }
}
