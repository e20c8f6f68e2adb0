package org.dyper.samples.whatif;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * Planted for what-if profiling (b): a method that tops the CPU samples but is off the critical path. Each round,
 * thread {@code crunch} runs {@link #crunch} (one method, 2 units of work) while thread {@code fetch} runs
 * {@link #fetch}, {@link #decode}, {@link #check} and {@link #store} (1 unit each, 4 in all); the round ends when both
 * are done ({@link #round}, the progress point). With a core each, {@code crunch} waits for the other thread every
 * round: sampling ranks it first, yet speeding it up changes nothing, while each of the other four speeds the program
 * up by a quarter of its own speed-up. (With one core for both, everything is on the critical path.)
 *
 * <p>{@code Rounds ROUNDS [crunch:K] [fetch:K] ...}: as {@link Pipeline}; prints {@code rounds items=N checksum=C}.
 */
public final class Rounds {
    public static final int UNIT = 300_000;

    private final int crunchIterations;
    private final int[] stepIterations;
    private final CyclicBarrier barrier = new CyclicBarrier(2, this::round);
    private volatile boolean stop;
    private long rounds;
    private long checksum;
    private long crunched;
    private long fetched;

    Rounds(int crunchIterations, int[] stepIterations) {
        this.crunchIterations = crunchIterations;
        this.stepIterations = stepIterations;
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        long items = Work.items(args);
        Rounds r = new Rounds(Work.iterations(args, "crunch", 2 * UNIT), new int[] {
            Work.iterations(args, "fetch", UNIT), Work.iterations(args, "decode", UNIT),
            Work.iterations(args, "check", UNIT), Work.iterations(args, "store", UNIT)});
        Thread a = new Thread(() -> r.loop(items, true), "crunch");
        Thread b = new Thread(() -> r.loop(items, false), "fetch");
        a.start();
        b.start();
        if (items == 0) {
            Work.untilStdinEnds(() -> r.stop = true);
        }
        a.join();
        b.join();
        Work.report("rounds", r.rounds, r.checksum, start);
    }

    private void loop(long items, boolean crunching) {
        try {
            for (long i = 0; items == 0 ? !stop : i < items; i++) {
                if (crunching) {
                    crunchRound(i);
                } else {
                    fetchRound(i);
                }
            }
            barrier.reset(); // the other thread may wait for a round that never comes once stop is seen
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (BrokenBarrierException e) {
            // the other thread stopped first
        }
    }

    void crunchRound(long i) throws InterruptedException, BrokenBarrierException {
        crunched = crunch(i);
        barrier.await();
    }

    void fetchRound(long i) throws InterruptedException, BrokenBarrierException {
        fetched = store(check(decode(fetch(i))));
        barrier.await();
    }

    long crunch(long i) {
        return Work.burn(i, crunchIterations);
    }

    long fetch(long i) {
        return Work.burn(i + 1, stepIterations[0]);
    }

    long decode(long x) {
        return Work.burn(x, stepIterations[1]);
    }

    long check(long x) {
        return Work.burn(x, stepIterations[2]);
    }

    long store(long x) {
        return Work.burn(x, stepIterations[3]);
    }

    /** The progress point, run by the barrier when both threads finished round i. */
    void round() {
        rounds++;
        checksum = checksum * 31 + (crunched ^ fetched);
    }
}
