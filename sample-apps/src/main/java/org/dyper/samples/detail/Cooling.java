package org.dyper.samples.detail;

/** The method that is hot in the first phase and never called after it. */
public final class Cooling {
    private Cooling() {}

    public static long cool(int x) {
        long h = x;
        for (int i = 0; i < DetailFacts.HOT_WORK; i++) {
            h = h * 2862933555777941757L + 3037000493L;
            h ^= h >>> 31;
        }
        return h & 0xffff;
    }
}
