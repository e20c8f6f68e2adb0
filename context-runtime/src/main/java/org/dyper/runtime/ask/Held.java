package org.dyper.runtime.ask;

/**
 * Per thread and question, the acquisition times of the monitors held now ({@link Ask#acquired}, {@link
 * Ask#released}): a stack, since Java releases monitors in the reverse order it takes them. A thread's stacks are made
 * when it first takes a monitor a question watches; nothing is allocated per event after that. Deeper than
 * {@value #DEPTH} nested monitors, the innermost are not timed (counted as {@link #overflows}).
 */
final class Held {
    /** The nested monitors timed per thread and question. */
    static final int DEPTH = 64;

    private static final ThreadLocal<Held> HELD = ThreadLocal.withInitial(Held::new);
    private static final java.util.concurrent.atomic.LongAdder OVERFLOWS = new java.util.concurrent.atomic.LongAdder();

    /** Bumped when a new question table is defined: stacks of an older table are dropped. */
    private static volatile int epoch;

    /** Per question index: the times pushed, and how deep (past DEPTH: not kept). */
    private long[][] starts = new long[0][];
    private int[] depth = new int[0];
    private int seen;

    private Held() {
    }

    /** A new question table: every thread's stacks start empty again, and the overflow count at 0. */
    static synchronized void reset() {
        epoch++;
        OVERFLOWS.reset();
    }

    private static Held current() {
        Held h = HELD.get();
        int e = epoch;
        if (h.seen != e) {
            java.util.Arrays.fill(h.depth, 0);
            h.seen = e;
        }
        return h;
    }

    static void push(int q, long start) {
        Held h = current();
        if (q >= h.depth.length) {
            h.grow(q + 1);
        }
        int d = h.depth[q]++;
        if (d < DEPTH) {
            if (h.starts[q] == null) {
                h.starts[q] = new long[DEPTH];
            }
            h.starts[q][d] = start;
        } else {
            OVERFLOWS.increment();
        }
    }

    /** The time pushed last for {@code q} on this thread, or 0 when none is held (or it was past DEPTH). */
    static long pop(int q) {
        Held h = current();
        if (q >= h.depth.length || h.depth[q] == 0) {
            return 0;
        }
        int d = --h.depth[q];
        return d < DEPTH ? h.starts[q][d] : 0;
    }

    static long overflows() {
        return OVERFLOWS.sum();
    }

    private void grow(int n) {
        starts = java.util.Arrays.copyOf(starts, n);
        depth = java.util.Arrays.copyOf(depth, n);
    }
}
