package org.dyper.runtime.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Element;

/** The what-if hooks: who adds delay, who pays it, who is credited, and what is never done. */
class WhatIfTest {
    static final int CANDIDATE = 5;
    static final int OTHER = 6;

    @AfterEach
    void stop() {
        WhatIf.stop();
    }

    /** Spins on the CPU for at least {@code nanos} (the planted work of a candidate). */
    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /** Runs the candidate on this thread for at least {@code nanos}; returns the global delay it added. */
    static long runCandidate(long nanos) {
        long before = WhatIf.globalDelay();
        long ctx = WhatIf.enter(CANDIDATE);
        spin(nanos);
        WhatIf.exit(CANDIDATE, ctx);
        return WhatIf.globalDelay() - before;
    }

    @Test
    void withoutAnExperimentTheHooksDoNothing() {
        long delay = WhatIf.globalDelay();
        long parks = WhatIf.PARKS.get();
        long ctx = WhatIf.enter(CANDIDATE);
        assertEquals(0, ctx);
        spin(1_000_000);
        WhatIf.exit(CANDIDATE, ctx);
        assertEquals(delay, WhatIf.globalDelay());
        assertEquals(parks, WhatIf.PARKS.get());
    }

    @ParameterizedTest
    @CsvSource({"0", "10", "50", "100"})
    void theCandidateAddsItsShareOfItsOwnTime(int speedup) {
        WhatIf.start(CANDIDATE, speedup);
        long t0 = System.nanoTime();
        long added = runCandidate(20_000_000);
        long outer = System.nanoTime() - t0;
        // the call lasted at least 20 ms and at most the outer measurement
        assertTrue(added >= 20_000_000L * speedup / 100, "added " + added);
        assertTrue(added <= outer * speedup / 100, "added " + added + " of " + outer);
    }

    @Test
    void nestedCallsOfTheCandidateCountOnce() {
        WhatIf.start(CANDIDATE, 50);
        long calls = WhatIf.CANDIDATE_CALLS.get();
        long outer = WhatIf.enter(CANDIDATE);
        long inner = WhatIf.enter(CANDIDATE);
        assertEquals(1, inner);
        spin(2_000_000);
        WhatIf.exit(CANDIDATE, inner);
        WhatIf.exit(CANDIDATE, outer);
        assertEquals(calls + 1, WhatIf.CANDIDATE_CALLS.get());
    }

    @Test
    void theThreadRunningTheCandidateDoesNotPayForIt() {
        WhatIf.start(CANDIDATE, 100);
        long parks = WhatIf.PARKS.get();
        assertTrue(runCandidate(5_000_000) >= 5_000_000);
        assertEquals(0, WhatIf.enter(OTHER));
        assertEquals(parks, WhatIf.PARKS.get());
    }

    @Test
    void aRunningThreadPaysAtItsNextDelayPoint() throws Exception {
        WhatIf.start(CANDIDATE, 100);
        CountDownLatch joined = new CountDownLatch(1);
        CountDownLatch added = new CountDownLatch(1);
        AtomicLong paid = new AtomicLong();
        AtomicLong owed = new AtomicLong();
        Thread other = new Thread(() -> {
            WhatIf.enter(OTHER); // joins the experiment owing nothing
            Slot me = Slot.current();
            long start = me.paid;
            joined.countDown();
            // stays on the CPU while the candidate runs elsewhere (planted: a busy thread)
            while (added.getCount() > 0) {
                Thread.onSpinWait();
            }
            owed.set(WhatIf.globalDelay() - start);
            WhatIf.enter(OTHER);
            paid.set(me.paid - start);
        });
        other.start();
        joined.await();
        long delay = runCandidate(20_000_000);
        added.countDown();
        other.join();
        assertTrue(owed.get() >= delay, "owed " + owed + " of " + delay);
        // it was never blocked, so nothing is credited: it sleeps what it owes (parkNanos may return a little early)
        assertTrue(paid.get() > owed.get() - WhatIf.MIN_PARK_NS, "paid " + paid + " of " + owed);
    }

