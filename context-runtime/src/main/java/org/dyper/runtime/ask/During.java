package org.dyper.runtime.ask;

/**
 * The {@code during M} flags: per thread, how deep each flagged method is on the stack (an interval containment:
 * recursion counts up and down). One small {@code int[]} per thread, grown once to the highest flag used.
 */
final class During {
    private static final ThreadLocal<int[]> DEPTHS = ThreadLocal.withInitial(() -> new int[8]);

    private During() {
    }

    static void enter(int f) {
        int[] d = DEPTHS.get();
        if (f >= d.length) {
            int[] grown = new int[Math.max(f + 1, d.length * 2)];
            System.arraycopy(d, 0, grown, 0, d.length);
            DEPTHS.set(grown);
            d = grown;
        }
        d[f]++;
    }

    static void exit(int f) {
        int[] d = DEPTHS.get();
        if (f < d.length && d[f] > 0) {
            d[f]--;
        }
    }

    /** Whether the thread is inside a method with flag {@code f}. */
    static boolean on(int f) {
        int[] d = DEPTHS.get();
        return f < d.length && d[f] > 0;
    }
}
