package org.dyper.samples.unsafe;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A program that writes a shared field outside its lock. {@code workers} threads ({@value #WORKER_PREFIX}0, ...)
 * each call {@link Stats#hit()} {@code hitsPerWorker} times at once (writes under the monitor); after they have
 * ended, thread {@value #SLOPPY} calls {@link Stats#quickHit()} {@code quickHits} times (the planted writes without the
 * monitor). The unsafe writes run alone, so no update is lost and the printed total is the same on every run;
 * a field watch still sees each of them made without the owner's monitor. Exact numbers: {@link UnsafeCounterFacts}.
 *
 * <p>Usage: {@code UnsafeCounterApp [workers] [hitsPerWorker] [quickHits]}, defaults {@value #DEFAULT_WORKERS},
 * {@value #DEFAULT_HITS_PER_WORKER}, {@value #DEFAULT_QUICK_HITS}.
 */
public final class UnsafeCounterApp {
    public static final int DEFAULT_WORKERS = 4;
    public static final int DEFAULT_HITS_PER_WORKER = 5_000;
    public static final int DEFAULT_QUICK_HITS = 250;
    public static final String WORKER_PREFIX = "stats-worker-";
    public static final String SLOPPY = "stats-sloppy";

    private UnsafeCounterApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 3) {
            System.err.println("usage: UnsafeCounterApp [workers] [hitsPerWorker] [quickHits]");
            System.exit(2);
        }
        int workers = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_WORKERS;
        int hits = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_HITS_PER_WORKER;
        int quick = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_QUICK_HITS;
        run(workers, hits, quick, System.out);
    }

    /** Runs the workers, then the unsafe writer, and prints the report to {@code out}. */
    public static void run(int workers, int hitsPerWorker, int quickHits, PrintStream out)
            throws InterruptedException {
        if (workers < 1 || hitsPerWorker < 0 || quickHits < 0 || (long) workers * hitsPerWorker > 1_000_000_000L) {
            throw new IllegalArgumentException("need workers >= 1, hitsPerWorker >= 0, quickHits >= 0 and at most"
                    + " 1000000000 hits; got " + workers + ", " + hitsPerWorker + ", " + quickHits);
        }
        Stats stats = new Stats();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < hitsPerWorker; i++) {
                    stats.hit();
                }
            }, WORKER_PREFIX + w));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        Thread sloppy = new Thread(() -> {
            for (int i = 0; i < quickHits; i++) {
                stats.quickHit();
            }
        }, SLOPPY);
        sloppy.start();
        sloppy.join();
        for (String line : report(workers, hitsPerWorker, quickHits, stats.hits())) {
            out.println(line);
        }
        out.flush();
    }

    static List<String> report(int workers, int hitsPerWorker, int quickHits, long hits) {
        return List.of(
                "stats: workers=" + workers + " hitsPerWorker=" + hitsPerWorker + " quickHits=" + quickHits,
                "hits: " + hits);
    }
}
