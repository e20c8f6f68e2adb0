package org.dyper.samples.detail;

/** The hot method: a few tens of microseconds of arithmetic per call, and {@value DetailFacts#CHEAP_PER_HOT} calls of the cheap method. */
public final class Hot {
    private Hot() {}

    public static long hot(int x) {
        long h = x;
        for (int i = 0; i < DetailFacts.HOT_WORK; i++) {
            h = h * 6364136223846793005L + i;
            h ^= h >>> 29;
        }
        for (int k = 0; k < DetailFacts.CHEAP_PER_HOT; k++) {
            h += Cheap.cheap((int) h + k);
        }
        return h & 0xffff;
    }
}
