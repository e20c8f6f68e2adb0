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

    /** An object to allocate and write, for TRACE_ALLOC and TRACE_FIELD_WRITE. */
    static final class Item {
        long value;

        void set(long v) {
            value = v;
        }
    }

    /**
     * Allocates {@link TraceFacts#ITEMS} items, sets each one's value to 10 times its index, and one array of
     * {@link TraceFacts#ITEMS} longs holding them; returns their sum.
     */
    static long items() {
        long[] values = new long[TraceFacts.ITEMS];
        long sum = 0;
        for (int i = 0; i < TraceFacts.ITEMS; i++) {
            Item item = new Item();
            item.set(10L * i);
            values[i] = item.value;
            sum += values[i];
        }
        return sum;
    }

    private Work() {
    }
}
