package org.dyper.patch.gentest;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Mode methods that check that every EXIT gets the context of its own ENTER: each ENTER hands out a fresh token and
 * pushes it on a stack of this thread; each EXIT pops and compares. A context that reaches the wrong EXIT (or an EXIT
 * without its ENTER) is a mismatch.
 */
public final class InFlight {
    public static final AtomicLong ENTERS = new AtomicLong();
    public static final AtomicLong EXITS = new AtomicLong();
    public static final AtomicLong MISMATCHES = new AtomicLong();
    private static final ThreadLocal<long[]> STACK = ThreadLocal.withInitial(() -> new long[1024]);
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private static final AtomicLong NEXT = new AtomicLong(1);

    private InFlight() {}

    public static long in(int id) {
        long token = NEXT.getAndIncrement();
        int[] d = DEPTH.get();
        STACK.get()[d[0]++] = token;
        ENTERS.incrementAndGet();
        return token;
    }

    public static void out(int id, long token) {
        EXITS.incrementAndGet();
        int[] d = DEPTH.get();
        if (d[0] == 0 || STACK.get()[--d[0]] != token) {
            MISMATCHES.incrementAndGet();
        }
    }
}
