package org.dyper.runtime;

import org.dyper.runtime.internal.OwnerCells;
import org.dyper.runtime.internal.ThreadData;

/**
 * Counts every call of a site exactly and times one call in N per thread and site (system property
 * {@code dyper.sample.every}, default 64, read once); the report estimates the total time with a standard error.
 * Allocation-free and lock-free after a thread's first call of the site.
 */
public final class SampledTiming {
    private SampledTiming() {
    }

    /** Counts the call; returns a start time (never 0) when this call is to be timed, else 0. Never throws. */
    public static long enter(int id) {
        try {
            // the owner fast path (see OwnerCells): with a constant id the range and bounds checks fold away
            boolean timeIt = id >= 0 && id < OwnerCells.FAST_IDS && OwnerCells.SAMPLE_OWNER[id] == Thread.currentThread()
                    ? OwnerCells.sampleOwned(id) : OwnerCells.sampleSlow(id);
            if (timeIt) {
                return now();
            }
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
        return 0;
    }

    private static long now() {
        long now = System.nanoTime();
        return now == 0 ? 1 : now;
    }

    /** When {@code start != 0}, records one sampled duration of {@code System.nanoTime() - start} ns. Never throws. */
    public static void exit(int id, long start) {
        if (start == 0) {
            return;
        }
        long duration = System.nanoTime() - start;
        try {
            ThreadData.current().sample(id, duration);
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }
}
