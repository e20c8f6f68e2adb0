package org.dyper.runtime;

import org.dyper.runtime.internal.OwnerCells;
import org.dyper.runtime.internal.ThreadData;

/**
 * Counts events per site, and calls per called method at call sites, exactly across threads; allocation-free and
 * lock-free after a thread's first event at an id. The two are kept apart: {@link #count} and {@link #countCall} on
 * the same id never add up.
 */
public final class Counting {
    private Counting() {
    }

    /** One more event at {@code id}. Never throws. */
    public static void count(int id) {
        try {
            // the owner fast path (see OwnerCells): with a constant id the range and bounds checks fold away
            if (id >= 0 && id < OwnerCells.FAST_IDS && OwnerCells.COUNT_OWNER[id] == Thread.currentThread()) {
                OwnerCells.countOwned(id);
            } else {
                OwnerCells.countSlow(id);
            }
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /**
     * One more call of the method {@code calleeId}, counted at a call site (reported in the Calls section, apart from
     * {@link #count}). Never throws.
     */
    public static void countCall(int calleeId) {
        try {
            ThreadData.current().countCall(calleeId);
        } catch (Throwable t) {
            Dyper.hookFailed(calleeId, t);
        }
    }
}
