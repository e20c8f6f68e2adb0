package org.dyper.benchmarks.app;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The process-level overhead benchmark in the MooBench style: {@code warmup} calls of a method recursing to
 * {@code depth}, then {@code batches} batches of {@code batchCalls} calls, each batch timed. Prints one line,
 * {@code MOO ns=<median batch ns per execution> min=<fastest batch> bytes=<bytes allocated per execution while
 * measuring> calls=<all calls> executions=<all monitored executions>}, which the runner reads.
 *
 * <p>Usage: {@code MooMain warmupCalls batches batchCalls depth [wait]}. With {@code wait} it first prints
 * {@code READY} and waits for a line on stdin, so a driver can patch it at run time before it starts.
 */
public final class MooMain {
    static volatile long sink;

    private MooMain() {
    }

    public static void main(String[] args) throws java.io.IOException {
        if (args.length > 4 && args[4].equals("wait")) {
            System.out.println("READY");
            System.out.flush();
            new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8))
                    .readLine();
        }
        long warmup = Long.parseLong(args[0]);
        int batches = Integer.parseInt(args[1]);
        long batchCalls = Long.parseLong(args[2]);
        int depth = Integer.parseInt(args[3]);
        MonitoredClass target = new MonitoredClass();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long acc = 0;
        for (long i = 0; i < warmup; i++) {
            acc += target.monitoredMethod(i, depth);
        }
        double[] ns = new double[batches];
        long bytesBefore = threads.getCurrentThreadAllocatedBytes();
        for (int b = 0; b < batches; b++) {
            long start = System.nanoTime();
            for (long i = 0; i < batchCalls; i++) {
                acc += target.monitoredMethod(i, depth);
            }
            ns[b] = (System.nanoTime() - start) / (double) (batchCalls * depth);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - bytesBefore;
        sink = acc;
        Arrays.sort(ns);
        long calls = warmup + batches * batchCalls;
        System.out.printf(java.util.Locale.ROOT, "MOO ns=%.3f min=%.3f bytes=%.4f calls=%d executions=%d%n",
                ns[batches / 2], ns[0], bytes / (double) (batches * batchCalls * depth), calls, calls * depth);
    }
}
