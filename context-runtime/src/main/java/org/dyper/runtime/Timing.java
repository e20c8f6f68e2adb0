package org.dyper.runtime;

import org.dyper.runtime.internal.ThreadData;

/**
 * Times every call of a site: count, total, min, max and a log2 histogram of durations. Allocation-free and
 * lock-free after a thread's first call of the site. For hot sites where timing every call costs too much, see
 * {@link SampledTiming}.
 */
public final class Timing {
    private Timing() {
    }

    /** Returns {@code System.nanoTime()}, to be passed to {@link #exit}. */
    public static long enter(int id) {
        return System.nanoTime();
    }

    /** Records one call at {@code id} lasting {@code System.nanoTime() - start} ns (negative taken as 0). Never throws. */
    public static void exit(int id, long start) {
        long duration = System.nanoTime() - start;
        try {
            ThreadData.current().time(id, duration);
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }
}
