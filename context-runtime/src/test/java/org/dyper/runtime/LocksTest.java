package org.dyper.runtime;

import static org.dyper.runtime.internal.ThreadData.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.dyper.runtime.internal.Failures;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.ThreadData;
import org.dyper.runtime.internal.Totals;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Lock contention: exact acquisitions and holds, a planted contended wait with its waiter and holder, the stack. */
class LocksTest {
    static final int HOLDER_SITE = 71_001;
    static final int WAITER_SITE = 71_002;
    static final int SITE = 71_003;
    static final int INNER_SITE = 71_004;
    /** How long the holder keeps the lock once the waiter is blocked on it: far above the 20 µs threshold. */
    static final long PLANTED_HOLD_MS = 5;

    /** Lock classes of their own per test, so per-class rows are not shared with other tests. */
    static final class Ledger {
    }

    static final class Uncontended {
    }

    static final class Outer {
    }

    static final class Inner {
    }

    @BeforeEach
    void reset() {
        Dyper.reset();
    }

    /** What generated code does around a {@code synchronized} block (SYNC_TEST, SYNC_ENTER, SYNC_EXIT). */
    static void locked(int site, Object lock, Runnable body) {
        long requested = Locks.request(site, lock);
        synchronized (lock) {
            Locks.acquired(site, lock, requested);
            try {
                body.run();
            } finally {
                Locks.released(site, lock);
            }
        }
    }

    /** Waits (a minute at most) until {@code thread} is blocked entering the monitor of {@code lock}. */
    static void awaitBlockedOn(Thread thread, Object lock) {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        Await.until(thread.getName() + " blocked on " + lock, () -> mx.getThreadInfo(thread.getId()),
                info -> info != null && info.getThreadState() == Thread.State.BLOCKED && info.getLockInfo() != null
                        && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(lock),
                Await.MINUTE);
    }

    @Test
    void aPlantedContendedAcquisitionNamesTheWaiterAndTheHolder() throws Exception {
        Ledger ledger = new Ledger();
        CountDownLatch held = new CountDownLatch(1);
        AtomicReference<Thread> waiterRef = new AtomicReference<>();
        Thread holder = new Thread(() -> locked(HOLDER_SITE, ledger, () -> {
            held.countDown();
            while (waiterRef.get() == null) {
                Thread.onSpinWait();
            }
            awaitBlockedOn(waiterRef.get(), ledger);
            sleep(PLANTED_HOLD_MS);
        }), "ledger-holder");
        Thread waiter = new Thread(() -> {
            await(held);
            locked(WAITER_SITE, ledger, () -> { });
        }, "ledger-waiter");
        holder.start();
        waiter.start();
        waiterRef.set(waiter);
        holder.join();
        waiter.join();

        Totals t = Registry.snapshot();
        long[] w = t.lockSite(WAITER_SITE);
        assertEquals(1, w[L_ACQUISITIONS]);
        assertEquals(1, w[L_CONTENDED]);
        assertEquals(1, w[L_HOLDS]);
        assertTrue(w[L_MAX_WAIT] >= PLANTED_HOLD_MS * 1_000_000, "waited " + w[L_MAX_WAIT] + " ns");
        assertEquals(w[L_MAX_WAIT], w[L_WAIT]);
        assertEquals("ledger-waiter", t.threadName(w[L_WAITER]));
        assertEquals("ledger-holder", t.threadName(w[L_HOLDER]));

        long[] h = t.lockSite(HOLDER_SITE);
        assertEquals(1, h[L_ACQUISITIONS]);
        assertEquals(1, h[L_HOLDS]);
        assertTrue(h[L_MAX_HOLD] >= PLANTED_HOLD_MS * 1_000_000, "held " + h[L_MAX_HOLD] + " ns");

        long[] c = t.lockClass(Ledger.class);
        assertEquals(2, c[L_ACQUISITIONS]);
        assertEquals(2, c[L_HOLDS]);
        assertTrue(c[L_CONTENDED] >= 1);
        assertEquals(w[L_MAX_WAIT], c[L_MAX_WAIT]);
        assertEquals("ledger-waiter", t.threadName(c[L_WAITER]));
        assertEquals("ledger-holder", t.threadName(c[L_HOLDER]));
        assertEquals(h[L_HOLD] + w[L_HOLD], c[L_HOLD]);
    }

    @Test
    void noWaitIsCountedForAFreeMonitorOrForReentryHoweverLongTheHooksAreApart() {
        Ledger ledger = new Ledger();
        // a free monitor, the thread paused between the two hooks (as a collection or the scheduler would pause it)
        long requested = Locks.request(SITE, ledger);
        sleep(2);
        synchronized (ledger) {
            Locks.acquired(SITE, ledger, requested);
            // re-entry, paused too: the monitor is this thread's own
            long again = Locks.request(INNER_SITE, ledger);
            sleep(2);
            synchronized (ledger) {
                Locks.acquired(INNER_SITE, ledger, again);
                Locks.released(INNER_SITE, ledger);
            }
            Locks.released(SITE, ledger);
        }
        Totals t = Registry.snapshot();
        long[] byClass = t.lockClass(Ledger.class);
        for (long[] r : List.of(t.lockSite(SITE), t.lockSite(INNER_SITE), byClass)) {
            assertEquals(List.of(0L, 0L, 0L, 0L, 0L), List.of(r[L_CONTENDED], r[L_WAIT], r[L_MAX_WAIT], r[L_WAITER],
                    r[L_HOLDER]), "no wait, no waiter, no holder");
            assertEquals(r == byClass ? 2 : 1, r[L_ACQUISITIONS]);
        }
        assertTrue(t.lockSite(SITE)[L_HOLD] >= 2_000_000, "the outer hold spans the inner pause");
    }