    /**
     * Coz's rule: a thread blocked on an object is credited with the delay that accrued while it was blocked as far as
     * the thread that released that object had paid it (here the candidate's own thread, which paid by adding it), and
     * sleeps nothing; blocked on an object nobody released (a timer, say), it is credited nothing and pays it all.
     */
    @ParameterizedTest
    @CsvSource({"true", "false"})
    void aBlockedThreadIsCreditedOnlyWhatItsWakerPaid(boolean released) throws Exception {
        Object lock = new Object();
        Object other = new Object();
        while (WhatIf.bucket(other) == WhatIf.bucket(lock)) {
            other = new Object();
        }
        Object blockedOn = released ? lock : other;
        WhatIf.start(CANDIDATE, 100);
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicLong owed = new AtomicLong(-1);
        AtomicLong credited = new AtomicLong(-1);
        AtomicLong slept = new AtomicLong(-1);
        Thread waiter = new Thread(() -> {
            long ctx = WhatIf.block(OTHER, blockedOn); // joins owing nothing
            Slot me = Slot.current();
            long start = me.paid;
            blocked.countDown();
            try {
                go.await(); // blocked while the candidate runs
            } catch (InterruptedException e) {
                return;
            }
            owed.set(WhatIf.globalDelay() - start);
            long before = WhatIf.PARKED_NS.get();
            WhatIf.woken(OTHER, blockedOn, ctx);
            credited.set(me.paid - start);
            WhatIf.enter(OTHER);
            slept.set(WhatIf.PARKED_NS.get() - before);
        });
        waiter.start();
        blocked.await();
        runCandidate(30_000_000);
        WhatIf.release(CANDIDATE, lock); // the waker leaves what it paid (its own delay) on the lock
        go.countDown();
        waiter.join();
        assertTrue(owed.get() >= 30_000_000, "owed " + owed);
        if (released) {
            assertEquals(owed.get(), credited.get(), "credited");
            assertEquals(0, slept.get(), "slept");
        } else {
            assertEquals(0, credited.get(), "credited");
            assertTrue(slept.get() >= owed.get() - WhatIf.MIN_PARK_NS, "slept " + slept + " of " + owed);
        }
    }

    /** A block that began before the delay accrued only is credited from its start: the delay owed before is paid. */
    @Test
    void aBlockIsCreditedFromItsStartOnly() {
        Object lock = new Object();
        WhatIf.start(CANDIDATE, 100);
        WhatIf.enter(OTHER); // joins owing nothing
        Slot me = Slot.current();
        long start = me.paid;
        long before = runCandidate(5_000_000);
        me.paid = start; // as if another thread had run it: owed, and not paid at the block (no delay point between)
        long ctx = WhatIf.GLOBAL.get() + 1;
        long during = runCandidate(5_000_000);
        WhatIf.release(CANDIDATE, lock); // the releaser has paid everything (it added it)
        me.paid = start;
        WhatIf.woken(OTHER, lock, ctx);
        assertEquals(during, me.paid - start, "credited the delay of the block only, not the " + before + " before");
    }

    static final class SlowInit {
        static final long PARKS_BEFORE = WhatIf.PARKS.get();
        static final long SKIPPED = WhatIf.SKIPPED_CLINIT.get();
        static {
            WhatIf.enter(OTHER); // a delay point inside a static initialiser: never a sleep
        }
    }

