package org.dyper.samples.bank;

/**
 * The deterministic sequence of transfers one worker makes: SplitMix64 seeded by the worker's index,
 * written out here (rather than {@code java.util.SplittableRandom}) so the sequence is the same on
 * every JDK. Both {@link BankApp}'s workers and {@link BankFacts}' replay walk it.
 */
final class Plan {
    /** Drawn amounts are 1..MAX_AMOUNT. */
    static final int MAX_AMOUNT = 999;
    /** A drawn amount that is a multiple of this is planted to fail (see {@link #amount()}). */
    static final int FAIL_EVERY_MULTIPLE_OF = 97;

    private long state;
    private int from;
    private int to;
    private long amount;

    Plan(int workerIndex) {
        this.state = 0x5EED_0000_0000L + workerIndex * 0x9E37_79B9_7F4A_7C15L;
    }

    /** Draws the next transfer. */
    void next() {
        from = (int) Long.remainderUnsigned(nextLong(), Bank.ACCOUNTS);
        to = (from + 1 + (int) Long.remainderUnsigned(nextLong(), Bank.ACCOUNTS - 1)) % Bank.ACCOUNTS;
        long drawn = 1 + Long.remainderUnsigned(nextLong(), MAX_AMOUNT);
        // A planted failure asks for more than the whole bank holds, so it fails whatever the other
        // threads have done; every other transfer is small against the balances, so it never fails.
        amount = drawn % FAIL_EVERY_MULTIPLE_OF == 0 ? Bank.INITIAL_TOTAL + drawn : drawn;
    }

    int from() {
        return from;
    }

    int to() {
        return to;
    }

    long amount() {
        return amount;
    }

    boolean plantedFailure() {
        return amount > MAX_AMOUNT;
    }

    private long nextLong() {
        long z = (state += 0x9E37_79B9_7F4A_7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }
}
