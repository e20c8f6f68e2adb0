package org.dyper.benchmarks.workloads;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Fifty threads busy on the CPU at once (more than the machine has cores), for the given seconds: each hashes its own
 * buffer ({@link #mix}) and sorts small arrays ({@link #sortRound}), two thirds of its time in the first. Prints a
 * checksum. Usage: {@code BusyThreadsWorkload seconds}.
 */
public final class BusyThreadsWorkload {
    private static final int THREADS = 50;

    private BusyThreadsWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        AtomicLong sum = new AtomicLong();
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int seed = t;
            threads[t] = new Thread(() -> {
                long[] buffer = new long[4096];
                int[] small = new int[256];
                long h = seed;
                while (System.nanoTime() < end) {
                    h += mix(buffer, h);
                    h += sortRound(small, h);
                }
                sum.addAndGet(h);
            }, "busy-" + t);
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        System.out.println("busy checksum " + sum.get());
    }

    static long mix(long[] buffer, long seed) {
        long h = seed;
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < buffer.length; i++) {
                h = h * 0x9E3779B97F4A7C15L + i;
                buffer[i] ^= h;
                h ^= h >>> 29;
            }
        }
        return h;
    }

    static long sortRound(int[] small, long seed) {
        long h = seed;
        for (int round = 0; round < 16; round++) {
            for (int i = 0; i < small.length; i++) {
                h = h * 6364136223846793005L + 1442695040888963407L;
                small[i] = (int) (h >>> 33);
            }
            java.util.Arrays.sort(small);
        }
        return h + small[0];
    }
}
