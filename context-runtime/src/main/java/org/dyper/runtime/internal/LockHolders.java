package org.dyper.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Best-effort answer to "which thread holds this monitor now", for naming the holder of a contended lock. A fixed
 * table of {@value #SLOTS} slots indexed by the lock's identity hash; each slot packs the holder's thread id and the
 * full identity hash into one long, written when a monitor is acquired and cleared when it is released, so a reader
 * never sees a hash of one lock with the holder of another. Two locks whose hashes share a slot overwrite each other
 * (the later acquisition wins, and either release may clear the slot): then the holder is unknown, never wrong in a
 * way that names a thread that did not hold a lock with that identity hash at some point.
 */
public final class LockHolders {
    static final int SLOTS = 4096;
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long[] TABLE = new long[SLOTS];

    private LockHolders() {
    }

    /** The id of the thread recorded as holding a monitor with identity hash {@code hash}, or 0 if unknown. */
    static long holder(int hash) {
        long e = (long) LONGS.getAcquire(TABLE, hash & (SLOTS - 1));
        return e != 0 && (int) e == hash ? e >>> 32 : 0;
    }

    static void hold(int hash, long threadId) {
        LONGS.setRelease(TABLE, hash & (SLOTS - 1), entry(hash, threadId));
    }

    /** Clears the slot only if it still says this thread holds this monitor (a colliding lock may own it now). */
    static void release(int hash, long threadId) {
        int slot = hash & (SLOTS - 1);
        long mine = entry(hash, threadId);
        if ((long) LONGS.getAcquire(TABLE, slot) == mine) {
            LONGS.compareAndSet(TABLE, slot, mine, 0L);
        }
    }

    /** Thread ids are positive and far below 2^31 in practice; the id takes the upper half, the hash the lower. */
    private static long entry(int hash, long threadId) {
        return threadId << 32 | (hash & 0xFFFF_FFFFL);
    }
}
