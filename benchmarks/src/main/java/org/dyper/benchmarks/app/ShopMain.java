package org.dyper.benchmarks.app;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * The program of the question benchmark (benchmarks/run-ask-peers; docs/performance.md, "A question against a
 * hand-written model and Arthas"): {@link Shop#checkout} called from three callers, {@link #web} (twice per
 * iteration), {@link #app} and {@link #batch} (once each), in a tight loop that times itself.
 *
 * <p>Usage: {@code ShopMain WARMUP_MS ROUNDS ROUND_MS [wait]}: a warm-up of WARMUP_MS, then ROUNDS rounds of
 * ROUND_MS, each timed. Prints one line per round, {@code SHOP round=N ns=<ns per checkout call>}, and at the end
 * {@code SHOP ns=<median round> min=<fastest round> bytes=<bytes allocated per call in the timed rounds>
 * calls=<every checkout call, warm-up included> web=<its calls> app=<..> batch=<..> web_over7=<its calls with more
 * than 7 items> app_over7=<..> batch_over7=<..> sum=<checksum>}, which the script compares with what each tool
 * counted. With {@code wait} it first prints {@code READY} and waits for a line on stdin
 * (before any call, so that a tool attached meanwhile sees every call), and at the end prints {@code DONE} and waits
 * for another line before it exits (so that the tool can report its last interval and detach).
 */
public final class ShopMain {
    /**
     * Iterations between two clock reads, 4 calls each: a clock read per 1,024 calls costs nothing next to them, and
     * a round overruns its time by one chunk at most (0.2 s at Arthas's slowest, 200 µs a call).
     */
    private static final int CHUNK = 256;
    private static volatile long sink;

    private ShopMain() {
    }

    /** The first caller. */
    static long web(Shop shop, int items) {
        return shop.checkout(items);
    }

    /** The second caller. */
    static long app(Shop shop, int items) {
        return shop.checkout(items);
    }

    /** The third caller. */
    static long batch(Shop shop, int items) {
        return shop.checkout(items);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: ShopMain WARMUP_MS ROUNDS ROUND_MS [wait]");
            System.exit(2);
        }
        long warmupMs = Long.parseLong(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long roundMs = Long.parseLong(args[2]);
        boolean wait = args.length > 3 && args[3].equals("wait");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Shop shop = new Shop(); // loaded now, so that a tool attached while we wait can patch it
        if (wait) {
            System.out.println("READY");
            System.out.flush();
            in.readLine();
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] sum = {0};
        long iterations = loop(shop, warmupMs * 1_000_000L, sum);
        double[] ns = new double[rounds];
        long bytesBefore = threads.getCurrentThreadAllocatedBytes();
        long timedCalls = 0;
        for (int r = 0; r < rounds; r++) {
            long start = System.nanoTime();
            long n = loop(shop, roundMs * 1_000_000L, sum);
            ns[r] = (System.nanoTime() - start) / (4.0 * n);
            iterations += n;
            timedCalls += 4 * n;
            System.out.printf(Locale.ROOT, "SHOP round=%d ns=%.3f%n", r + 1, ns[r]);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - bytesBefore;
        sink = sum[0];
        double[] sorted = ns.clone();
        Arrays.sort(sorted);
        if (shop.served() != 4 * iterations) {
            throw new IllegalStateException("served " + shop.served() + ", expected " + 4 * iterations);
        }
        long chunks = iterations / CHUNK;
        System.out.printf(Locale.ROOT, "SHOP ns=%.3f min=%.3f bytes=%.3f calls=%d web=%d app=%d batch=%d"
                + " web_over7=%d app_over7=%d batch_over7=%d sum=%d%n", sorted[rounds / 2], sorted[0],
                bytes / (double) Math.max(1, timedCalls), 4 * iterations, 2 * iterations, iterations, iterations,
                chunks * over7(0), chunks * over7(1), chunks * over7(2), sum[0]);
        if (wait) {
            System.out.println("DONE");
            System.out.flush();
            in.readLine();
        }
    }

    /**
     * How many calls of one chunk pass more than 7 items: caller 0 (web), 1 (app) or 2 (batch). The arguments are
     * those of {@link #loop}; the script checks a question's {@code where arg1 > 7} and Arthas's {@code params[0] > 7}
     * against these.
     */
    private static long over7(int caller) {
        long n = 0;
        for (int i = 0; i < CHUNK; i++) {
            switch (caller) {
                case 0 -> n += ((i & 15) > 7 ? 1 : 0) + ((i & 7) > 7 ? 1 : 0);
                case 1 -> n += (i & 3) > 7 ? 1 : 0;
                default -> n += ((i >> 2) & 15) > 7 ? 1 : 0;
            }
        }
        return n;
    }

    /** Calls the callers for at least {@code nanos} ns, in chunks; returns the iterations (4 calls each). */
    private static long loop(Shop shop, long nanos, long[] sum) {
        long start = System.nanoTime();
        long n = 0;
        long acc = 0;
        do {
            for (int i = 0; i < CHUNK; i++) {
                acc += web(shop, i & 15);
                acc += web(shop, i & 7);
                acc += app(shop, i & 3);
                acc += batch(shop, (i >> 2) & 15);
            }
            n += CHUNK;
        } while (System.nanoTime() - start < nanos);
        sum[0] += acc;
        return n;
    }
}
