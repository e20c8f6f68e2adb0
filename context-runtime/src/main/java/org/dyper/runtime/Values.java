package org.dyper.runtime;

import org.dyper.runtime.internal.ThreadData;

/**
 * Summarises values seen at a site: count, sum, min and max of numbers; null and non-null counts of references.
 * Allocation-free and lock-free after a thread's first value at the site. Sums wrap on long overflow.
 */
public final class Values {
    private Values() {
    }

    /** Records {@code value} at {@code id}. Never throws. */
    public static void record(int id, long value) {
        try {
            ThreadData.current().value(id, value);
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /** Records whether {@code value} is null at {@code id}; the reference is not kept. Never throws. */
    public static void recordRef(int id, Object value) {
        try {
            ThreadData.current().reference(id, value);
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }
}
