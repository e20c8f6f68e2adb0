package acme;

/** An account of the planted bank. */
public class Account {
    private long balance;

    public Account(long balance) {
        this.balance = balance;
    }

    public void withdraw(long amount) {
        balance -= amount;
    }

    public void deposit(long amount) {
        balance += amount;
    }

    public long balance() {
        return balance;
    }
}
