package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.LONGS;
import static org.dyper.runtime.internal.ThreadData.L_ACQUISITIONS;
import static org.dyper.runtime.internal.ThreadData.L_CONTENDED;
import static org.dyper.runtime.internal.ThreadData.L_HOLD;
import static org.dyper.runtime.internal.ThreadData.L_HOLDER;
import static org.dyper.runtime.internal.ThreadData.L_HOLDS;
import static org.dyper.runtime.internal.ThreadData.L_MAX_HOLD;
import static org.dyper.runtime.internal.ThreadData.L_MAX_WAIT;
import static org.dyper.runtime.internal.ThreadData.L_WAIT;
import static org.dyper.runtime.internal.ThreadData.L_WAITER;

import java.util.Arrays;

/**
 * One thread's stack of the monitors it acquired at patched sites and still holds, owner thread only: per hold the
 * acquire time, site, lock class and epoch, so the release can be charged to the acquisition. It survives resets (it
 * mirrors monitors really held); the epoch keeps a hold that began before a reset from being recorded after it. Also
 * the updates of a lock row.
 */
final class HeldLocks {
    private Object[] locks = new Object[8];
    /** Per held lock: acquire time, acquiring site id, lock class index, epoch. */
    private long[] held = new long[8 * 4];
    private int depth;

    /** What the last {@link #pop} found. */
    long start;
    int siteId;
    int classIndex;
    int epoch;
    /** Whether the thread still holds the popped lock through an outer (re-entrant) hold. */
    boolean stillHeld;

    int depth() {
        return depth;
    }

    /** Whether this thread holds {@code lock} through a hold on this stack (then acquiring it again is re-entry). */
    boolean contains(Object lock) {
        for (int k = depth - 1; k >= 0; k--) {
            if (locks[k] == lock) {
                return true;
            }
        }
        return false;
    }

    void push(Object lock, long now, int siteId, int classIndex, int epoch) {
        if (depth == locks.length) {
            dropStale();
            if (depth == locks.length) {
                locks = Arrays.copyOf(locks, locks.length * 2);
                held = Arrays.copyOf(held, held.length * 2);
            }
        }
        int k = depth++;
        locks[k] = lock;
        held[k * 4] = now;
        held[k * 4 + 1] = siteId;
        held[k * 4 + 2] = classIndex;
        held[k * 4 + 3] = epoch;
    }

    /**
     * Pops the hold of {@code lock} (normally the top of the stack) into {@link #start} and following; false when
     * there is none (its acquisition was not recorded: monitoring was switched on in between).
     */
    boolean pop(Object lock) {
        int k = depth - 1;
        while (k >= 0 && locks[k] != lock) {
            k--;
        }
        if (k < 0) {
            return false;
        }
        start = held[k * 4];
        siteId = (int) held[k * 4 + 1];
        classIndex = (int) held[k * 4 + 2];
        epoch = (int) held[k * 4 + 3];
        if (k != depth - 1) {
            // Not the innermost hold: holds above it whose release was missed (monitoring switched off) are dropped;
            // monitors still held (unstructured locking) move down.
            remove(k);
        } else {
            locks[k] = null;
            depth = k;
        }
        stillHeld = contains(lock);
        return true;
    }

    /** Removes hold k, keeping the holds above it whose monitors this thread still owns. */
    private void remove(int k) {
        keepOwned(k + 1, k);
    }

    /** Drops holds of monitors this thread no longer owns (their release was not seen). */
    private void dropStale() {
        keepOwned(0, 0);
    }

    /** Moves the holds from {@code from} up whose monitors this thread still owns down to {@code to}, in order. */
    private void keepOwned(int from, int to) {
        for (int k = from; k < depth; k++) {
            if (Thread.holdsLock(locks[k])) {
                locks[to] = locks[k];
                System.arraycopy(held, k * 4, held, to * 4, 4);
                to++;
            }
        }
        Arrays.fill(locks, to, depth, null);
        depth = to;
    }

    /** One acquisition in a lock row by thread {@code threadId} that waited {@code wait} ns for {@code holder}. */
    static void acquisition(long[] r, long wait, boolean contended, long threadId, long holder) {
        LONGS.setRelease(r, L_ACQUISITIONS, r[L_ACQUISITIONS] + 1);
        LONGS.setRelease(r, L_WAIT, r[L_WAIT] + wait);
        if (contended) {
            LONGS.setRelease(r, L_CONTENDED, r[L_CONTENDED] + 1);
        }
        if (wait > r[L_MAX_WAIT]) {
            LONGS.setRelease(r, L_WAITER, threadId);
            LONGS.setRelease(r, L_HOLDER, holder);
            LONGS.setRelease(r, L_MAX_WAIT, wait);
        }
    }

    /** One hold of {@code hold} ns in a lock row. */
    static void holdTime(long[] r, long hold) {
        LONGS.setRelease(r, L_HOLDS, r[L_HOLDS] + 1);
        LONGS.setRelease(r, L_HOLD, r[L_HOLD] + hold);
        if (hold > r[L_MAX_HOLD]) {
            LONGS.setRelease(r, L_MAX_HOLD, hold);
        }
    }
}
