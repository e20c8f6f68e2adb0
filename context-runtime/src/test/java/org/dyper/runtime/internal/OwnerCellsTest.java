package org.dyper.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.dyper.runtime.internal.ThreadData.*;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.SampledTiming;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The owner fast path of {@code Counting.count} and {@code SampledTiming.enter} ({@link OwnerCells}): one thread per id
 * records into the id's cells, every other thread into its slab, and reports add both, exactly. Each test uses ids of
 * its own (ownership outlives a reset and a test), all in [0, {@link OwnerCells#FAST_IDS}) unless said otherwise.
 */
class OwnerCellsTest {
    static final int THREADS = 4;
    static final int CALLS = 100_000;
    static final int N = Config.SAMPLE_EVERY;

    @BeforeEach
    void reset() {
        Dyper.reset();
        Dyper.setEnabled(true);
    }

    /** Runs {@code body} on {@code threads} new threads at once and waits for them. */
    static void onThreads(int threads, Runnable body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                body.run();
            }, "cells-test-" + t);
            thread.start();
            started.add(thread);
        }
        start.countDown();
        for (Thread thread : started) {
            thread.join();
        }
    }

    @Test
    void theFirstThreadOwnsTheIdAndCountsIntoTheCellNotItsSlab() {
        int id = 801;
        assertNull(OwnerCells.COUNT_OWNER[id]);
        Counting.count(id);
        Counting.count(id);
        Counting.count(id);
        assertSame(Thread.currentThread(), OwnerCells.COUNT_OWNER[id]);
        assertEquals(3, Registry.snapshot().count(id));
        long[] slab = ThreadData.current().publishedCounts();
        int i = SiteIndexes.index(id);
        assertTrue(i >= slab.length || slab[i] == 0, "the owner's events are not in its slab");
        assertEquals(0, Registry.snapshot().calls(id), "count does not reach the call-site counts");
    }

    @Test
    void oneOwnerAndSeveralOtherThreadsOnOneIdCountExactly() throws InterruptedException {
        int id = 802;
        Counting.count(id);  // this thread owns the id, the others take the slow path
        onThreads(THREADS, () -> {
            for (int i = 0; i < CALLS; i++) {
                Counting.count(id);
            }
        });
        assertSame(Thread.currentThread(), OwnerCells.COUNT_OWNER[id], "a live owner keeps its id");
        assertEquals(1 + (long) THREADS * CALLS, Registry.snapshot().count(id));
        // and with the owner counting concurrently with the others
        Thread owner = Thread.currentThread();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong ownerCalls = new AtomicLong();
        Thread others = new Thread(() -> {
            try {
                onThreads(THREADS, () -> {
                    for (int i = 0; i < CALLS; i++) {
                        Counting.count(id);
                    }
                });
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            stop.set(true);
        });
        others.start();
        long n = 0;
        while (!stop.get()) {
            Counting.count(id);
            n++;
        }
        others.join();
        ownerCalls.set(n);
        assertSame(owner, OwnerCells.COUNT_OWNER[id]);
        assertEquals(1 + 2L * THREADS * CALLS + ownerCalls.get(), Registry.snapshot().count(id));
    }

    @Test
    void manyThreadsRacingForAnUnclaimedIdCountExactly() throws InterruptedException {
        int id = 803;
        onThreads(THREADS, () -> {
            for (int i = 0; i < CALLS; i++) {
                Counting.count(id);
            }
        });
        assertEquals((long) THREADS * CALLS, Registry.snapshot().count(id));
        // the owner has ended: its count is still reported, and stays after the slabs of ended threads are folded
        assertEquals((long) THREADS * CALLS, Registry.snapshot().count(id));
        assertTrue(Reports.xml(Reports.Data.now()).contains("<SITE ID='" + id + "' NAME='" + SiteTable.name(id)
                + "' COUNT='" + (long) THREADS * CALLS + "'/>"));
    }

    @Test
    void anEndedOwnersCountIsReportedAndItsIdTakenOverExactly() throws InterruptedException {
        int id = 804;
        Thread first = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                Counting.count(id);
            }
        });
        first.start();
        first.join();
        assertSame(first, OwnerCells.COUNT_OWNER[id]);
        assertEquals(1000, Registry.snapshot().count(id));
        Counting.count(id);  // the slow path's first event checks the owner: it has ended, so this thread takes over
        assertSame(Thread.currentThread(), OwnerCells.COUNT_OWNER[id]);
        for (int i = 0; i < 999; i++) {
            Counting.count(id);
        }
        assertEquals(2000, Registry.snapshot().count(id));
        Dyper.reset();
        assertEquals(0, Registry.snapshot().count(id));
        Counting.count(id);
        assertEquals(1, Registry.snapshot().count(id));
    }

    @Test
    void resetForgetsTheCellsAndCountsAfterItAreExact() throws InterruptedException {
        int id = 805;
        for (int i = 0; i < 500; i++) {
            Counting.count(id);
        }
        assertEquals(500, Registry.snapshot().count(id));
        Dyper.reset();
        assertEquals(0, Registry.snapshot().count(id));
        assertTrue(Registry.snapshot().isEmpty());
        for (int i = 0; i < 7; i++) {
            Counting.count(id);
        }
        assertEquals(7, Registry.snapshot().count(id));
        Dyper.reset();
        Dyper.reset();
        assertEquals(0, Registry.snapshot().count(id), "two resets in a row");
    }

    @Test
    void resetsWhileTheOwnerAndOthersCountLoseNothingAfterTheLastReset() throws InterruptedException {
        int id = 806;
        AtomicBoolean counting = new AtomicBoolean(true);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch paused = new CountDownLatch(THREADS);
        CountDownLatch resume = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    while (counting.get()) {
                        Counting.count(id);
                    }
                    paused.countDown();
                    resume.await();
                    for (int i = 0; i < CALLS; i++) {
                        Counting.count(id);
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (int r = 0; r < 200; r++) {
            Dyper.reset();
            long seen = Registry.snapshot().count(id);
            assertTrue(seen >= 0, "never negative: " + seen);
        }
        counting.set(false);
        paused.await();
        Dyper.reset();
        assertEquals(0, Registry.snapshot().count(id));
        resume.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals((long) THREADS * CALLS, Registry.snapshot().count(id));
    }

    @ParameterizedTest
    @ValueSource(ints = {OwnerCells.FAST_IDS, OwnerCells.FAST_IDS + 5, 70_000, -1, -3, -1000})
    void idsWithoutCellsCountExactlyInTheSlabs(int id) throws InterruptedException {
        Counting.count(id);
        onThreads(THREADS, () -> {
            for (int i = 0; i < CALLS / 10; i++) {
                Counting.count(id);
            }
        });
        assertEquals(1 + (long) THREADS * CALLS / 10, Registry.snapshot().count(id));
        assertTrue(ThreadData.current().publishedCounts()[SiteIndexes.index(id)] == 1, "this thread's event is in its slab");
    }

    @Test
    void idZeroAndTheLastFastIdHaveCellsOfTheirOwn() {
        int last = OwnerCells.FAST_IDS - 1;
        for (int i = 0; i < 3; i++) {
            Counting.count(0);
        }
        for (int i = 0; i < 5; i++) {
            Counting.count(last);
        }
        Totals t = Registry.snapshot();
        assertEquals(3, t.count(0));
        assertEquals(5, t.count(last));
        assertEquals(0, t.count(-1));
    }

    // ---- sampled timing ----

    /** The calls of {@code calls} enter/exit pairs at id on this thread; returns how many enter calls were timed. */
    static int sampledCalls(int id, int calls) {
        int timed = 0;
        for (int i = 0; i < calls; i++) {
            long start = SampledTiming.enter(id);
            if (start != 0) {
                timed++;
                SampledTiming.exit(id, start);
            }
        }
        return timed;
    }

    @Test
    void anOwnerTimesExactlyOneCallInN() {
        int id = 820;
        int timed = sampledCalls(id, 10 * N);
        assertSame(Thread.currentThread(), OwnerCells.SAMPLE_OWNER[id]);
        // the first countdown starts in [1, N], so 10 N calls time exactly 10
        assertEquals(10, timed);
        long[] row = Registry.snapshot().sampled(id);
        assertEquals(10L * N, row[S_COUNT]);
        assertEquals(10, row[S_SAMPLES]);
        assertTrue(row[S_TOTAL] >= 0);
        Reports.SampledSite site = Reports.sampled(Registry.snapshot()).stream().filter(s -> s.id() == id)
                .findFirst().orElseThrow();
        assertEquals(10L * N, site.count());
        assertEquals(10, site.samples());
        assertEquals((double) site.count() * site.sampledTotal() / site.samples(), site.estimate(), 1e-6);
        assertEquals(0, Registry.snapshot().count(id), "sampled calls are not events");
    }

    @Test
    void sampledCallsOfAnOwnerAndOtherThreadsAreExact() throws InterruptedException {
        int id = 821;
        SampledTiming.enter(id);  // this thread owns the id: 1 call, maybe timed (never exited: not a sample)
        AtomicLong timed = new AtomicLong();
        onThreads(THREADS, () -> timed.addAndGet(sampledCalls(id, 20 * N)));
        assertSame(Thread.currentThread(), OwnerCells.SAMPLE_OWNER[id]);
        assertEquals(20L * THREADS, timed.get(), "each non-owner times exactly one call in N");
        long[] row = Registry.snapshot().sampled(id);
        assertEquals(1 + 20L * N * THREADS, row[S_COUNT]);
        assertEquals(20L * THREADS, row[S_SAMPLES]);
    }

    @Test
    void manyThreadsOnOneSampledIdCountExactlyAndSampleOneInN() throws InterruptedException {
        int id = 822;
        onThreads(THREADS, () -> sampledCalls(id, CALLS));
        long[] row = Registry.snapshot().sampled(id);
        assertEquals((long) THREADS * CALLS, row[S_COUNT]);
        // each thread times calls k, k+N, k+2N, ... for some start k in [1, N]
        long perThreadMin = CALLS / N;
        long perThreadMax = (CALLS + N - 1) / N;
        assertTrue(row[S_SAMPLES] >= THREADS * perThreadMin && row[S_SAMPLES] <= THREADS * perThreadMax,
                "samples: " + row[S_SAMPLES]);
    }

    @Test
    void sampledResetAndEndedOwner() throws InterruptedException {
        int id = 823;
        Thread first = new Thread(() -> sampledCalls(id, 3 * N));
        first.start();
        first.join();
        assertSame(first, OwnerCells.SAMPLE_OWNER[id]);
        long[] row = Registry.snapshot().sampled(id);
        assertEquals(3L * N, row[S_COUNT], "an ended owner's calls are still reported");
        assertEquals(3, row[S_SAMPLES]);
        Dyper.reset();
        assertNull(Registry.snapshot().sampled(id), "a reset forgets the owner's calls");
        sampledCalls(id, 1);  // the first slow-path call finds the owner ended and takes the id over
        assertSame(Thread.currentThread(), OwnerCells.SAMPLE_OWNER[id]);
        Dyper.reset();
        int timed = sampledCalls(id, 5 * N);
        row = Registry.snapshot().sampled(id);
        assertEquals(5L * N, row[S_COUNT]);
        assertEquals(timed, row[S_SAMPLES]);
        // the countdown continues from the ended owner's: 5 N calls time exactly 5
        assertEquals(5, timed);
    }

    @Test
    void sampledIdsWithoutCellsAreExact() throws InterruptedException {
        for (int id : new int[] {OwnerCells.FAST_IDS, -7}) {
            onThreads(THREADS, () -> sampledCalls(id, 10 * N));
            long[] row = Registry.snapshot().sampled(id);
            assertEquals(10L * N * THREADS, row[S_COUNT]);
            assertEquals(10L * THREADS, row[S_SAMPLES]);
        }
    }

    @Test
    void countAndSampledTimingOnOneIdStayApart() {
        int id = 830;
        for (int i = 0; i < 9; i++) {
            Counting.count(id);
        }
        sampledCalls(id, 2 * N);
        Totals t = Registry.snapshot();
        assertEquals(9, t.count(id));
        assertEquals(2L * N, t.sampled(id)[S_COUNT]);
        assertNotSame(OwnerCells.COUNT_OWNER, OwnerCells.SAMPLE_OWNER);
    }
}
