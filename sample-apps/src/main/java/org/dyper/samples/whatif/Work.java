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
     * {@code burn(seed, iterations)} for any seed without doing the work: one xorshift step is linear over GF(2)^64,
     * so {@code iterations} steps are one 64 x 64 bit matrix, found by squaring (about 6,000 matrix-vector steps for a
     * million iterations) and then applied to a value in 64 steps. The checksums use it, so that a test checks a run's
     * output in microseconds per item instead of redoing the run's work.
     */
    public static final class Jump {
        /** Column j: the image of bit j. */
        private final long[] columns;

        private Jump(long[] columns) {
            this.columns = columns;
        }

        /** The same value as {@link Work#burn(long, int) burn(seed, iterations)}. */
        public long burn(long seed) {
            return apply(columns, seed * 0x9E3779B97F4A7C15L + 1);
        }

        private static long apply(long[] columns, long x) {
            long y = 0;
            for (int j = 0; j < 64; j++) {
                if ((x >>> j & 1) != 0) {
                    y ^= columns[j];
                }
            }
            return y;
        }
    }

    /** The {@link Jump} of {@code iterations} xorshift steps. */
    public static Jump jump(int iterations) {
        long[] power = new long[64];
        long[] step = new long[64];
        for (int j = 0; j < 64; j++) {
            power[j] = 1L << j;
            long x = 1L << j;
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            step[j] = x;
        }
        for (int n = iterations; n > 0; n >>>= 1) {
            if ((n & 1) != 0) {
                power = compose(step, power);
            }
            step = compose(step, step);
        }
        return new Jump(power);
    }

    /** The matrix of {@code a} after {@code b}. */
    private static long[] compose(long[] a, long[] b) {
        long[] c = new long[64];
        for (int j = 0; j < 64; j++) {
            c[j] = Jump.apply(a, b[j]);
        }
        return c;
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
