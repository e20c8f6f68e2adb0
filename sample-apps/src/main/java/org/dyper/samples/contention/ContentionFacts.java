package org.dyper.samples.contention;

/**
 * The exact behaviour of {@link ContentionApp} for given {@code rounds}, {@code workers} and
 * {@code recordsPerWorker}, computed by arithmetic without running threads. Site names are as Dyper reports them
 * ({@code class.method(parameter types)}); lock classes by {@code Class.getTypeName()}.
 */
public final class ContentionFacts {
    public static final String LEDGER = "org.dyper.samples.contention.Ledger";
    public static final String JOURNAL = "org.dyper.samples.contention.Journal";
    /** The planted contended site: a {@code synchronized} block. */
    public static final String POST = LEDGER + ".post(long)";
    /** The site that holds the ledger while the poster waits: a {@code synchronized} block. */
    public static final String AUDIT = LEDGER + ".audit(java.lang.Thread,java.lang.Runnable)";
    /** The uncontended site: a {@code synchronized} method. */
    public static final String RECORD = JOURNAL + ".record(long)";
    /** The thread that waits in every planted contended acquisition. */
    public static final String WAITER = ContentionApp.POSTER;
    /** The thread that holds the ledger during every planted contended acquisition. */
    public static final String HOLDER = ContentionApp.AUDITOR;
    /** Every planted wait lasts at least this long (ns): the audit sleeps this long after seeing the poster wait. */
    public static final long MIN_PLANTED_WAIT_NS = Ledger.HOLD_MS * 1_000_000;

    /** With the default arguments (5 rounds, 4 workers x 2,500 records). */
    public static final long DEFAULT_POST_ACQUISITIONS = 5;
    public static final long DEFAULT_CONTENDED_POSTS = 5;
    public static final long DEFAULT_RECORD_ACQUISITIONS = 10_000;
    public static final long DEFAULT_BALANCE = 1_500;
    public static final long DEFAULT_AUDITED = 2_000;
    public static final long DEFAULT_JOURNAL_TOTAL = 54_988;

    private ContentionFacts() {
    }

    /** What the poster posts in round r (1-based). */
    static long amount(int round) {
        return 100L * round;
    }

    /** What worker w records in its i-th call (0-based). */
    static long record(int worker, int i) {
        return worker + 1 + i % 7;
    }

    /** Acquisitions of the ledger at {@code Ledger.post}: one per round. */
    public static long postAcquisitions(int rounds) {
        return rounds;
    }

    /**
     * Contended acquisitions at {@code Ledger.post}: all of them. Each waits for an audit that holds the ledger at
     * least {@link #MIN_PLANTED_WAIT_NS} ns after the poster is seen blocked, so this holds for any threshold below
     * that.
     */
    public static long contendedPosts(int rounds) {
        return rounds;
    }

    /**
     * Acquisitions of the ledger at {@code Ledger.audit}: one per round, each made while nobody else holds it, so none
     * waits (Dyper counts a wait only where another thread held the monitor) and none is contended.
     */
    public static long auditAcquisitions(int rounds) {
        return rounds;
    }

    /** Acquisitions of the {@code Ledger} class's monitors: posts and audits (nothing else locks a ledger). */
    public static long ledgerClassAcquisitions(int rounds) {
        return 2L * rounds;
    }

    /**
     * Acquisitions at {@code Journal.record} (the {@code Journal} class's only monitor use): one per record. No two
     * threads ever compete for a journal, so none waits and none is contended, however the threads are scheduled.
     */
    public static long recordAcquisitions(int workers, int recordsPerWorker) {
        return (long) workers * recordsPerWorker;
    }

    /** The ledger's final balance: the sum of all posts. */
    public static long balance(int rounds) {
        long sum = 0;
        for (int r = 1; r <= rounds; r++) {
            sum += amount(r);
        }
        return sum;
    }

    /** The sum of the balances the audits saw: audit r runs before post r. */
    public static long audited(int rounds) {
        long sum = 0;
        for (int r = 1; r <= rounds; r++) {
            sum += balance(r - 1);
        }
        return sum;
    }

    public static long journalTotal(int workers, int recordsPerWorker) {
        long sum = 0;
        for (int w = 0; w < workers; w++) {
            for (int i = 0; i < recordsPerWorker; i++) {
                sum += record(w, i);
            }
        }
        return sum;
    }

    /** The lines {@link ContentionApp} prints to stdout, in order. */
    public static java.util.List<String> expectedOutput(int rounds, int workers, int recordsPerWorker) {
        return ContentionApp.report(rounds, workers, recordsPerWorker, postAcquisitions(rounds), balance(rounds),
                audited(rounds), journalTotal(workers, recordsPerWorker));
    }
}
