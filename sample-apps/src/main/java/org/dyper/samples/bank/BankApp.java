package org.dyper.samples.bank;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A multi-threaded bank with planted behaviour: {@code threads} workers each make
 * {@code transfersPerThread} transfers between {@value Bank#ACCOUNTS} accounts from a deterministic
 * per-worker sequence, every transfer whose drawn amount is a multiple of 97 fails with
 * {@link InsufficientFundsException}, and every worker runs the CPU-heavy {@link Bank#audit()} after
 * each {@value #AUDIT_EVERY} transfers. The output is the same on every run and every JDK; the exact
 * numbers (and call counts) are in {@link BankFacts}.
 *
 * <p>Usage: {@code BankApp [threads] [transfersPerThread]}, defaults {@value #DEFAULT_THREADS} and
 * {@value #DEFAULT_TRANSFERS_PER_THREAD}.
 */
public final class BankApp {
    public static final int DEFAULT_THREADS = 4;
    public static final int DEFAULT_TRANSFERS_PER_THREAD = 2500;
    public static final int AUDIT_EVERY = 50;
    /** Beyond this many transfers in total an unplanted transfer could run an account dry. */
    public static final long MAX_TOTAL_TRANSFERS = 1_000_000_000L;

    /** Keeps the JIT from dropping results the output does not show. */
    static volatile long sink;

    private BankApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 2) {
            System.err.println("usage: BankApp [threads] [transfersPerThread]");
            System.exit(2);
        }
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_THREADS;
        int perThread = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_TRANSFERS_PER_THREAD;
        run(threads, perThread, System.out);
    }

    /** Runs the bank and prints its report to {@code out}. */
    public static void run(int threads, int perThread, PrintStream out) throws InterruptedException {
        if (threads < 1 || perThread < 0 || (long) threads * perThread > MAX_TOTAL_TRANSFERS) {
            throw new IllegalArgumentException("need threads >= 1, transfersPerThread >= 0 and at most "
                    + MAX_TOTAL_TRANSFERS + " transfers in total; got " + threads + " x " + perThread);
        }
        Bank bank = new Bank();
        CountDownLatch start = new CountDownLatch(1);
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Worker worker = new Worker(i, perThread, bank, start);
            workers.add(worker);
            worker.start();
        }
        start.countDown();
        long failed = 0;
        for (Worker worker : workers) {
            worker.join();
            if (worker.error != null) {
                throw new IllegalStateException("worker " + worker.getName() + " failed", worker.error);
            }
            failed += worker.failed;
        }
        long transfers = (long) threads * perThread;
        long[] balances = bank.balances();
        long money = bank.feesCollected();
        for (long balance : balances) {
            money += balance;
        }
        for (String line : report(threads, perThread, transfers - failed, failed, bank.feesCollected(), money,
                Bank.checksum(balances))) {
            out.println(line);
        }
        out.flush();
    }

    static List<String> report(int threads, int perThread, long succeeded, long failed, long fees, long money,
            long checksum) {
        return List.of(
                "bank: threads=" + threads + " transfersPerThread=" + perThread + " accounts=" + Bank.ACCOUNTS,
                "transfers: " + (succeeded + failed) + " succeeded=" + succeeded + " failed=" + failed,
                "fees: " + fees,
                "money: initial=" + Bank.INITIAL_TOTAL + " final=" + money
                        + " conserved=" + (money == Bank.INITIAL_TOTAL),
                "checksum: " + Long.toHexString(checksum));
    }

    private static final class Worker extends Thread {
        private final int index;
        private final int transfers;
        private final Bank bank;
        private final CountDownLatch start;
        long failed;
        Throwable error;

        Worker(int index, int transfers, Bank bank, CountDownLatch start) {
            super("bank-worker-" + index);
            this.index = index;
            this.transfers = transfers;
            this.bank = bank;
            this.start = start;
        }

        @Override
        public void run() {
            try {
                start.await();
                Plan plan = new Plan(index);
                long seen = 0;
                for (int i = 1; i <= transfers; i++) {
                    plan.next();
                    try {
                        seen ^= bank.transfer(plan.from(), plan.to(), plan.amount());
                    } catch (InsufficientFundsException e) {
                        failed++;
                    }
                    if (i % AUDIT_EVERY == 0) {
                        seen ^= bank.audit();
                    }
                }
                sink = seen;
            } catch (Throwable t) {
                error = t;
            }
        }
    }
}
