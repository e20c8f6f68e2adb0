package org.dyper.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.dyper.runtime.internal.ThreadData.*;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.SampledTiming;
import org.dyper.runtime.Timing;
import org.dyper.runtime.Values;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Storage layout: zig-zag indexes, histogram placement, sampling cadence, ended threads. */
class ThreadDataTest {

    @BeforeEach
    void reset() {
        Dyper.reset();
    }

    @ParameterizedTest
    @CsvSource({"0,0", "-1,1", "1,2", "-2,3", "2,4", "1000,2000", "-1000,1999",
            "2147483647,-2", "-2147483648,-1"})
    void zigZag(int id, int index) {
        assertEquals(index, SiteIndexes.index(id));
        assertEquals(id, SiteIndexes.id(index));
    }

    @ParameterizedTest
    @CsvSource({"-1", "-2", "-7", "-524288", "0", "524287"})
    void negativeAndEdgeIdsAreStoredAndReportedUnderTheirOwnId(int id) {
        Counting.count(id);
        Counting.count(id);
        Values.record(id, -5);
        Totals t = Registry.snapshot();
        assertEquals(2, t.count(id));
        assertEquals(0, t.count(id == 0 ? 1 : -id));
        assertEquals(-5, t.values(id)[V_MIN]);
        assertTrue(Reports.xml(new Reports.Data(t, List.of(), 0, 1, 0, 64, 0, 0))
                .contains("<SITE ID='" + id + "' NAME='" + SiteTable.name(id) + "' COUNT='2'/>"));
    }

    /** Durations land in bucket b with 2^(b-1) <= d < 2^b (bucket 0 holds 0). */
    @ParameterizedTest
    @CsvSource({"0,0", "1,1", "2,2", "3,2", "4,3", "1023,10", "1024,11", "5000,13", "8191,13", "8192,14",
            "1000000000,30", "9223372036854775807,63", "-5,0"})
    void histogramPlacement(long duration, int bucket) {
        int id = 90;
        ThreadData.current().time(id, duration);
        long[] row = Registry.snapshot().timing(id);
        long[] expected = new long[BUCKETS];
        expected[bucket] = 1;
        long[] buckets = new long[BUCKETS];
        System.arraycopy(row, T_HIST, buckets, 0, BUCKETS);
        assertArrayEquals(expected, buckets);
        long clamped = Math.max(0, duration);
        assertEquals(clamped, row[T_MIN]);
        assertEquals(clamped, row[T_MAX]);
        assertEquals(clamped, row[T_TOTAL]);
    }

    @Test
    void countTotalMinMaxFromKnownDurations() {
        int id = 91;
        long[] durations = {700, 300, 5000, 12, 300};
        for (long d : durations) {
            ThreadData.current().time(id, d);
        }
        long[] row = Registry.snapshot().timing(id);
        assertEquals(5, row[T_COUNT]);
        assertEquals(6312, row[T_TOTAL]);
        assertEquals(12, row[T_MIN]);
        assertEquals(5000, row[T_MAX]);
        assertEquals(1, row[T_HIST + 4]);   // 12
        assertEquals(2, row[T_HIST + 9]);   // 300, 300
        assertEquals(1, row[T_HIST + 10]);  // 700
        assertEquals(1, row[T_HIST + 13]);  // 5000
    }

    @Test
    void exitMeasuresFromTheGivenStart() {
        int id = 92;
        Timing.exit(id, System.nanoTime() - 5000);
        long[] row = Registry.snapshot().timing(id);
        assertEquals(1, row[T_COUNT]);
        assertTrue(row[T_MIN] >= 5000, "min " + row[T_MIN]);
        for (int b = 0; b < 13; b++) {
            assertEquals(0, row[T_HIST + b], "bucket " + b + " is below 5000 ns");
        }
    }

    @Test
    void oneCallInSixtyFourIsSampled() {
        assertEquals(64, Config.SAMPLE_EVERY, "tests run with the default dyper.sample.every");
        int id = 93;
        int timed = 0;
        for (int i = 0; i < 6400; i++) {
            long start = SampledTiming.enter(id);
            if (start != 0) {
                timed++;
            }
            SampledTiming.exit(id, start);
        }
        long[] row = Registry.snapshot().sampled(id);
        assertEquals(6400, row[S_COUNT]);
        assertEquals(100, row[S_SAMPLES]);
        assertEquals(100, timed);
    }

    @Test
    void sampledCallsAreEvenlySpacedPerSite() {
        // Two sites called alternately must both be sampled: the countdown is per thread and site.
        int a = 94;
        int b = 95;
        List<Integer> sampledAt = new ArrayList<>();
        for (int i = 0; i < 640; i++) {
            if (ThreadData.current().sampleCall(a)) {
                sampledAt.add(i);
            }
            ThreadData.current().sampleCall(b);
        }
        assertEquals(10, sampledAt.size());
        for (int k = 1; k < sampledAt.size(); k++) {
            assertEquals(64, sampledAt.get(k) - sampledAt.get(k - 1));
        }
        assertEquals(10, Registry.snapshot().sampled(b)[S_COUNT] / 64);
    }

    @Test
    void sampledSumsFromKnownDurations() {
        int id = 96;
        long[] durations = {100, 200, 300, 400};
        for (long d : durations) {
            ThreadData.current().sample(id, d);
        }
        long[] row = Registry.snapshot().sampled(id);
        assertEquals(4, row[S_SAMPLES]);
        assertEquals(1000, row[S_TOTAL]);
        assertEquals(300_000.0, Double.longBitsToDouble(row[S_SUMSQ]));
    }

    @Test
    void valuesAndReferences() {
        int id = 97;
        for (long v : new long[] {5, -3, 12, 0}) {
            Values.record(id, v);
        }
        Values.recordRef(id, null);
        Values.recordRef(id, "a");
        Values.recordRef(id, 1);
        long[] row = Registry.snapshot().values(id);
        assertArrayEquals(new long[] {4, 14, -3, 12, 1, 2}, row);
    }

    @Test
    void endedThreadsAreFoldedInAndTheirSlabsDropped() throws InterruptedException {
        int id = 98;
        int rounds = 200;
        for (int i = 0; i < rounds; i++) {
            Thread t = new Thread(() -> {
                Counting.count(id);
                Timing.exit(id, Timing.enter(id));
            });
            t.start();
            t.join();
        }
        Totals totals = Registry.snapshot();
        assertEquals(rounds, totals.count(id));
        assertEquals(rounds, totals.timing(id)[T_COUNT]);
        assertTrue(Registry.liveSlabs() < 64, "slabs of ended threads are dropped: " + Registry.liveSlabs());
        assertEquals(rounds, Registry.snapshot().count(id));
    }

    @Test
    void untouchedSitesHaveNoRows() {
        Counting.count(99);
        Totals t = Registry.snapshot();
        assertNull(t.timing(99));
        assertNull(t.values(99));
        assertEquals(0, t.count(100));
    }
}
