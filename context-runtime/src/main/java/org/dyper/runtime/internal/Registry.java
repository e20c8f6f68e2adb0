package org.dyper.runtime.internal;

import java.util.Arrays;

/**
 * Every thread's slab, so a report can merge them. A lock is taken only when a thread records for the first time,
 * on reports and on resets, never per event. Slabs of threads that have ended are folded into one
 * {@link Totals} and dropped, so thread churn does not grow memory without bound.
 */
public final class Registry {
    /** Bumped by {@link #reset()}; a slab whose epoch differs holds data from before the reset and is ignored. */
    static volatile int epoch;

    private static final Object LOCK = new Object();
    private static ThreadData[] slabs = new ThreadData[16];
    private static int size;
    private static int compactAt = 64;
    private static Totals ended = new Totals();

    static {
        ReportHook.install();
    }

    private Registry() {
    }

    static void register(ThreadData data) {
        synchronized (LOCK) {
            data.epoch = epoch;
            if (size == slabs.length) {
                slabs = Arrays.copyOf(slabs, size * 2);
            }
            slabs[size++] = data;
            if (size >= compactAt) {
                foldEnded();
                compactAt = Math.max(64, size * 2);
            }
        }
    }

    /** Merged data of all threads, alive or ended, and of the owner cells ({@link OwnerCells}), since the last reset. */
    public static Totals snapshot() {
        synchronized (LOCK) {
            foldEnded();
            Totals totals = ended.copy();
            int current = epoch;
            for (int i = 0; i < size; i++) {
                ThreadData d = slabs[i];
                if (d.publishedEpoch() == current) {
                    totals.add(d);
                } else {
                    totals.name(d);  // it may hold a monitor another thread waited for
                }
            }
            // after the slabs: a sample read there was taken after its call was counted in a cell
            OwnerCells.addTo(totals);
            return totals;
        }
    }

    /** Forgets all agent data; threads clear their own slab when they next record, owner cells get a new baseline. */
    public static void reset() {
        synchronized (LOCK) {
            epoch++;
            OwnerCells.rebase();
            ended = new Totals();
            foldEnded();
        }
    }

    /** Number of slabs still held for live threads (for tests). */
    static int liveSlabs() {
        synchronized (LOCK) {
            foldEnded();
            return size;
        }
    }

    // Thread termination happens-before isAlive() returning false, so an ended thread's slab is complete here.
    private static void foldEnded() {
        int current = epoch;
        int kept = 0;
        boolean folded = false;
        for (int i = 0; i < size; i++) {
            ThreadData d = slabs[i];
            if (d.thread.isAlive()) {
                slabs[kept++] = d;
            } else if (d.publishedEpoch() == current) {
                ended.add(d);
                folded = true;
            }
        }
        Arrays.fill(slabs, kept, size, null);
        size = kept;
        if (folded) {
            ended.pruneThreadNames(slabs, size);
        }
    }
}
