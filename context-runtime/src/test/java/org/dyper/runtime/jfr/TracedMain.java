package org.dyper.runtime.jfr;

import org.dyper.runtime.Dyper;
import org.dyper.runtime.Sites;
import org.dyper.runtime.Tracing;

/**
 * A planted program for the telemetry tests, run in its own JVM: {@code SLOW} traced calls of 50 ms (above a 20 ms
 * threshold) and {@code FAST} of none, then three user events, then an ending chosen by the first argument
 * ({@code exit}: System.exit(3), {@code throw}: an uncaught exception, {@code oom}: OutOfMemoryError, {@code wait}: wait
 * for stdin to close, else a normal return). Prints {@code traced} when the calls are done, and {@code result 42}.
 */
public final class TracedMain {
    static final int SLOW = 3;
    static final int FAST = 40;

    public static void main(String[] args) throws Exception {
        int slow = Sites.register("METHOD", "planted.Work", "slow", "");
        int fast = Sites.register("METHOD", "planted.Work", "fast", "");
        long sum = 0;
        for (int i = 0; i < SLOW; i++) {
            Object c = Tracing.enter(slow);
            Thread.sleep(50); // planted: a call well above the 20 ms threshold
            Tracing.exit(slow, c);
        }
        for (int i = 0; i < FAST; i++) {
            Object c = Tracing.enter(fast);
            sum += i;
            Tracing.exit(fast, c);
        }
        Dyper.userEvent("first");
        Dyper.userEvent("second");
        Dyper.userEvent("third");
        System.out.println("traced");
        System.out.println("result " + (sum - 738));
        String end = args.length > 0 ? args[0] : "";
        switch (end) {
            case "exit" -> System.exit(3);
            case "throw" -> throw new IllegalStateException("planted");
            case "oom" -> {
                java.util.List<long[]> hog = new java.util.ArrayList<>();
                while (true) {
                    hog.add(new long[1 << 20]);
                }
            }
            case "wait" -> System.in.read();
            default -> {
            }
        }
    }
}
