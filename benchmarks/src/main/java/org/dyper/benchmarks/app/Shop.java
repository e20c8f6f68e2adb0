package org.dyper.benchmarks.app;

/**
 * The hot method of the question benchmark (benchmarks/run-ask-peers): {@link #checkout} is a few nanoseconds of
 * arithmetic on its argument, so that what a tool adds per call shows.
 */
public final class Shop {
    private static final long[] PRICES = {3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59};
    private long served;

    /** The price of {@code items} items (0 to 15 of them); counts the checkouts served. */
    public long checkout(int items) {
        long total = served & 1;
        for (int i = 0; i < items; i++) {
            total += PRICES[i] * (i + 1);
        }
        served++;
        return total;
    }

    /** How many checkouts this shop served. */
    public long served() {
        return served;
    }
}
