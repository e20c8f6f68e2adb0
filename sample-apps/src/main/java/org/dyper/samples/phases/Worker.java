package org.dyper.samples.phases;

/**
 * The work of a phase, one call of {@link #work(int)} at a time: an allocation, a call, a branch and a write of a
 * field holding the worker's monitor. Single-threaded; the monitor is there to be watched.
 */
public final class Worker {
    private long total;

    /** One unit of work on {@code n}: returns its weight, adds it to the total. */
    public long work(int n) {
        Item item = new Item(n);
        long weight = weigh(item);
        if (n % 3 == 0) {
            weight += 7;
        } else {
            weight -= 1;
        }
        synchronized (this) {
            total += weight;
        }
        return weight;
    }

    /** The weight of an item: its number squared, modulo 1000. */
    public long weigh(Item item) {
        return (long) item.number() * item.number() % 1000;
    }

    public long total() {
        synchronized (this) {
            return total;
        }
    }
}
