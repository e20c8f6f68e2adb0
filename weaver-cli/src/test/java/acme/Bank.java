package acme;

/**
 * The planted bank of the question tests (AskRunTest): every call, argument, thread and allocation is known, so every
 * answer is exact. See {@link BankMain} for what runs where.
 */
public class Bank {
    private final Object ledger = new Object();
    private final Account[] accounts = new Account[32];
    private long moved;

    public Bank() {
        for (int i = 0; i < accounts.length; i++) {
            accounts[i] = new Account(1_000_000);
        }
    }

    /** Moves {@code amount} from one account to another under the ledger's lock; makes one Order. */
    public void transfer(int from, int to, long amount) {
        Order o = new Order(from, to, amount);
        synchronized (ledger) {
            accounts[from].withdraw(o.amount());
            accounts[to].deposit(o.amount());
            moved += amount;
        }
    }

    /** Ten transfers of 500, 600, ... 1400 to accounts 0..9. */
    public void payroll() {
        for (int i = 0; i < 10; i++) {
            transfer(31, i, 500 + 100 * i);
        }
    }

    /** Four transfers of 2000 to account 30, and one Order of its own. */
    public void audit() {
        new Order(0, 0, 0);
        for (int i = 0; i < 4; i++) {
            transfer(31, 30, 2000);
        }
    }

    /** A withdrawal outside transfer (of 5000): the question about withdraw from transfer must not see it. */
    public void fee() {
        accounts[31].withdraw(5000);
    }

    public long moved() {
        return moved;
    }
}
