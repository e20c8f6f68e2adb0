package org.dyper.samples.whatif;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Planted for what-if profiling (d): the latency of requests. Thread {@code handler} serves requests one after another:
 * {@link #handle} runs {@link #a} (a unit of work) and then {@link #b}, which hands the result to thread
 * {@code worker} and waits for its answer; the worker runs {@link #c} (four units). Meanwhile thread {@code batch}
 * repeats {@link #d} (a unit, its own work: off the requests' path), resting 2 ms after each (so that the planted
 * program leaves a core free). A request's latency is a + c (and the hand-offs): speeding up {@code a} or {@code c} by
 * k % shortens it by about k/5 or 4k/5 %; speeding up {@code d} changes nothing while each thread has a core.
 *
 * <p>With {@code spin}, thread {@code spin} also runs {@link #spin}, one long loop per call (3 * 10^7 steps of an
 * inlined xorshift, no method call inside: tens of ms compiled, and the call that runs while the class is redefined
 * goes on interpreted, for a second or more), resting 100 ms after each: a thread that enters no method for a long
 * time, which only a delay point at its loop head can hold back.
 *
 * <p>{@code Requests ITEMS [a:K] [c:K] [d:K] [spin]}: ITEMS requests (0: until standard input ends); prints
 * {@code requests items=N checksum=C}, and on stderr the wall time and the requests' mean latency.
 */
public final class Requests {
    public static final int UNIT = 200_000;
    static final long SPIN = 30_000_000L;
    private static final long END = Long.MIN_VALUE;

    private final BlockingQueue<Long> toWorker = new ArrayBlockingQueue<>(1);
    private final BlockingQueue<Long> fromWorker = new ArrayBlockingQueue<>(1);
    private final int aIterations;
    private final int cIterations;
    private final int dIterations;
    private volatile boolean stop;
    /** What the off-path threads computed (kept so that their work is not optimised away; not printed). */
    volatile long sink;

    Requests(int aIterations, int cIterations, int dIterations) {
        this.aIterations = aIterations;
        this.cIterations = cIterations;
        this.dIterations = dIterations;
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        long items = Work.items(args);
        Requests r = new Requests(Work.iterations(args, "a", UNIT), Work.iterations(args, "c", 4 * UNIT),
                Work.iterations(args, "d", UNIT));
        long[] result = new long[3]; // requests, checksum, summed latency in ns
        Thread handler = new Thread(() -> r.handleAll(items, result), "handler");
        Thread worker = new Thread(r::serveAll, "worker");
        Thread batch = new Thread(r::batchAll, "batch");
        Thread spin = new Thread(r::spinAll, "spin");
        handler.start();
        worker.start();
        batch.start();
        boolean spinning = java.util.Arrays.asList(args).contains("spin");
        if (spinning) {
            spin.start();
        }
        if (items == 0) {
            Work.untilStdinEnds(() -> r.stop = true);
        }
        handler.join();
        r.stop = true;
        worker.join();
        batch.join();
        if (spinning) {
            spin.join();
        }
        Work.report("requests", result[0], result[1], start);
        System.err.printf(java.util.Locale.ROOT, "requests: mean latency %.4f ms%n",
                result[0] == 0 ? 0.0 : result[2] / 1e6 / result[0]);
    }

    private void handleAll(long items, long[] result) {
        try {
            for (long i = 0; items == 0 ? !stop : i < items; i++) {
                long t0 = System.nanoTime();
                long answer = handle(i);
                result[2] += System.nanoTime() - t0;
                result[0]++;
                result[1] = result[1] * 31 + answer;
            }
            toWorker.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serveAll() {
        try {
            while (serve()) {
                // one request per call
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void batchAll() {
        long x = 0;
        try {
            for (long i = 0; !stop; i++) {
                x += d(i);
                Thread.sleep(2); // planted: the batch thread's rest between two pieces of its work
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sink = x;
    }

    private void spinAll() {
        long x = 1;
        try {
            while (!stop) {
                x = spin(x);
                Thread.sleep(100); // planted: the spin thread rests about as long as a loop lasts, leaving a core free
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sink = x;
    }

    /** One request: the latency point. */
    long handle(long i) throws InterruptedException {
        return b(a(i));
    }

    long a(long i) {
        return Work.burn(i, aIterations) & Long.MAX_VALUE;
    }

    /** Hands the request to the worker and waits for its answer. */
    long b(long x) throws InterruptedException {
        toWorker.put(x);
        return fromWorker.take();
    }

    /** The worker's step: one request; false at the end. */
    boolean serve() throws InterruptedException {
        long x = toWorker.take();
        if (x == END) {
            return false;
        }
        fromWorker.put(c(x));
        return true;
    }

    long c(long x) {
        return Work.burn(x, cIterations);
    }

    long d(long i) {
        return Work.burn(i, dIterations);
    }

    /** One long loop, no call inside: {@link #SPIN} xorshift steps. */
    long spin(long seed) {
        long x = seed | 1;
        for (long i = 0; i < SPIN; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** The checksum of the first {@code items} requests, computed without threads (what the program must print). */
    public static long checksum(long items, int aIterations, int cIterations) {
        // a and c of each request, with Work.jump in place of Work.burn (the same values, without the work)
        Work.Jump a = Work.jump(aIterations);
        Work.Jump c = Work.jump(cIterations);
        long checksum = 0;
        for (long i = 0; i < items; i++) {
            checksum = checksum * 31 + c.burn(a.burn(i) & Long.MAX_VALUE);
        }
        return checksum;
    }
}
