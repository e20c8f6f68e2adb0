package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The CPU rate of a thread around a moment, from the monitor's readings of its CPU clock, as native samples use it. */
class CpuClocksTest {
    private static final long MS = 1_000_000;

    @Test
    void rateIsTheClocksAdvanceBetweenTheReadingsAroundTheMoment() {
        CpuClocks c = new CpuClocks();
        assertEquals(-1, c.rate(7, 0), "nothing read yet");
        c.add(7, 1000 * MS, 0);
        assertEquals(-1, c.rate(7, 1000 * MS), "one reading is no rate");
        c.add(7, 1100 * MS, 50 * MS);   // half a CPU
        c.add(7, 1200 * MS, 50 * MS);   // blocked
        c.add(7, 1300 * MS, 150 * MS);  // a whole CPU
        assertEquals(0.5, c.rate(7, 1050 * MS));
        assertEquals(0.5, c.rate(7, 900 * MS), "earlier than all: the first two readings");
        assertEquals(0.0, c.rate(7, 1150 * MS));
        assertEquals(1.0, c.rate(7, 1250 * MS));
        assertEquals(1.0, c.rate(7, 2000 * MS), "later than all: the last two readings");
        assertEquals(-1, c.rate(8, 1050 * MS), "another thread");
        c.retain(Set.of(8L));
        assertEquals(-1, c.rate(7, 1050 * MS), "an ended thread is forgotten");
    }

    /** Native CPU: the clock's advance in the window less what the execution samples there stand for. */
    @Test
    void nativeRateLeavesOutWhatExecutionSamplesCount() {
        CpuClocks c = new CpuClocks();
        c.add(7, 1000 * MS, 0);
        c.natives(1000 * MS, 1);
        c.javaSample(7, 1050 * MS);        // before the second reading: waits for its window
        assertEquals(-1, c.nativeRate(7, 1050 * MS, 10 * MS), "the window is not closed yet");
        assertEquals(false, c.known(1050 * MS));
        c.add(7, 1100 * MS, 80 * MS);      // 80 ms of CPU in 100 ms
        c.natives(1100 * MS, 1);
        assertEquals(true, c.known(1050 * MS));
        c.javaSample(7, 1060 * MS);
        c.javaSample(7, 1070 * MS);        // three execution samples of 10 ms: 30 ms in Java code
        assertEquals(0.5, c.nativeRate(7, 1050 * MS, 10 * MS), 1e-9);
        assertEquals(0.0, c.nativeRate(7, 1050 * MS, 40 * MS), "never below none");
        c.add(7, 1200 * MS, 90 * MS);
        c.natives(1200 * MS, 1);
        assertEquals(0.1, c.nativeRate(7, 1150 * MS, 10 * MS), 1e-9, "the next window has no execution sample");
        assertEquals(-1, c.nativeRate(8, 1050 * MS, 10 * MS), "another thread");
    }

    @Test
    void onlyTheLastReadingsAreKept() {
        CpuClocks c = new CpuClocks();
        for (int i = 0; i < 2 * CpuClocks.KEPT; i++) {
            c.add(1, i * 100 * MS, i < CpuClocks.KEPT ? 0 : (i - CpuClocks.KEPT + 1) * 25 * MS);
        }
        assertEquals(0.25, c.rate(1, 0), "the oldest readings (no CPU) are gone");
    }

    @Test
    void threadsInNativeCodeAtTheReadingAfterTheMoment() {
        CpuClocks c = new CpuClocks();
        assertEquals(1, c.nativeThreads(5), "none read: at least one, the sampled thread");
        c.natives(100, 3);
        c.natives(200, 0);
        c.natives(300, 9);
        assertEquals(3, c.nativeThreads(50));
        assertEquals(1, c.nativeThreads(150), "at least the sampled thread");
        assertEquals(9, c.nativeThreads(250));
        assertEquals(9, c.nativeThreads(400));
    }
}
