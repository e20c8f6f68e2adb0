package org.dyper.runtime.ask;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The window of a question asked about the last N seconds (docs/questions.md, "Windows"): the time since the
 * question was defined is cut into slots of {@link #width} seconds ({@code ceil(N / 60)}, so at most 60 slots), and
 * each group keeps a ring of {@link #slots} slots ({@code ceil(N / width)}), each with count, sum, min and max of its
 * period. An answer adds up the slot in progress and the {@code slots - 1} before it. A slot is claimed and cleared by
 * the first event of a new period (its old period has left the window); an event that finds a slot being cleared
 * waits for the few stores that takes. Memory: 40 bytes per slot, at most 2,400 bytes per group.
 */
final class Window {
    /** The cells of one slot: its period + 1 (0: never used; negative while being cleared), count, sum, min, max. */
    static final int PERIOD = 0, COUNT = 1, SUM = 2, MIN = 3, MAX = 4, CELLS = 5;
    /** The most slots a ring has. */
    static final int MAX_SLOTS = 60;

    /** For tests only: a fixed clock (System.nanoTime's scale) when not 0. */
    static long fixedNanos;

    final int seconds;
    final int width;
    final int slots;
    /** A slot's width in nanoseconds. */
    private final long slotNanos;

    Window(int seconds) {
        this.seconds = seconds;
        this.width = (seconds + MAX_SLOTS - 1) / MAX_SLOTS;
        this.slots = (seconds + width - 1) / width;
        this.slotNanos = width * 1_000_000_000L;
    }

    static long nanos() {
        long f = fixedNanos;
        return f != 0 ? f : System.nanoTime();
    }

    /** The period (slot number since the question was defined) of the time {@code nanos}. */
    long period(long nanos, long definedNanos) {
        return Math.max(0, nanos - definedNanos) / slotNanos;
    }

    AtomicLongArray newRing() {
        return new AtomicLongArray(slots * CELLS);
    }

    /** Adds {@code v} to the slot of {@code period} in {@code ring}. */
    void add(AtomicLongArray ring, long period, long v) {
        int base = (int) (period % slots) * CELLS;
        long mark = period + 1;
        for (long p = ring.get(base); p != mark; p = ring.get(base)) {
            if (p > mark) {
                return;   // this thread stalled a whole turn of the ring: the event's period has left the window
            }
            if (p >= 0 && ring.compareAndSet(base, p, -mark)) {
                ring.set(base + COUNT, 0);
                ring.set(base + SUM, 0);
                ring.set(base + MIN, Long.MAX_VALUE);
                ring.set(base + MAX, Long.MIN_VALUE);
                ring.set(base + PERIOD, mark);
                break;
            }
            Thread.onSpinWait();   // another event is clearing the slot: a few stores
        }
        ring.getAndIncrement(base + COUNT);
        if (v != 0) {
            ring.getAndAdd(base + SUM, v);
        }
        long m = ring.get(base + MIN);
        while (v < m && !ring.compareAndSet(base + MIN, m, v)) {
            m = ring.get(base + MIN);
        }
        m = ring.get(base + MAX);
        while (v > m && !ring.compareAndSet(base + MAX, m, v)) {
            m = ring.get(base + MAX);
        }
    }

    /** Count, sum, min and max over the slots in the window at period {@code now}. */
    long[] sum(AtomicLongArray ring, long now) {
        long[] r = {0, 0, Long.MAX_VALUE, Long.MIN_VALUE};
        for (int s = 0; s < slots; s++) {
            int base = s * CELLS;
            long period = ring.get(base + PERIOD) - 1;
            if (period >= 0 && period <= now && period > now - slots) {
                r[0] += ring.get(base + COUNT);
                r[1] += ring.get(base + SUM);
                r[2] = Math.min(r[2], ring.get(base + MIN));
                r[3] = Math.max(r[3], ring.get(base + MAX));
            }
        }
        return r;
    }

    /** The seconds the window covers at time {@code nanos}: from the start of its oldest slot (or the definition). */
    double span(long nanos, long definedNanos) {
        long now = period(nanos, definedNanos);
        long start = Math.max(0, now - slots + 1) * slotNanos;
        return Math.max(0, nanos - definedNanos - start) / 1e9;
    }
}
