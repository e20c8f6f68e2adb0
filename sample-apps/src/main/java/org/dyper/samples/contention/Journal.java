package org.dyper.samples.contention;

/**
 * The second lock: one journal per worker, so its {@code synchronized} method is entered often but never by two
 * threads at once (uncontended by construction).
 */
public final class Journal {
    private long total;
    private long records;

    /** The uncontended site: a {@code synchronized} method. */
    public synchronized void record(long amount) {
        total += amount;
        records++;
    }

    long total() {
        return total;
    }

    long records() {
        return records;
    }
}
