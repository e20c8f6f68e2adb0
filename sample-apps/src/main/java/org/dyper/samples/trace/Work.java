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

    /** The last item made (a static reference field, for TRACE_FIELD_WRITE_REF at STATIC_WRITE). */
    static Item last;

    /**
     * An object to allocate and write, for TRACE_ALLOC, TRACE_FIELD_WRITE and TRACE_FIELD_WRITE_REF. Planted:
     * {@code hashCode} and {@code toString} throw, so a tracer that called either would fail (Dyper must name objects
     * by class and identity hash only).
     */
    static final class Item {
        long value;
        Item next;

        void set(long v) {
            value = v;
        }

        void link(Item n) {
            next = n;
        }

        @Override
        public int hashCode() {
            throw new IllegalStateException("planted: a tracer must not call hashCode");
        }

        @Override
        public boolean equals(Object o) {
            return this == o;
        }

        @Override
        public String toString() {
            throw new IllegalStateException("planted: a tracer must not call toString");
        }
    }

    /**
     * Allocates {@link TraceFacts#ITEMS} items, sets each one's value to 10 times its index, links each to the one
     * before (the first to null) and makes it {@link #last}, and one array of {@link TraceFacts#ITEMS} longs holding
     * the values; returns their sum.
     */
    static long items() {
        long[] values = new long[TraceFacts.ITEMS];
        long sum = 0;
        Item previous = null;
        for (int i = 0; i < TraceFacts.ITEMS; i++) {
            Item item = new Item();
            item.set(10L * i);
            item.link(previous);
            last = item;
            previous = item;
            values[i] = item.value;
            sum += values[i];
        }
        return sum;
    }

    private Work() {
    }
}
