package org.dyper.samples.bank;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A fixed set of {@value #ACCOUNTS} accounts moving money between each other. Transfers lock both
 * accounts, lower id first, so concurrent transfers never deadlock; the fee of each successful
 * transfer goes to the bank, so {@code sum(balances) + feesCollected()} is always {@link #INITIAL_TOTAL}.
 */
public final class Bank {
    public static final int ACCOUNTS = 16;
    /** Large against any run's outflow (at most 999 per transfer), so only planted transfers fail. */
    public static final long INITIAL_BALANCE = 1_000_000_000_000L;
    public static final long INITIAL_TOTAL = ACCOUNTS * INITIAL_BALANCE;
    /** The highest fee {@link #fee(long)} charges. */
    public static final int MAX_FEE = 10;
    /** Rounds of the mixing function per account in {@link #audit()}: a few hundred microseconds. */
    static final int AUDIT_ROUNDS = 8_000;

    private final Account[] accounts = new Account[ACCOUNTS];
    private final AtomicLong feesCollected = new AtomicLong();

    public Bank() {
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new Account(i, INITIAL_BALANCE);
        }
    }

    /**
     * Moves {@code amount} from account {@code from} to account {@code to}, keeping {@link #fee(long)}
     * of it for the bank.
     *
     * @return the new balance of {@code from}
     * @throws InsufficientFundsException when {@code from} holds less than {@code amount}; no money moves
     */
    public long transfer(int from, int to, long amount) throws InsufficientFundsException {
        if (from == to) {
            throw new IllegalArgumentException("transfer to the same account " + from);
        }
        Account source = accounts[from];
        Account target = accounts[to];
        Account first = from < to ? source : target;
        Account second = from < to ? target : source;
        int fee = fee(amount);
        synchronized (first) {
            synchronized (second) {
                source.withdraw(amount);
                target.deposit(amount - fee);
                feesCollected.addAndGet(fee);
                return source.balance();
            }
        }
    }

    /** The fee for moving {@code amount}: 1 per started hundred, at most {@value #MAX_FEE}. */
    public int fee(long amount) {
        return (int) Math.min(MAX_FEE, 1 + amount / 100);
    }

    /**
     * The deliberately CPU-heavy hot spot: a checksum over every account's balance, each read under
     * that account's lock and mixed {@value #AUDIT_ROUNDS} times.
     */
    public long audit() {
        long h = 0x243F_6A88_85A3_08D3L;
        for (Account account : accounts) {
            long balance;
            synchronized (account) {
                balance = account.balance();
            }
            h = mix(h ^ balance);
        }
        return h;
    }

    private static long mix(long h) {
        for (int r = 0; r < AUDIT_ROUNDS; r++) {
            h = h * 0x9E37_79B9_7F4A_7C15L + r;
            h ^= h >>> 29;
        }
        return h;
    }

    public long feesCollected() {
        return feesCollected.get();
    }

    /** The balance of every account, in id order; call it when no transfer is running. */
    public long[] balances() {
        long[] result = new long[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            synchronized (accounts[i]) {
                result[i] = accounts[i].balance();
            }
        }
        return result;
    }

    /** An order-sensitive checksum of final balances, printed by {@link BankApp}. */
    static long checksum(long[] balances) {
        long h = 17;
        for (long balance : balances) {
            h = h * 1_000_003L + balance;
        }
        return h;
    }
}
