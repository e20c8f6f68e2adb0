package org.dyper.samples.unsafe;

import java.util.List;

/**
 * The exact field writes and output of {@link UnsafeCounterApp} for given {@code workers}, {@code hitsPerWorker}
 * and {@code quickHits}, by arithmetic. Names are as Dyper reports them: fields {@code class.field}, sites
 * {@code class.method(parameter types)}.
 */
public final class UnsafeCounterFacts {
    public static final String STATS = "org.dyper.samples.unsafe.Stats";
    /** The watched field. */
    public static final String HITS = STATS + ".hits";
    /** The safe writing site: inside {@code synchronized (this)}. */
    public static final String HIT = STATS + ".hit()";
    /** The planted unsafe writing site. */
    public static final String QUICK_HIT = STATS + ".quickHit()";
    /** The thread that makes every unsafe write. */
    public static final String UNSAFE_WRITER = UnsafeCounterApp.SLOPPY;

    /** With the default arguments (4 workers x 5,000 hits, 250 quick hits). */
    public static final long DEFAULT_LOCKED_WRITES = 20_000;
    public static final long DEFAULT_UNLOCKED_WRITES = 250;
    public static final long DEFAULT_WRITES = 20_250;

    private UnsafeCounterFacts() {
    }

    /** W: writes of {@code Stats.hits} made holding the stats' monitor, all at {@link #HIT}. */
    public static long lockedWrites(int workers, int hitsPerWorker) {
        return (long) workers * hitsPerWorker;
    }

    /** U: writes of {@code Stats.hits} made without the monitor, all at {@link #QUICK_HIT} by {@link #UNSAFE_WRITER}. */
    public static long unlockedWrites(int quickHits) {
        return quickHits;
    }

    /** All writes of {@code Stats.hits} (the constructor writes none), and its final value. */
    public static long writes(int workers, int hitsPerWorker, int quickHits) {
        return lockedWrites(workers, hitsPerWorker) + unlockedWrites(quickHits);
    }

    /** Reads of {@code Stats.hits}: one per write ({@code hits++}) and one by {@code Stats.hits()} at the end. */
    public static long reads(int workers, int hitsPerWorker, int quickHits) {
        return writes(workers, hitsPerWorker, quickHits) + 1;
    }

    /**
     * The old values of the last {@code keep} writes, oldest first; each write's new value is its old value + 1.
     * When {@code quickHits >= keep} they are all unsafe writes by {@link #UNSAFE_WRITER}.
     */
    public static long[] lastOldValues(int workers, int hitsPerWorker, int quickHits, int keep) {
        long total = writes(workers, hitsPerWorker, quickHits);
        int n = (int) Math.min(keep, total);
        long[] old = new long[n];
        for (int k = 0; k < n; k++) {
            old[k] = total - n + k;
        }
        return old;
    }

    /** The lines {@link UnsafeCounterApp} prints to stdout, in order. */
    public static List<String> expectedOutput(int workers, int hitsPerWorker, int quickHits) {
        return UnsafeCounterApp.report(workers, hitsPerWorker, quickHits, writes(workers, hitsPerWorker, quickHits));
    }
}
