package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.E_FLAGS;
import static org.dyper.runtime.internal.ThreadData.E_LENGTH;
import static org.dyper.runtime.internal.ThreadData.E_NEW;
import static org.dyper.runtime.internal.ThreadData.E_OLD;
import static org.dyper.runtime.internal.ThreadData.E_SEQ;
import static org.dyper.runtime.internal.ThreadData.E_THREAD;
import static org.dyper.runtime.internal.ThreadData.FIELDS;
import static org.dyper.runtime.internal.ThreadData.FIELD_SITES;
import static org.dyper.runtime.internal.ThreadData.F_NEXT;
import static org.dyper.runtime.internal.ThreadData.F_NO_OWNER;
import static org.dyper.runtime.internal.ThreadData.F_RING;
import static org.dyper.runtime.internal.ThreadData.F_UNLOCKED;
import static org.dyper.runtime.internal.ThreadData.F_WRITES;
import static org.dyper.runtime.internal.ThreadData.LONGS;
import static org.dyper.runtime.internal.ThreadData.RING;
import static org.dyper.runtime.internal.ThreadData.W_LOCKED;
import static org.dyper.runtime.internal.ThreadData.W_NO_OWNER;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** The field-write agent's recording into a thread's slab: counts per field and site, and each field's last writes. */
final class FieldWrites {
    private static final VarHandle SEQUENCE;

    static {
        try {
            SEQUENCE = MethodHandles.lookup().findStaticVarHandle(FieldWrites.class, "sequence", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Global order of field writes across threads, so the merged ring shows the last writes in the order made. */
    @SuppressWarnings("unused")
    private static volatile long sequence;

    private FieldWrites() {
    }

    /**
     * One write of field {@code fieldId} at site {@code siteId}; {@code flags} are {@link ThreadData#W_LOCKED} and following.
     * The ring entry is written seqlock-style (sequence cleared, values, then the new sequence) so a reader can tell
     * a torn entry and skip it.
     */
    static void record(ThreadData d, int siteId, int fieldId, long flags, long oldValue, long newValue) {
        boolean noOwner = (flags & W_NO_OWNER) != 0;
        boolean unlocked = !noOwner && (flags & W_LOCKED) == 0;
        long[] s = d.row(FIELD_SITES, siteId);
        if (s != null) {
            writeCounts(s, unlocked, noOwner);
        }
        long[] f = d.row(FIELDS, fieldId);
        if (f == null) {
            return;
        }
        writeCounts(f, unlocked, noOwner);
        long seq = (long) SEQUENCE.getAndAdd(1L) + 1;
        int slot = (int) f[F_NEXT];
        f[F_NEXT] = (slot + 1) & (RING - 1);
        int base = F_RING + slot * E_LENGTH;
        LONGS.setRelease(f, base + E_SEQ, 0L);
        LONGS.setRelease(f, base + E_OLD, oldValue);
        LONGS.setRelease(f, base + E_NEW, newValue);
        LONGS.setRelease(f, base + E_FLAGS, flags);
        LONGS.setRelease(f, base + E_THREAD, d.threadId);
        LONGS.setRelease(f, base + E_SEQ, seq);
    }

    private static void writeCounts(long[] r, boolean unlocked, boolean noOwner) {
        LONGS.setRelease(r, F_WRITES, r[F_WRITES] + 1);
        if (unlocked) {
            LONGS.setRelease(r, F_UNLOCKED, r[F_UNLOCKED] + 1);
        } else if (noOwner) {
            LONGS.setRelease(r, F_NO_OWNER, r[F_NO_OWNER] + 1);
        }
    }
}
