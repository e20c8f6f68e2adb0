package org.dyper.runtime.monitor.targets;

/** A long-running loop with a planted hot method ({@link #spin}); it stops when its stdin ends. */
public final class LoopTarget {
    static volatile boolean stop;
    static volatile long sink;

    private LoopTarget() {
    }

    public static void main(String[] args) throws Exception {
        Stdin.onEnd("loop-stopper", () -> stop = true);
        System.out.println("loop: started");
        System.out.flush();
        while (!stop) {
            sink += spin(sink);
        }
        System.out.println("loop: stopped");
    }

    static long spin(long seed) {
        long h = seed;
        for (int i = 0; i < 100_000; i++) {
            h = h * 0x9E3779B97F4A7C15L + i;
            h ^= h >>> 29;
        }
        return h;
    }
}
