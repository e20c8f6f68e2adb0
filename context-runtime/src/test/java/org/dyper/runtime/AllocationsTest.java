package org.dyper.runtime;

import static org.dyper.runtime.internal.ThreadData.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.Totals;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Allocations per site and per type: counts, arrays, total and max length, exact across threads. */
class AllocationsTest {
    static final int PLACE = 72_001;
    static final int GRID = 72_002;
    static final int ORDER = 72_101;
    static final int INT_ARRAY = 72_102;
    static final int STRING_2D = 72_103;

    @BeforeEach
    void reset() {
        Dyper.reset();
    }

    @Test
    void objectsAndArraysPerSiteAndPerType() {
        for (int i = 0; i < 7; i++) {
            Allocations.object(PLACE, ORDER);
        }
        for (int length : new int[] {3, 10, 0, 5}) {
            Allocations.array(PLACE, INT_ARRAY, length);
        }
        Allocations.array(GRID, STRING_2D, 4);
        Allocations.array(GRID, STRING_2D, 2);
        Allocations.array(GRID, INT_ARRAY, -1);
        Totals t = Registry.snapshot();
        // count, arrays, total length, max length
        assertArrayEquals(new long[] {11, 4, 18, 10}, t.allocationSite(PLACE));
        assertArrayEquals(new long[] {3, 3, 6, 4}, t.allocationSite(GRID));
        assertArrayEquals(new long[] {7, 0, 0, 0}, t.allocationType(ORDER));
        assertArrayEquals(new long[] {5, 5, 18, 10}, t.allocationType(INT_ARRAY));
        assertArrayEquals(new long[] {2, 2, 6, 4}, t.allocationType(STRING_2D));
        assertNull(t.allocationSite(ORDER));
    }

    @Test
    void exactAcrossThreadsThatHaveEnded() throws InterruptedException {
        int threads = 4;
        int rounds = 25_000;
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int worker = w;
            workers.add(new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    Allocations.object(PLACE, ORDER);
                    Allocations.array(PLACE, INT_ARRAY, i % 100 + worker);
                }
            }));
        }
        workers.forEach(Thread::start);
        for (Thread w : workers) {
            w.join();
        }
        // per thread: lengths (i % 100) summed over 25,000 calls = 250 × 4,950, plus worker × 25,000
        long totalLength = threads * 250L * 4_950 + (0 + 1 + 2 + 3) * (long) rounds;
        Totals t = Registry.snapshot();
        assertArrayEquals(new long[] {2L * threads * rounds, threads * (long) rounds, totalLength, 102},
                t.allocationSite(PLACE));
        assertArrayEquals(new long[] {threads * (long) rounds, 0, 0, 0}, t.allocationType(ORDER));
        assertArrayEquals(new long[] {threads * (long) rounds, threads * (long) rounds, totalLength, 102},
                t.allocationType(INT_ARRAY));
    }
}