    @Test
    void noSleepInAClassInitialiserNorForAnInterruptedThread() throws Exception {
        WhatIf.start(CANDIDATE, 100);
        AtomicReference<long[]> seen = new AtomicReference<>();
        AtomicReference<Boolean> interrupted = new AtomicReference<>();
        CountDownLatch joined = new CountDownLatch(1);
        CountDownLatch added = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            WhatIf.enter(OTHER);
            joined.countDown();
            while (added.getCount() > 0) {
                Thread.onSpinWait(); // planted: a busy thread that owes the whole delay
            }
            long skipped = WhatIf.SKIPPED_CLINIT.get();
            long parks = WhatIf.PARKS.get();
            long p = SlowInit.PARKS_BEFORE; // initialises SlowInit here
            seen.set(new long[] {WhatIf.SKIPPED_CLINIT.get() - skipped, WhatIf.PARKS.get() - parks, p});
            long skippedInterrupt = WhatIf.SKIPPED_INTERRUPTED.get();
            Thread.currentThread().interrupt();
            WhatIf.enter(OTHER);
            interrupted.set(Thread.currentThread().isInterrupted()
                    && WhatIf.SKIPPED_INTERRUPTED.get() == skippedInterrupt + 1);
        });
        t.start();
        joined.await();
        runCandidate(20_000_000);
        added.countDown();
        t.join();
        assertEquals(1, seen.get()[0], "skipped in <clinit>");
        assertEquals(0, seen.get()[1], "slept in <clinit>");
        assertTrue(interrupted.get(), "an interrupted thread skips the sleep and stays interrupted");
    }

    @Test
    void progressIsCountedExactly() throws Exception {
        long before = WhatIf.progressCount(77);
        Thread[] ts = new Thread[3];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                for (int k = 0; k < 10_000; k++) {
                    WhatIf.progress(77);
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        assertEquals(before + 30_000, WhatIf.progressCount(77));
        long lost = WhatIf.PROGRESS_LOST.get();
        WhatIf.progress(WhatIf.MAX_PROGRESS_ID);
        assertEquals(lost + 1, WhatIf.PROGRESS_LOST.get());
    }

    @Test
    void theHooksAllocateNothingInSteadyState() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs the HotSpot ThreadMXBean");
        com.sun.management.ThreadMXBean hotspot = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled());
        WhatIf.start(CANDIDATE, 0);
        long thread = Thread.currentThread().getId();
        Object warm = new Object();
        for (int i = 0; i < 50_000; i++) {
            WhatIf.exit(CANDIDATE, WhatIf.enter(CANDIDATE));
            WhatIf.exit(OTHER, WhatIf.enter(OTHER));
            WhatIf.progress(OTHER);
            WhatIf.woken(OTHER, warm, WhatIf.block(OTHER, warm));
            WhatIf.release(OTHER, warm);
        }
        long cost = -(hotspot.getThreadAllocatedBytes(thread) - hotspot.getThreadAllocatedBytes(thread));
        long before = hotspot.getThreadAllocatedBytes(thread);
        Object lock = new Object();
        for (int i = 0; i < 200_000; i++) {
            WhatIf.exit(CANDIDATE, WhatIf.enter(CANDIDATE));
            WhatIf.exit(OTHER, WhatIf.enter(OTHER));
            WhatIf.progress(OTHER);
            WhatIf.woken(OTHER, lock, WhatIf.block(OTHER, lock));
            WhatIf.release(OTHER, lock);
        }
        long after = hotspot.getThreadAllocatedBytes(thread);
        // one object per event would be at least 16 bytes × 1,200,000 hooks; a clean-clone suite saw 72 bytes once in
        // all (something once, as a compilation or deoptimisation in this thread), so a small bound, not 0
        long allocated = Math.max(0, after - before - cost);
        assertTrue(allocated < 1024, "bytes allocated by 200,000 rounds: " + allocated);
    }

    /**
     * A latency unit's duration is its wall time less the delay inserted while it ran: the candidate's virtual
     * speed-up shortens a unit that contains it by s × its time, exactly; a unit around nothing is not shortened.
     */
    @Test
    void aLatencyUnitExcludesTheDelayInsertedWhileItRan() {
        int unit = 40;
        WhatIf.start(CANDIDATE, 50);
        long count = WhatIf.latencyCount(unit);
        long sum = WhatIf.latencyNanos(unit);
        long t0 = System.nanoTime();
        long ctx = WhatIf.begin(unit);
        long added = runCandidate(20_000_000);
        WhatIf.end(unit, ctx);
        long wall = System.nanoTime() - t0;
        assertEquals(count + 1, WhatIf.latencyCount(unit));
        long measured = WhatIf.latencyNanos(unit) - sum;
        assertTrue(added >= 10_000_000, "added " + added);
        assertTrue(measured <= wall - added && measured >= 20_000_000 - added, "measured " + measured + ", wall "
                + wall + ", added " + added);
        // the pair form on one thread: begin here, end there, the same correction
        long before = WhatIf.latencyNanos(unit + 1);
        long t1 = System.nanoTime();
        WhatIf.pairBegin(OTHER);
        long added2 = runCandidate(10_000_000);
        WhatIf.pairEnd(unit + 1);
        long wall2 = System.nanoTime() - t1;
        WhatIf.pairEnd(unit + 1); // an end without a begin counts nothing
        assertEquals(1, WhatIf.latencyCount(unit + 1));
        long pair = WhatIf.latencyNanos(unit + 1) - before;
        assertTrue(pair >= 10_000_000 - added2 && pair <= wall2 - added2, "pair " + pair + ", added " + added2);
        WhatIf.stop();
        assertEquals(0, WhatIf.begin(unit), "no experiment: not measured");
    }

    /**
     * The flow through a pair for Little's law: a begin on one thread and an end on another count, between
     * experiments too, with their virtual times; the minimum in flight restarts with each experiment.
     */
    @Test
    void aPairCountsArrivalsAndDeparturesOnAnyThread() throws Exception {
        long[] f0 = WhatIf.flow();
        WhatIf.pairBegin(OTHER); // no experiment running: counted all the same
        long[] f1 = WhatIf.flow();
        assertEquals(f0[0] + 1, f1[0]);
        assertEquals(f0[4] + 1, f1[4]);
        assertTrue(f1[1] - f0[1] <= f1[6] && f1[1] - f0[1] >= f0[6], "the begin's time is between the two looks");
        Thread other = new Thread(() -> WhatIf.pairEnd(OTHER + 1));
        other.start();
        other.join();
        long[] f2 = WhatIf.flow();
        assertEquals(f1[2] + 1, f2[2]);
        assertEquals(f0[4], f2[4]);
        assertEquals(0, WhatIf.latencyCount(OTHER + 1), "not a unit timed on one thread");
        WhatIf.start(CANDIDATE, 0);
        assertEquals(f2[4], WhatIf.flow()[5], "the minimum starts again at the count in flight");
        WhatIf.pairEnd(OTHER + 1); // an end whose begin was before: one less in flight
        assertEquals(f2[4] - 1, WhatIf.flow()[5]);
        WhatIf.pairBegin(OTHER);
        assertEquals(f2[4], WhatIf.flow()[4]);
    }

    /** A thread in one long loop, entering no method, pays at its loop head, and only there. */
    @Test
    void aLoopHeadIsADelayPoint() throws Exception {
        WhatIf.start(CANDIDATE, 100);
        CountDownLatch joined = new CountDownLatch(1);
        CountDownLatch added = new CountDownLatch(1);
        AtomicLong loopParks = new AtomicLong(-1);
        Thread looper = new Thread(() -> {
            WhatIf.loop(); // joins the experiment owing nothing
            joined.countDown();
            long parks = WhatIf.LOOP_PARKS.get();
            while (added.getCount() > 0) {
                Thread.onSpinWait(); // planted: busy, on the CPU, at no delay point
            }
            for (int i = 0; i < 1000; i++) {
                WhatIf.loop(); // the back-edge of the program's loop
            }
            loopParks.set(WhatIf.LOOP_PARKS.get() - parks);
        });
        looper.start();
        joined.await();
        runCandidate(20_000_000);
        added.countDown();
        looper.join();
        // it owed 20 ms, mostly on the CPU: one sleep pays it, the other 999 heads owe nothing
        assertEquals(1, loopParks.get());
        WhatIf.stop();
        long parks = WhatIf.LOOP_PARKS.get();
        WhatIf.loop();
        assertEquals(parks, WhatIf.LOOP_PARKS.get());
    }

    static Element whatif(String attrs) throws Exception {
        return Xml.parse("<WHATIF " + attrs + "/>");
    }

    @Test
    void theCommandReadsThenSwitches() throws Exception {
        WhatIf.progress(9);
        String first = WhatIfControl.answer(whatif("CANDIDATE='5' SPEEDUP='20' PROGRESS='9'"));
        Element a = Xml.parse(first);
        assertEquals("false", a.getAttribute("RUNNING"));
        assertEquals(Long.toString(WhatIf.progressCount(9)), Xml.child(a, "PROGRESS").getAttribute("COUNT"));
        assertTrue(WhatIf.running());
        assertEquals(5, WhatIf.selected());
        assertEquals(200, WhatIf.permille());
        Element b = Xml.parse(WhatIfControl.answer(whatif("STOP='true' PROGRESS='9'")));
        assertEquals("true", b.getAttribute("RUNNING"));
        assertEquals("5", b.getAttribute("CANDIDATE"));
        assertEquals("200", b.getAttribute("PERMILLE"));
        assertFalse(WhatIf.running());
        assertTrue(Long.parseLong(b.getAttribute("NOW")) > Long.parseLong(a.getAttribute("NOW")));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "CANDIDATE='5' SPEEDUP='101'|WHATIF SPEEDUP is a whole number from 0 to 100, not '101'",
        "CANDIDATE='x' SPEEDUP='1'|WHATIF CANDIDATE is a whole number from -1 to 2147483647, not 'x'",
        "CANDIDATE='5'|WHATIF: CANDIDATE and SPEEDUP go together",
        "STOP='true' CANDIDATE='5' SPEEDUP='1'|WHATIF: STOP='true' takes no CANDIDATE or SPEEDUP",
        "STOP='maybe'|WHATIF STOP is a flag (true/false), not 'maybe'",
        "PROGRESS='1,,2'|WHATIF PROGRESS is a whole number from 0 to 65535, not ''",
    })
    void badInputIsRefusedAndChangesNothing(String attrs, String message) throws Exception {
        int epoch = WhatIf.epoch();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WhatIfControl.answer(whatif(attrs)));
        assertEquals(message, e.getMessage());
        assertEquals(epoch, WhatIf.epoch());
    }
}
