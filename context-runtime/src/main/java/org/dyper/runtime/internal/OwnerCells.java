package org.dyper.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The owner fast path of {@code Counting.count} and {@code SampledTiming.enter} for ids in [0, {@link #FAST_IDS}).
 * Each such id has one padded line of {@link #CELLS} and, per agent, an owner: the first thread that reaches the id
 * claims it (CAS on {@link #COUNT_OWNER} or {@link #SAMPLE_OWNER}) and from then on records there with a plain read
 * and an opaque store, no atomic read-modify-write: only the owner writes its cells, so the counts stay exact. Every
 * other thread records into its slab ({@link ThreadData}) as before. Generated advice passes constant ids, so after
 * inlining the range check and the array bounds checks fold away and the fast path is one compare with the current
 * thread plus the increment.
 *
 * <p>A reset does not touch the cells (that would race with the owner); it takes each cell's value as a baseline,
 * under the registry lock, and reports add {@code cell - baseline}. An owner that ended keeps its cells (they are
 * still reported); a thread that keeps taking the slow path at an id checks now and then ({@link #checkOwner})
 * whether the owner has ended and then takes the id over (a thread's writes happen-before {@code isAlive()} returns
 * false, so the new owner continues from the exact value).
 */
public final class OwnerCells {
    /** Ids in [0, FAST_IDS) have cells; others always record into the slab. */
    public static final int FAST_IDS = 1024;
    /**
     * Longs per id: 128 bytes, so two ids' cells never share a cache line (nor an adjacent-line prefetch pair) even
     * though a Java array is only 8-byte aligned. The line of id {@code i} starts at {@code (i + 1) * STRIDE}; the
     * first line is padding next to the array header.
     */
    static final int STRIDE = 16;
    /** Slots in an id's line: events counted, sampled calls, the sample owner's countdown to the next timed call. */
    static final int COUNT = 0, SAMPLED_CALLS = 1, COUNTDOWN = 2;
    /** Past the powers of two, a non-owner checks for a dead owner when its slab count at the id is a multiple. */
    static final int TAKEOVER_EVERY = 4096;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle THREADS = MethodHandles.arrayElementVarHandle(Thread[].class);

    /** The thread that owns {@code count(id)}, or null. Written by CAS only. */
    public static final Thread[] COUNT_OWNER = new Thread[FAST_IDS];
    /** The thread that owns {@code SampledTiming.enter(id)}, or null. Written by CAS only. */
    public static final Thread[] SAMPLE_OWNER = new Thread[FAST_IDS];
    /** One line per id; each slot is written by its owner only (opaque stores), read by reports. */
    static final long[] CELLS = new long[(FAST_IDS + 1) * STRIDE];
    /** The values of {@link #CELLS} at the last reset; guarded by the registry lock. */
    private static final long[] BASELINE = new long[CELLS.length];

    private OwnerCells() {
    }

    /** Where the line of {@code id} starts (id in range). */
    static int line(int id) {
        return (id + 1) * STRIDE;
    }

    // ---- slow paths (any thread) ----

    /** {@code Counting.count(id)} when the caller is not the id's owner (or the id has no cells). */
    public static void countSlow(int id) {
        if (id >= 0 && id < FAST_IDS) {
            Thread me = Thread.currentThread();
            Thread owner = (Thread) THREADS.getVolatile(COUNT_OWNER, id);
            if (owner == me || (owner == null && THREADS.compareAndSet(COUNT_OWNER, id, null, me))) {
                countOwned(id);
                return;
            }
            long n = ThreadData.current().count(id);
            if (checkOwner(n) && owner != null && !owner.isAlive()) {
                // the dead owner's last store happened-before isAlive() returned false: this thread continues it
                THREADS.compareAndSet(COUNT_OWNER, id, owner, me);
            }
            return;
        }
        ThreadData.current().count(id);
    }

    /** {@code SampledTiming.enter(id)}'s bookkeeping when the caller is not the id's owner: true to time this call. */
    public static boolean sampleSlow(int id) {
        if (id >= 0 && id < FAST_IDS) {
            Thread me = Thread.currentThread();
            Thread owner = (Thread) THREADS.getVolatile(SAMPLE_OWNER, id);
            if (owner == me) {
                return sampleOwned(id);
            }
            if (owner == null && THREADS.compareAndSet(SAMPLE_OWNER, id, null, me)) {
                CELLS[line(id) + COUNTDOWN] = firstCountdown(me, id);
                return sampleOwned(id);
            }
            long n = ThreadData.current().sampledCall(id);
            long calls = n < 0 ? -n : n;
            if (checkOwner(calls) && owner != null && !owner.isAlive()) {
                THREADS.compareAndSet(SAMPLE_OWNER, id, owner, me);
            }
            return n < 0;
        }
        return ThreadData.current().sampledCall(id) < 0;
    }

    /**
     * Whether a non-owner, at its {@code n}th slow-path event at an id, checks whether the owner has ended: at powers
     * of two (a dead owner is replaced soon) and then every {@link #TAKEOVER_EVERY}th event (the check is a native
     * call, so it stays rare).
     */
    private static boolean checkOwner(long n) {
        return n > 0 && ((n & (n - 1)) == 0 || (n & (TAKEOVER_EVERY - 1)) == 0);
    }

    /** The owner's event at {@code id} (the caller owns it): a plain read and an opaque store. */
    public static void countOwned(int id) {
        long[] c = CELLS;
        int k = line(id) + COUNT;
        LONGS.setOpaque(c, k, c[k] + 1);
    }

    /** The owner's sampled call at {@code id} (the caller owns it): true when this call is the one to time. */
    public static boolean sampleOwned(int id) {
        long[] c = CELLS;
        int k = line(id);
        LONGS.setOpaque(c, k + SAMPLED_CALLS, c[k + SAMPLED_CALLS] + 1);
        long left = c[k + COUNTDOWN] - 1;
        if (left > 0) {
            c[k + COUNTDOWN] = left;
            return false;
        }
        c[k + COUNTDOWN] = Config.SAMPLE_EVERY;
        return true;
    }

    /** A pseudo-random start in [1, SAMPLE_EVERY] for a newly claimed id, so periodic call patterns do not alias. */
    private static long firstCountdown(Thread t, int id) {
        long x = (System.identityHashCode(t) * 0x9E3779B97F4A7C15L) ^ (id * 0xC2B2AE3D27D4EB4FL);
        x ^= x >>> 31;
        x *= 0xBF58476D1CE4E5B9L;
        x ^= x >>> 29;
        return 1 + Long.remainderUnsigned(x, Config.SAMPLE_EVERY);
    }

    // ---- registry side (under the registry lock) ----

    /** Takes every cell's current value as its zero: a reset. */
    static void rebase() {
        for (int i = STRIDE; i < CELLS.length; i++) {
            BASELINE[i] = (long) LONGS.getAcquire(CELLS, i);
        }
    }

    /** Adds what the owners counted since the last reset to {@code totals} (after the slabs, see Registry). */
    static void addTo(Totals totals) {
        for (int id = 0; id < FAST_IDS; id++) {
            int k = line(id);
            long counted = (long) LONGS.getAcquire(CELLS, k + COUNT) - BASELINE[k + COUNT];
            if (counted != 0) {
                totals.addCount(id, counted);
            }
            long calls = (long) LONGS.getAcquire(CELLS, k + SAMPLED_CALLS) - BASELINE[k + SAMPLED_CALLS];
            if (calls != 0) {
                totals.addSampledCalls(id, calls);
            }
        }
    }
}
