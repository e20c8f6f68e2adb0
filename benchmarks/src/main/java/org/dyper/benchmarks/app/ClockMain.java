package org.dyper.benchmarks.app;

import java.util.Arrays;

/**
 * The cost of one {@code System.nanoTime()} on this machine, measured like {@link MooMain} (warm-up, then timed
 * batches, median batch) so the floor of exact timing comes from the same interleaved rounds. Prints
 * {@code MOO ns=<median ns per call> min=<fastest batch> bytes=0 calls=<calls> executions=<calls>}.
 * Usage: {@code ClockMain warmupCalls batches batchCalls}.
 */
public final class ClockMain {
    static volatile long sink;

    private ClockMain() {
    }

    public static void main(String[] args) {
        long warmup = Long.parseLong(args[0]);
        int batches = Integer.parseInt(args[1]);
        long batchCalls = Long.parseLong(args[2]);
        long acc = 0;
        for (long i = 0; i < warmup; i++) {
            acc += System.nanoTime();
        }
        double[] ns = new double[batches];
        for (int b = 0; b < batches; b++) {
            long start = System.nanoTime();
            for (long i = 0; i < batchCalls; i++) {
                acc ^= System.nanoTime();
            }
            ns[b] = (System.nanoTime() - start) / (double) batchCalls;
        }
        sink = acc;
        Arrays.sort(ns);
        long calls = warmup + batches * batchCalls;
        System.out.printf(java.util.Locale.ROOT, "MOO ns=%.3f min=%.3f bytes=0 calls=%d executions=%d%n",
                ns[batches / 2], ns[0], calls, calls);
    }
}
