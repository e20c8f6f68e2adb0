package org.dyper.samples.contention;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;

/**
 * A lock-contention program with planted, exactly known behaviour.
 *
 * <p>Planted part: thread {@value #AUDITOR} audits the {@link Ledger} {@code rounds} times; each time it holds the
 * ledger's monitor until thread {@value #POSTER}, which then calls {@link Ledger#post(long)}, is seen BLOCKED on it,
 * and {@value Ledger#HOLD_MS} ms longer. So every one of the {@code rounds} acquisitions in {@code Ledger.post} is
 * contended (a wait of milliseconds), the waiter is always {@value #POSTER} and the holder {@value #AUDITOR}; the
 * two take turns through semaphores, so no other acquisition of the ledger overlaps.
 *
 * <p>Then {@code workers} threads ({@value #WORKER_PREFIX}0, ...) each call the {@code synchronized} method
 * {@link Journal#record(long)} {@code recordsPerWorker} times on a journal of their own: acquisitions that no other
 * thread competes for.
 *
 * <p>The output is the same on every run; the exact numbers are in {@link ContentionFacts}.
 * Usage: {@code ContentionApp [rounds] [workers] [recordsPerWorker]}, defaults {@value #DEFAULT_ROUNDS},
 * {@value #DEFAULT_WORKERS}, {@value #DEFAULT_RECORDS_PER_WORKER}.
 */
public final class ContentionApp {
    public static final int DEFAULT_ROUNDS = 5;
    public static final int DEFAULT_WORKERS = 4;
    public static final int DEFAULT_RECORDS_PER_WORKER = 2_500;
    public static final String AUDITOR = "ledger-auditor";
    public static final String POSTER = "ledger-poster";
    public static final String WORKER_PREFIX = "journal-worker-";

    private ContentionApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 3) {
            System.err.println("usage: ContentionApp [rounds] [workers] [recordsPerWorker]");
            System.exit(2);
        }
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_WORKERS;
        int records = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_RECORDS_PER_WORKER;
        run(rounds, workers, records, System.out);
    }

    /** Runs both parts and prints the report to {@code out}. */
    public static void run(int rounds, int workers, int recordsPerWorker, PrintStream out)
            throws InterruptedException {
        if (rounds < 0 || rounds > 10_000 || workers < 1 || recordsPerWorker < 0) {
            throw new IllegalArgumentException("need 0 <= rounds <= 10000, workers >= 1, recordsPerWorker >= 0; got "
                    + rounds + ", " + workers + ", " + recordsPerWorker);
        }
        Ledger ledger = new Ledger();
        long audited = planted(ledger, rounds);
        long journalTotal = journals(workers, recordsPerWorker);
        for (String line : report(rounds, workers, recordsPerWorker, ledger.posts(), ledger.balance(), audited,
                journalTotal)) {
            out.println(line);
        }
        out.flush();
    }

    /** The planted contention; returns the sum of the balances the audits saw. */
    private static long planted(Ledger ledger, int rounds) throws InterruptedException {
        Semaphore auditing = new Semaphore(0);
        Semaphore posted = new Semaphore(0);
        Throwable[] failure = new Throwable[2];
        long[] audited = new long[1];
        Thread poster = new Thread(() -> {
            try {
                for (int r = 1; r <= rounds; r++) {
                    auditing.acquire();
                    ledger.post(ContentionFacts.amount(r));
                    posted.release();
                }
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, POSTER);
        Thread auditor = new Thread(() -> {
            try {
                for (int r = 1; r <= rounds; r++) {
                    // the poster starts asking for the ledger only once the audit holds it: see Ledger.audit
                    audited[0] += ledger.audit(poster, auditing::release);
                    posted.acquire();
                }
            } catch (Throwable t) {
                failure[1] = t;
            }
        }, AUDITOR);
        poster.start();
        auditor.start();
        auditor.join();
        poster.join();
        for (Throwable t : failure) {
            if (t != null) {
                throw new IllegalStateException("planted contention failed", t);
            }
        }
        return audited[0];
    }

    private static long journals(int workers, int recordsPerWorker) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        Journal[] journals = new Journal[workers];
        for (int w = 0; w < workers; w++) {
            Journal journal = new Journal();
            journals[w] = journal;
            int worker = w;
            threads.add(new Thread(() -> {
                for (int i = 0; i < recordsPerWorker; i++) {
                    journal.record(ContentionFacts.record(worker, i));
                }
            }, WORKER_PREFIX + w));
        }
        threads.forEach(Thread::start);
        long total = 0;
        for (int w = 0; w < workers; w++) {
            threads.get(w).join();
            if (journals[w].records() != recordsPerWorker) {
                throw new IllegalStateException(WORKER_PREFIX + w + " did not finish");
            }
            total += journals[w].total();
        }
        return total;
    }

    static List<String> report(int rounds, int workers, int recordsPerWorker, long posts, long balance,
            long audited, long journalTotal) {
        return List.of(
                "contention: rounds=" + rounds + " holdMs=" + Ledger.HOLD_MS + " workers=" + workers
                        + " recordsPerWorker=" + recordsPerWorker,
                "ledger: posts=" + posts + " balance=" + balance + " audited=" + audited,
                "journals: records=" + (long) workers * recordsPerWorker + " total=" + journalTotal);
    }
}
