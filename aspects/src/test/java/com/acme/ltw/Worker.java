package com.acme.ltw;

/** One thread's work in {@link Workload}. */
public class Worker implements Runnable {
    private final int seed;
    private long total;

    public Worker(int seed) {
        this.seed = seed;
    }

    @Override
    public void run() {
        for (int i = 0; i < Workload.HOT_PER_THREAD; i++) {
            total += hot(i);
        }
    }

    int hot(int x) {
        return x * 2 + seed;
    }

    long result() {
        return total;
    }

    static long cold(long n) {
        return n * n;
    }

    static void check(int n) {
        if (n % 2 == 1) {
            throw new IllegalStateException("odd " + n);
        }
    }
}