    @Test
    void acquisitionsAreExactAcrossThreads() throws Exception {
        int threads = 4;
        int acquisitions = 10_000;
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Uncontended own = new Uncontended();
            workers.add(new Thread(() -> {
                for (int k = 0; k < acquisitions; k++) {
                    locked(SITE, own, () -> { });
                }
                assertEquals(0, ThreadData.current().holdDepth());
            }, "uncontended-" + i));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        for (Totals t : List.of(Registry.snapshot(), Registry.snapshot())) {
            long[] s = t.lockSite(SITE);
            assertEquals((long) threads * acquisitions, s[L_ACQUISITIONS]);
            assertEquals((long) threads * acquisitions, s[L_HOLDS]);
            long[] c = t.lockClass(Uncontended.class);
            assertEquals((long) threads * acquisitions, c[L_ACQUISITIONS]);
            assertEquals((long) threads * acquisitions, c[L_HOLDS]);
            assertEquals(s[L_WAIT], c[L_WAIT]);
        }
    }

    @Test
    void holdStackStaysBalancedThroughNestingReentryAndExceptions() {
        Outer outer = new Outer();
        Inner inner = new Inner();
        ThreadData data = ThreadData.current();
        for (int i = 0; i < 3; i++) {
            locked(SITE, outer, () -> locked(INNER_SITE, inner, () -> locked(INNER_SITE, outer, () -> {
                assertEquals(3, ThreadData.current().holdDepth());
            })));
        }
        assertEquals(0, data.holdDepth());
        for (int i = 0; i < 5; i++) {
            assertThrows(IllegalStateException.class, () -> locked(SITE, outer, () -> locked(INNER_SITE, inner, () -> {
                throw new IllegalStateException("leaves both blocks");
            })));
            assertEquals(0, data.holdDepth());
        }
        Totals t = Registry.snapshot();
        assertEquals(8, t.lockSite(SITE)[L_ACQUISITIONS]);
        assertEquals(8, t.lockSite(SITE)[L_HOLDS]);
        assertEquals(11, t.lockSite(INNER_SITE)[L_ACQUISITIONS]);
        assertEquals(11, t.lockSite(INNER_SITE)[L_HOLDS]);
        assertEquals(11, t.lockClass(Outer.class)[L_ACQUISITIONS]);
        assertEquals(8, t.lockClass(Inner.class)[L_HOLDS]);
        assertEquals(0, Failures.count(SITE) + Failures.count(INNER_SITE));
    }

    @Test
    void theOuterHoldOfAReentrantLockKeepsItsHolderRecord() throws Exception {
        Ledger ledger = new Ledger();
        CountDownLatch innerReleased = new CountDownLatch(1);
        AtomicReference<Thread> waiterRef = new AtomicReference<>();
        Thread holder = new Thread(() -> locked(HOLDER_SITE, ledger, () -> {
            locked(HOLDER_SITE, ledger, () -> { });
            innerReleased.countDown();
            while (waiterRef.get() == null) {
                Thread.onSpinWait();
            }
            awaitBlockedOn(waiterRef.get(), ledger);
            sleep(PLANTED_HOLD_MS);
        }), "reentrant-holder");
        Thread waiter = new Thread(() -> {
            await(innerReleased);
            locked(WAITER_SITE, ledger, () -> { });
        }, "reentrant-waiter");
        holder.start();
        waiter.start();
        waiterRef.set(waiter);
        holder.join();
        waiter.join();
        Totals t = Registry.snapshot();
        assertEquals(2, t.lockSite(HOLDER_SITE)[L_HOLDS]);
        assertEquals("reentrant-holder", t.threadName(t.lockSite(WAITER_SITE)[L_HOLDER]));
    }

    @Test
    void missedReleasesDoNotUnbalanceTheStack() {
        Outer outer = new Outer();
        Inner inner = new Inner();
        ThreadData data = ThreadData.current();
        long requested = Locks.request(SITE, outer);
        synchronized (outer) {
            Locks.acquired(SITE, outer, requested);
            synchronized (inner) {
                // monitoring was switched off before this release: SYNC_EXIT of inner never reached the runtime
                Locks.acquired(INNER_SITE, inner, Locks.request(INNER_SITE, inner));
            }
            assertEquals(2, data.holdDepth());
            Locks.released(SITE, outer);
        }
        assertEquals(0, data.holdDepth());
        // a release whose acquisition was never seen records nothing
        synchronized (inner) {
            Locks.released(INNER_SITE, inner);
        }
        Totals t = Registry.snapshot();
        assertEquals(1, t.lockSite(SITE)[L_HOLDS]);
        assertEquals(0, t.lockSite(INNER_SITE)[L_HOLDS]);
        assertEquals(1, t.lockSite(INNER_SITE)[L_ACQUISITIONS]);
    }

    @Test
    void nullLocksAndResetsAreHarmless() {
        long requested = Locks.request(SITE, null);
        Locks.acquired(SITE, null, requested);
        Locks.released(SITE, null);
        assertNull(Registry.snapshot().lockSite(SITE));
        Outer outer = new Outer();
        long r = Locks.request(SITE, outer);
        synchronized (outer) {
            Locks.acquired(SITE, outer, r);
            Dyper.reset();
            Locks.released(SITE, outer);
        }
        assertNull(Registry.snapshot().lockSite(SITE), "a hold that began before the reset is not recorded");
        assertEquals(0, ThreadData.current().holdDepth());
        assertEquals(0, Failures.count(SITE));
    }

    /** A planted pause: a lock held on purpose, or a thread paused between two hooks as the scheduler would. */
    static void sleep(long ms) {
        try {
            Thread.sleep(ms); // planted: the pause is what the caller tests
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
