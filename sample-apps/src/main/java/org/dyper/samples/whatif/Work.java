package org.dyper.samples.whatif;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the what-if samples share: a deterministic unit of CPU work, the "k % faster" parameter that really removes
 * k % of one method's work, and the run length (a number of items, or until standard input ends).
 */
public final class Work {
    private Work() {
    }

    /** {@code iterations} steps of a xorshift generator from {@code seed}: pure CPU work with a checkable result. */
    public static long burn(long seed, int iterations) {
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /**
     * The iterations of method {@code name}: {@code base}, or k % fewer when the arguments hold {@code name:k}
     * (the real optimisation a what-if prediction is compared with).
     */
    public static int iterations(String[] args, String name, int base) {
        for (String a : args) {
            if (a.startsWith(name + ":")) {
                int k = Integer.parseInt(a.substring(name.length() + 1));
                if (k < 0 || k > 100) {
                    throw new IllegalArgumentException(name + ": a speed-up is 0 to 100 %, not " + k);
                }
                return (int) ((long) base * (100 - k) / 100);
            }
        }
        return base;
    }

    /**
     * The number of items to process: the first argument; 0 means until standard input ends or says {@code exit}
     * (then {@link #untilStdinEnds} sets the stop flag).
     */
    public static long items(String[] args) {
        return args.length == 0 ? 0 : Long.parseLong(args[0]);
    }

    /** Reads standard input until it ends or a line says {@code exit}, then runs {@code stop}. */
    public static void untilStdinEnds(Runnable stop) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null && !line.trim().equals("exit")) {
                // any other line is ignored
            }
        } catch (java.io.IOException e) {
            // standard input failed: stop as if it ended
        }
        stop.run();
    }

    /** The program's one line of output, then its wall time on stderr. */
    static void report(String program, long items, long checksum, long startNanos) {
        report(program, items, checksum, startNanos, "");
    }

    /** As {@link #report(String, long, long, long)}, with {@code more} at the end of the line. */
    static void report(String program, long items, long checksum, long startNanos, String more) {
        System.out.println(program + " items=" + items + " checksum=" + Long.toHexString(checksum) + more);
        System.err.printf(Locale.ROOT, "%s: %.3f s%n", program, (System.nanoTime() - startNanos) / 1e9);
    }
}
