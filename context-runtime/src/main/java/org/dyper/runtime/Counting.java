package org.dyper.runtime;

import org.dyper.runtime.internal.ThreadData;

/** Counts events per site, exactly across threads; allocation-free and lock-free after a thread's first event. */
public final class Counting {
    private Counting() {
    }

    /** One more event at {@code id}. Never throws. */
    public static void count(int id) {
        try {
            ThreadData.current().count(id);
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }
}
