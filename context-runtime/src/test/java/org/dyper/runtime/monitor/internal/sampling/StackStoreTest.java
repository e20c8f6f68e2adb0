package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Collapsed stacks: root-first paths with summed weights, trees per thread, the node bound and what passes it. */
class StackStoreTest {
    @Test
    void pathsAddUpPerViewAndPerThread() {
        StackStore s = new StackStore(1000);
        s.add(StackStore.View.CPU, 1, "w-1", List.of("a.A.main", "a.A.hot", "a.A.work"), 1);
        s.add(StackStore.View.CPU, 1, "w-1", List.of("a.A.main", "a.A.hot", "a.A.work"), 1);
        s.add(StackStore.View.CPU, 2, "w-2", List.of("a.A.main", "a.A.cold", "a.A.work"), 1);
        s.add(StackStore.View.LOCK, 2, "w-2", List.of("a.A.main", "[lock a.L]"), 5_000);
        assertEquals(List.of(new StackStore.Path("a.A.main;a.A.hot;a.A.work", 2),
                new StackStore.Path("a.A.main;a.A.cold;a.A.work", 1)), s.top(StackStore.View.CPU, 10));
        String x = s.xml("JFR", 64, 1000, 64);
        assertTrue(x.startsWith("<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='"), x);
        assertTrue(x.contains("<VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='THREAD_DUMP' TOTAL='3' EVENTS='3' "
                + "OMITTED_PATHS='0' OMITTED_WEIGHT='0' DROPPED='0'"), x);
        assertTrue(x.contains("<PATH WEIGHT='2'>a.A.main;a.A.hot;a.A.work</PATH><PATH WEIGHT='1'>"
                + "a.A.main;a.A.cold;a.A.work</PATH><THREAD ID='1' NAME='w-1' TOTAL='2' OMITTED_PATHS='0' "
                + "OMITTED_WEIGHT='0'><PATH WEIGHT='2'>a.A.main;a.A.hot;a.A.work</PATH></THREAD>"), x);
        assertTrue(x.contains("<VIEW NAME='LOCK' UNIT='NS'"), x);
        assertTrue(x.contains("<PATH WEIGHT='5000'>a.A.main;[lock a.L]</PATH>"), x);
    }

    /**
     * A pool past its first arrays (1,024 nodes), and a view kept into it: every event's weight is there (the weight
     * array was read before the insert that grew it: each growth lost its event, and a keep across one stopped the
     * recorder, "Index 2051 out of bounds for length 2048").
     */
    @Test
    void theArraysGrowUnderAddAndKeep() {
        StackStore s = new StackStore(100_000);
        for (int i = 0; i < 3000; i++) {
            s.add(StackStore.View.CPU, 1 + i % 2, "t", List.of("a.A.main", "a.A.m" + i), 1 + i % 3);
        }
        long total = 0;
        for (int i = 0; i < 3000; i++) {
            total += 1 + i % 3;
        }
        assertEquals(total, s.top(StackStore.View.CPU, 5000).stream().mapToLong(StackStore.Path::weight).sum());
        s.keep(StackStore.View.CPU, StackStore.View.CPU_BEFORE_JFR, 9);
        s.show(StackStore.View.CPU_BEFORE_JFR);
        assertEquals(s.top(StackStore.View.CPU, 5000), s.top(StackStore.View.CPU_BEFORE_JFR, 5000));
        String x = s.xml("JFR", 64, 5000, 64);
        assertTrue(x.contains("<VIEW NAME='CPU_BEFORE_JFR' UNIT='SAMPLES' SOURCE='THREAD_DUMP' TOTAL='" + total
                + "' EVENTS='3000' "), x.substring(0, 400));
        assertEquals(0, s.dropped());
    }

    @Test
    void pastTheBoundEventsAreCountedNotLost() {
        StackStore s = new StackStore(9);
        s.add(StackStore.View.CPU, 1, "t", List.of("a", "b", "c"), 1);
        assertEquals(8, s.nodes(), "view root, 3 frames, thread root, 3 frames");
        s.add(StackStore.View.CPU, 1, "t", List.of("a", "b", "c"), 1);
        assertEquals(0, s.dropped(), "a known path needs no node");
        s.add(StackStore.View.CPU, 1, "t", List.of("a", "x"), 4);
        assertEquals(9, s.nodes(), "the view's tree got its node; the thread's did not fit");
        s.add(StackStore.View.CPU, 1, "t", List.of("a", "y"), 3);
        assertEquals(2, s.dropped());
        String x = s.xml("JFR", 64, 1000, 64);
        assertTrue(x.contains("NODES='9' NODE_LIMIT='9' DROPPED='2'"), x);
        assertTrue(x.contains("TOTAL='6' EVENTS='4' OMITTED_PATHS='0' OMITTED_WEIGHT='0' DROPPED='1' "
                + "DROPPED_WEIGHT='3' THREAD_DROPPED='1'"), x);
        s.clear();
        assertEquals(0, s.nodes());
        assertEquals("<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='0' NODE_LIMIT='9' DROPPED='0'></STACKS>",
                s.xml("JFR", 64, 1000, 64));
    }

    @Test
    void reportShowsTheHeaviestPathsAndSaysWhatItLeftOut() {
        StackStore s = new StackStore(1000);
        for (int i = 1; i <= 5; i++) {
            s.add(StackStore.View.ALLOC, 1, "t", List.of("m.M.f" + i, "[alloc byte[]]"), i * 100);
        }
        s.add(StackStore.View.THREAD_START, 9, null, List.of("m.M.main", "java.lang.Thread.start"), 1);
        String x = s.xml("JFR", 64, 2, 64);
        assertTrue(x.contains("<VIEW NAME='ALLOC' UNIT='BYTES' SOURCE='JFR' TOTAL='900' EVENTS='5' OMITTED_PATHS='3' "
                + "OMITTED_WEIGHT='600'"), x);
        assertTrue(x.contains("<PATH WEIGHT='500'>m.M.f5;[alloc byte[]]</PATH><PATH WEIGHT='400'>"), x);
        assertTrue(x.contains("<VIEW NAME='THREAD_START' UNIT='THREADS' SOURCE='JFR' TOTAL='1' EVENTS='1'"), x);
        assertTrue(x.contains("THREADS_OMITTED='0'><PATH WEIGHT='1'>m.M.main;java.lang.Thread.start</PATH></VIEW>"), x);
        s.add(StackStore.View.CPU, 1, "t", List.of("p.Q.<init>", "p.Q.a&b"), 1);
        assertTrue(s.xml("JFR", 64, 10, 64).contains("<PATH WEIGHT='1'>p.Q.&lt;init&gt;;p.Q.a&amp;b</PATH>"));
    }
}
