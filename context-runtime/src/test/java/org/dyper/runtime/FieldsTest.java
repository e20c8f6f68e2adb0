package org.dyper.runtime;

import static org.dyper.runtime.internal.ThreadData.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.Totals;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Field watch: writes with and without the owner's monitor, static writes, and the ring of the last writes. */
class FieldsTest {
    static final int HIT = 73_001;
    static final int QUICK_HIT = 73_002;
    static final int HITS = 73_101;
    static final int NAME = 73_102;
    static final int TOTAL = 73_103;

    @BeforeEach
    void reset() {
        Dyper.reset();
    }

    /** {@code {seq, old, new, flags, thread}} entries of a merged field row, oldest first. */
    static List<long[]> ring(long[] row) {
        List<long[]> entries = new ArrayList<>();
        for (int e = 0; e < RING; e++) {
            int base = F_RING + e * E_LENGTH;
            if (row[base + E_SEQ] != 0) {
                entries.add(java.util.Arrays.copyOfRange(row, base, base + E_LENGTH));
            }
        }
        return entries;
    }

    @Test
    void writesWithAndWithoutTheOwnersMonitorAreCountedExactly() {
        Object stats = new Object();
        for (int i = 0; i < 7; i++) {
            synchronized (stats) {
                Fields.write(HIT, HITS, stats, i, i + 1);
            }
        }
        for (int i = 7; i < 10; i++) {
            Fields.write(QUICK_HIT, HITS, stats, i, i + 1);
        }
        Object other = new Object();
        synchronized (other) {
            Fields.write(QUICK_HIT, HITS, stats, 10, 11);  // holding a monitor, but not the owner's
        }
        Fields.write(HIT, TOTAL, null, 0, 5);
        Fields.write(HIT, TOTAL, null, 5, 6);
        Totals t = Registry.snapshot();
        long[] hits = t.field(HITS);
        assertEquals(11, hits[F_WRITES]);
        assertEquals(4, hits[F_UNLOCKED]);
        assertEquals(0, hits[F_NO_OWNER]);
        long[] total = t.field(TOTAL);
        assertEquals(2, total[F_WRITES]);
        assertEquals(0, total[F_UNLOCKED]);
        assertEquals(2, total[F_NO_OWNER]);
        assertArrayEquals(new long[] {9, 0, 2}, t.fieldSite(HIT));
        assertArrayEquals(new long[] {4, 4, 0}, t.fieldSite(QUICK_HIT));
        List<long[]> last = ring(hits);
        assertEquals(11, last.size());
        for (int i = 0; i < 11; i++) {
            assertEquals(i, last.get(i)[E_OLD]);
            assertEquals(i + 1, last.get(i)[E_NEW]);
            assertEquals(i < 7 ? W_LOCKED : 0, last.get(i)[E_FLAGS]);
        }
    }

    @Test
    void theRingKeepsTheLastSixteenWritesInOrderAcrossThreads() throws InterruptedException {
        Object owner = new Object();
        Thread first = new Thread(() -> {
            for (int i = 0; i < 20; i++) {
                Fields.write(HIT, HITS, owner, i, i + 1);
            }
        }, "writer-one");
        first.start();
        first.join();
        Thread second = new Thread(() -> {
            for (int i = 20; i < 30; i++) {
                synchronized (owner) {
                    Fields.write(HIT, HITS, owner, i, i + 1);
                }
            }
        }, "writer-two");
        second.start();
        second.join();
        Totals t = Registry.snapshot();
        long[] row = t.field(HITS);
        assertEquals(30, row[F_WRITES]);
        assertEquals(20, row[F_UNLOCKED]);
        List<long[]> last = ring(row);
        assertEquals(RING, last.size());
        for (int k = 0; k < RING; k++) {
            long old = 30 - RING + k;
            assertEquals(old, last.get(k)[E_OLD]);
            assertEquals(old + 1, last.get(k)[E_NEW]);
            assertEquals(old < 20 ? "writer-one" : "writer-two", t.threadName(last.get(k)[E_THREAD]));
            assertEquals(old < 20 ? 0 : W_LOCKED, last.get(k)[E_FLAGS]);
        }
        // a live writer's ring, read while it is alive, gives the same order
        for (int i = 30; i < 40; i++) {
            Fields.write(HIT, HITS, owner, i, i + 1);
        }
        List<long[]> live = ring(Registry.snapshot().field(HITS));
        assertEquals(40 - RING, live.get(0)[E_OLD]);
        assertEquals(39, live.get(RING - 1)[E_OLD]);
    }

    @Test
    void referenceWritesKeepOnlyNullnessAndIdentityHashes() {
        Object owner = new Object();
        String value = "v";
        Fields.writeRef(HIT, NAME, owner, null, value);
        Fields.writeRef(HIT, NAME, owner, value, null);
        List<long[]> last = ring(Registry.snapshot().field(NAME));
        assertEquals(2, last.size());
        assertArrayEquals(new long[] {0, System.identityHashCode(value), W_REF | W_OLD_NULL},
                new long[] {last.get(0)[E_OLD], last.get(0)[E_NEW], last.get(0)[E_FLAGS]});
        assertArrayEquals(new long[] {System.identityHashCode(value), 0, W_REF | W_NEW_NULL},
                new long[] {last.get(1)[E_OLD], last.get(1)[E_NEW], last.get(1)[E_FLAGS]});
    }

    @Test
    void unlockedCountsAreExactAcrossThreads() throws InterruptedException {
        Object owner = new Object();
        int threads = 4;
        int rounds = 20_000;
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            workers.add(new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    if (i % 4 == 0) {
                        Fields.write(QUICK_HIT, HITS, owner, i, i + 1);
                    } else {
                        synchronized (owner) {
                            Fields.write(HIT, HITS, owner, i, i + 1);
                        }
                    }
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        Totals t = Registry.snapshot();
        assertEquals((long) threads * rounds, t.field(HITS)[F_WRITES]);
        assertEquals((long) threads * rounds / 4, t.field(HITS)[F_UNLOCKED]);
        assertArrayEquals(new long[] {threads * (long) rounds / 4, threads * (long) rounds / 4, 0},
                t.fieldSite(QUICK_HIT));
        assertArrayEquals(new long[] {threads * (long) rounds * 3 / 4, 0, 0}, t.fieldSite(HIT));
        List<long[]> last = ring(t.field(HITS));
        assertEquals(RING, last.size());
        for (int k = 1; k < RING; k++) {
            assertEquals(true, last.get(k - 1)[E_SEQ] < last.get(k)[E_SEQ], "oldest first");
        }
    }
}
