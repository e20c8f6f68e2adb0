package org.dyper.runtime.monitor.targets;

/**
 * A program that allocates all the time (a ring of 64 KiB arrays, about 4 MiB live), so memory the monitor takes
 * from a small heap shows up as an OutOfMemoryError in {@code main}; it stops when its stdin ends.
 */
public final class AllocatingTarget {
    static volatile boolean stop;

    private AllocatingTarget() {
    }

    public static void main(String[] args) throws Exception {
        Stdin.onEnd("alloc-stopper", () -> stop = true);
        System.out.println("alloc: started");
        System.out.flush();
        byte[][] ring = new byte[64][];
        long rounds = 0;
        while (!stop) {
            ring[(int) (rounds++ & 63)] = new byte[64 << 10];
            if ((rounds & 1023) == 0) {
                Thread.sleep(1); // planted: the program pauses now and then, so it does not take a whole core
            }
        }
        System.out.println("alloc: stopped");
    }
}
