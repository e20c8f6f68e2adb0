package org.dyper.samples.bank;

/**
 * One account of the {@link Bank}. Not thread-safe on its own: every method is called with this
 * account's monitor held (the bank locks both accounts of a transfer, lower id first).
 */
public final class Account {
    private final int id;
    private long balance;

    public Account(int id, long initialBalance) {
        this.id = id;
        this.balance = initialBalance;
    }

    public int id() {
        return id;
    }

    /** The balance; the caller holds this account's monitor. */
    long balance() {
        return balance;
    }

    /**
     * Takes {@code amount} out of this account.
     *
     * @throws InsufficientFundsException when the balance is below {@code amount}; nothing changes then
     */
    public void withdraw(long amount) throws InsufficientFundsException {
        if (balance < amount) {
            throw new InsufficientFundsException(id, balance, amount);
        }
        balance -= amount;
    }

    public void deposit(long amount) {
        balance += amount;
    }
}
