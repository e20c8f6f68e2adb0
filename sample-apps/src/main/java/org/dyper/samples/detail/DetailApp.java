package org.dyper.samples.detail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The sample for automatic detailing, driven by lines on stdin so a test knows exactly which calls happen when:
 * {@code cool} runs {@value DetailFacts#COOL_CALLS} calls of {@link Cooling#cool(int)} (a phase that then ends: the
 * method cools down); {@code hot} starts a thread that calls {@link Hot#hot(int)} (the hot method, which calls
 * {@link Cheap#cheap(int)} {@value DetailFacts#CHEAP_PER_HOT} times) and {@link Cheap#cheap(int)} itself (a cheap method
 * called very often) until {@code stop}; {@code calls N} makes exactly N calls of {@link Hot#hot(int)} ({@code
 * timed N} too, and prints when it started and how long it took on stderr, for benchmarks/run-detailing);
 * {@code exit} ends. Every line printed depends only on the commands, never on timing, so a monitored run prints what an
 * unmonitored one does.
 */
public final class DetailApp {
    private static volatile boolean spinning;

    private DetailApp() {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Thread spinner = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "cool" -> System.out.println("cool: sum=" + cool());
                case "hot" -> {
                    if (spinner == null) {
                        spinning = true;
                        spinner = new Thread(DetailApp::spin, "detail-spinner");
                        spinner.start();
                    }
                    System.out.println("hot: started");
                }
                case "stop" -> {
                    spinning = false;
                    if (spinner != null) {
                        spinner.join();
                        spinner = null;
                    }
                    System.out.println("hot: stopped");
                }
                case "calls" -> {
                    int n = Integer.parseInt(words[1]);
                    System.out.println("calls " + n + ": sum=" + calls(n));
                }
                case "timed" -> {
                    // the benchmark's run (benchmarks/run-detailing): when it started and how long it took, on stderr
                    int n = Integer.parseInt(words[1]);
                    long start = System.currentTimeMillis();
                    long t0 = System.nanoTime();
                    long sum = calls(n);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    System.out.println("timed " + n + ": sum=" + sum);
                    System.err.println("dyper-bench: start=" + start + " ms=" + ms);
                }
                case "exit" -> {
                    System.out.println("done");
                    return;
                }
                default -> System.out.println("unknown command: " + line);
            }
            System.out.flush();
        }
    }

    /** The cool phase: a fixed number of calls, then the method is not called again. */
    static long cool() {
        long sum = 0;
        for (int i = 0; i < DetailFacts.COOL_CALLS; i++) {
            sum += Cooling.cool(i);
        }
        return sum;
    }

    /** Exactly {@code n} calls of the hot method. */
    static long calls(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Hot.hot(i);
        }
        return sum;
    }

    /** The hot phase: the hot method and the cheap one, until stop. */
    private static void spin() {
        long sink = 0;
        for (int i = 0; spinning; i++) {
            sink += Hot.hot(i);
            for (int k = 0; k < 8; k++) {
                sink += Cheap.cheap(i + k);
            }
        }
        if (sink == 42) {
            System.err.print("");  // keeps the work from being optimised away
        }
    }
}
