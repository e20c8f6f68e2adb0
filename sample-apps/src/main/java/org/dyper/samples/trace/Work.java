package org.dyper.samples.trace;

/** The traced methods of {@link TraceApp}: slow and fast calls, phases, and a timed method. */
public final class Work {
    /** Sleeps {@link TraceFacts#SLOW_MS} ms (planted: well above the threshold); returns {@code 3 * n}. */
    static long slow(int n) throws InterruptedException {
        Thread.sleep(TraceFacts.SLOW_MS); // planted: a slow call
        return 3L * n;
    }

    /** A call far below the threshold. */
    static int fast(int n) {
        return n * 2;
    }

    static void phaseOne() {
    }

    static void phaseTwo() {
    }

    static void phaseThree() {
    }

    /** Timed exactly (TIME modes), for the figures. */
    static int timed(int n) {
        return n + 1;
    }

    private Work() {
    }
}
