package org.dyper.runtime;

import org.dyper.runtime.internal.ThreadData;

/**
 * Objects and arrays allocated, per allocating site and per allocated type (both ids from the site table: the site
 * a METHOD, the type a CLASS or TYPE such as {@code int[]}). Exact across threads; allocation-free and lock-free after
 * a thread's first allocation at a site and of a type.
 */
public final class Allocations {
    private Allocations() {
    }

    /** One object of type {@code classId} allocated in the method {@code siteId}. Never throws. */
    public static void object(int siteId, int classId) {
        try {
            ThreadData.current().allocation(siteId, classId);
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }

    /**
     * One array of type {@code classId} (e.g. {@code int[]}, {@code java.lang.String[][]}) with first dimension
     * {@code length} (negative taken as 0) allocated in the method {@code siteId}: count, total and max length.
     * Never throws.
     */
    public static void array(int siteId, int classId, int length) {
        try {
            ThreadData.current().arrayAllocation(siteId, classId, length);
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }
}
