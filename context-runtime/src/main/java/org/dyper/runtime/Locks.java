package org.dyper.runtime;

import org.dyper.runtime.internal.LockClasses;
import org.dyper.runtime.internal.ThreadData;

/**
 * Lock contention, called around every monitor acquisition and release in patched code: {@link #request} before
 * the monitor is requested (SYNC_TEST), {@link #acquired} once it is held (SYNC_ENTER), {@link #released} before
 * it is released (SYNC_EXIT, including the release when an exception leaves the block). Per lock site and per lock
 * class it keeps acquisitions, contended acquisitions (a wait longer than {@code dyper.lock.contended.ns}, default
 * 20,000 ns, read once), total and max wait, total and max hold, and for the longest wait the waiting and the
 * holding thread. Allocation-free and lock-free after a thread's first acquisition at a site and of a lock class.
 *
 * <p>The holder is a best-effort name: a fixed table indexed by the lock's identity hash records who acquired a
 * monitor last; locks whose hashes share a slot overwrite each other, and then the holder is unknown. A wait is
 * counted only where that table named another thread as the holder when the monitor was requested: a re-entrant
 * acquisition, a free monitor and a monitor of unknown holder wait 0. Every count and time is exact.
 */
public final class Locks {
    private Locks() {
    }

    /**
     * Before the monitor of {@code lock} is requested. Remembers who holds it now, if known, and returns
     * {@code System.nanoTime()} as the context for {@link #acquired}. A null {@code lock} is not looked up (the
     * {@code monitorenter} will throw). Never throws.
     */
    public static long request(int siteId, Object lock) {
        if (lock != null) {
            try {
                ThreadData.current().lockRequested(lock);
            } catch (Throwable t) {
                Dyper.hookFailed(siteId, t);
            }
        }
        return System.nanoTime();
    }

    /**
     * The monitor of {@code lock} is now held; {@code requestTime} is what {@link #request} returned. Records one
     * acquisition that waited {@code now - requestTime} ns (negative taken as 0) at {@code siteId} and at the lock's
     * class, makes this thread the lock's holder, and starts its hold time. Never throws.
     */
    public static void acquired(int siteId, Object lock, long requestTime) {
        long now = System.nanoTime();
        if (lock == null) {
            return;
        }
        try {
            ThreadData.current().lockAcquired(siteId, lock, LockClasses.index(lock.getClass()), now - requestTime,
                    now);
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }

    /**
     * The monitor of {@code lock} is about to be released: records the hold time since the matching
     * {@link #acquired} at the site that acquired it and at the lock's class. A release whose acquisition was not
     * recorded (monitoring was switched on meanwhile) records nothing. Never throws.
     */
    public static void released(int siteId, Object lock) {
        long now = System.nanoTime();
        if (lock == null) {
            return;
        }
        try {
            ThreadData.current().lockReleased(lock, now);
        } catch (Throwable t) {
            Dyper.hookFailed(siteId, t);
        }
    }
}
