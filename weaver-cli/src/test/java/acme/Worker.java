package acme;

/** A worker thread's one transfer, of 100 to account {@code k}. */
public class Worker implements Runnable {
    private final Bank bank;
    private final int k;

    public Worker(Bank bank, int k) {
        this.bank = bank;
        this.k = k;
    }

    @Override
    public void run() {
        bank.transfer(31, k, 100);
    }
}
