package org.dyper.runtime;

import org.dyper.runtime.internal.ThreadData;

/**
 * Field watch: counts writes per field and per writing site, and the writes made while the writing thread did not
 * hold the monitor of the field's owner object ({@code Thread.holdsLock(owner)}), which flags shared state written
 * outside its lock. A null owner is a static field: such writes count as "no owner", neither locked nor unlocked.
 * The last {@value ThreadData#RING} writes of each field are kept in the order they were made, across threads, with
 * old and new value, thread and whether the lock was held. Exact across threads; allocation-free and lock-free after
 * a thread's first write of a field and at a site (the order is one atomic increment of a shared sequence).
 */
public final class Fields {
    private Fields() {
    }

    /**
     * One write of the numeric field {@code fieldId} of {@code owner} (null for a static field) at {@code siteId},
     * from {@code oldValue} to {@code newValue}: narrower types widened, {@code boolean} as 0/1, {@code char} as its
     * code, {@code float}/{@code double} as raw bits. Never throws.
     */
    public static void write(int siteId, int fieldId, Object owner, long oldValue, long newValue) {
        try {
            long flags = owner == null ? ThreadData.W_NO_OWNER : Thread.holdsLock(owner) ? ThreadData.W_LOCKED : 0;
            ThreadData.current().fieldWrite(siteId, fieldId, flags, oldValue, newValue);
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }

    /**
     * One write of the reference field {@code fieldId}; the objects are not kept, only whether each is null and its
     * identity hash. Otherwise like {@link #write}. Never throws.
     */
    public static void writeRef(int siteId, int fieldId, Object owner, Object oldValue, Object newValue) {
        try {
            long flags = ThreadData.W_REF
                    | (owner == null ? ThreadData.W_NO_OWNER : Thread.holdsLock(owner) ? ThreadData.W_LOCKED : 0)
                    | (oldValue == null ? ThreadData.W_OLD_NULL : 0)
                    | (newValue == null ? ThreadData.W_NEW_NULL : 0);
            ThreadData.current().fieldWrite(siteId, fieldId, flags, System.identityHashCode(oldValue),
                    System.identityHashCode(newValue));
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }
}
