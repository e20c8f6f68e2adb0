package org.dyper.samples.contention;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;

/**
 * The planted contended lock. {@link #post(long)} takes the ledger's monitor in a {@code synchronized} block (the
 * planted contended site); {@link #audit(Thread, Runnable)} takes the same monitor and keeps it until the given thread
 * is seen
 * blocked on it, then {@value #HOLD_MS} ms longer, so the blocked thread's wait is milliseconds long, far above any
 * contention threshold.
 */
public final class Ledger {
    /** How long an audit keeps the monitor after the poster is seen blocked on it. */
    public static final long HOLD_MS = 3;

    private long balance;
    private long posts;

    /** Adds {@code amount}: the planted contended site (every call in the planted run waits for an audit). */
    public void post(long amount) {
        synchronized (this) {
            balance += amount;
            posts++;
        }
    }

    /**
     * Takes the ledger's monitor, runs {@code whenHeld} (which lets {@code waiter} go and ask for it), and holds the
     * monitor until {@code waiter} is blocked entering it, then {@value #HOLD_MS} ms more.
     *
     * @return the balance seen under the monitor, before the waiter's post
     */
    public long audit(Thread waiter, Runnable whenHeld) {
        synchronized (this) {
            whenHeld.run();
            awaitBlockedOnThis(waiter);
            try {
                Thread.sleep(HOLD_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("audit interrupted", e);
            }
            return balance;
        }
    }

    /** Polls until {@code waiter} is BLOCKED on this ledger's monitor (not on some other monitor). */
    private void awaitBlockedOnThis(Thread waiter) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int me = System.identityHashCode(this);
        while (true) {
            if (waiter.getState() == Thread.State.BLOCKED) {
                @SuppressWarnings("deprecation")
                ThreadInfo info = mx.getThreadInfo(waiter.getId());
                if (info != null && info.getLockInfo() != null && info.getLockInfo().getIdentityHashCode() == me) {
                    return;
                }
            }
            if (!waiter.isAlive()) {
                throw new IllegalStateException(waiter.getName() + " ended instead of waiting for the ledger");
            }
            Thread.onSpinWait();
        }
    }

    // Read after the threads that post have been joined (join orders their writes before these reads), unlocked so
    // that the ledger's monitor is taken only by post and audit.

    long balance() {
        return balance;
    }

    long posts() {
        return posts;
    }
}
