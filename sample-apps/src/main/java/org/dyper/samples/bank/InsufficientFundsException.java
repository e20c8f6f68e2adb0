package org.dyper.samples.bank;

/** Thrown by {@link Account#withdraw(long)} when the account holds less than the amount asked for. */
public class InsufficientFundsException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int accountId;
    private final long balance;
    private final long requested;

    public InsufficientFundsException(int accountId, long balance, long requested) {
        super("account " + accountId + " holds " + balance + ", asked for " + requested);
        this.accountId = accountId;
        this.balance = balance;
        this.requested = requested;
    }

    public int accountId() {
        return accountId;
    }

    public long balance() {
        return balance;
    }

    public long requested() {
        return requested;
    }
}
