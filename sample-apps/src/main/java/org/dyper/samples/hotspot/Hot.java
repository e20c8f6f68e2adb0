package org.dyper.samples.hotspot;

/** The hot method: a loop of arithmetic that makes {@link HotspotFacts#MIX_CALLS} calls of {@link #mix} per call. */
public final class Hot {
    private static volatile long sunk;

    private Hot() {
    }

    public static long work(int seed) {
        long x = seed;
        for (int k = 0; k < HotspotFacts.MIX_CALLS; k++) {
            x = mix(x);
        }
        for (int k = 0; k < 20_000; k++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }

    static long mix(long x) {
        return Long.rotateLeft(x * 0x9E3779B97F4A7C15L, 17);
    }

    static void sink(long v) {
        sunk += v;
    }
}
