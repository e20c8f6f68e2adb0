package org.dyper.samples.whatif;

/**
 * Planted for what-if profiling (c): a lock-bound program. Two threads each repeat {@link #step}: {@link #prepare}
 * (half a unit of work, outside the lock), then {@link #update} (a unit, inside a {@code synchronized} block), then
 * {@link #tally} (the progress point). The lock is busy all the time: speeding up {@code update} speeds the program up
 * by about as much; speeding up {@code prepare} changes nothing while each thread has a core.
 *
 * <p>{@code Counter ITEMS [prepare:K] [update:K]}: ITEMS steps per thread (0: until standard input ends); prints
 * {@code counter items=N checksum=C threads=A,B} (the steps of each thread; the checksum is the same whatever order
 * the threads took the lock in, see {@link #checksum}).
 */
public final class Counter {
    public static final int UNIT = 400_000;
    static final int THREADS = 2;

    private final Object lock = new Object();
    private final int prepareIterations;
    private final int updateIterations;
    private volatile boolean stop;
    private long total;
    private long items;

    Counter(int prepareIterations, int updateIterations) {
        this.prepareIterations = prepareIterations;
        this.updateIterations = updateIterations;
    }

    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        long items = Work.items(args);
        Counter c = new Counter(Work.iterations(args, "prepare", UNIT / 2), Work.iterations(args, "update", UNIT));
        Thread[] threads = new Thread[THREADS];
        long[] steps = new long[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                long i = 0;
                for (; items == 0 ? !c.stop : i < items; i++) {
                    c.step(id * 1_000_000_000L + i);
                }
                steps[id] = i;
            }, "counter-" + t);
            threads[t].start();
        }
        if (items == 0) {
            Work.untilStdinEnds(() -> c.stop = true);
        }
        for (Thread t : threads) {
            t.join();
        }
        long done;
        long sum;
        synchronized (c.lock) {
            done = c.items;
            sum = c.total;
        }
        Work.report("counter", done, sum, start, " threads=" + steps[0] + "," + steps[1]);
    }

    void step(long i) {
        long p = prepare(i);
        synchronized (lock) {
            total += update(p);
            tally();
        }
    }

    /** The checksum after thread t took {@code steps[t]} steps (what the program must print). */
    public static long checksum(long[] steps, int prepareIterations, int updateIterations) {
        // prepare and update of each step, with Work.jump in place of Work.burn (the same values, without the work)
        Work.Jump prepare = Work.jump(prepareIterations);
        Work.Jump update = Work.jump(updateIterations);
        long sum = 0;
        for (int t = 0; t < steps.length; t++) {
            for (long i = 0; i < steps[t]; i++) {
                sum += update.burn(prepare.burn(t * 1_000_000_000L + i));
            }
        }
        return sum;
    }

    long prepare(long i) {
        return Work.burn(i, prepareIterations);
    }

    long update(long prepared) {
        return Work.burn(prepared, updateIterations);
    }

    /** The progress point: one step done (called holding the lock). */
    void tally() {
        items++;
    }
}
