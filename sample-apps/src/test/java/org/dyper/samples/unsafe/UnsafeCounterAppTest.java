package org.dyper.samples.unsafe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dyper.testsupport.Stdout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UnsafeCounterAppTest {

    @ParameterizedTest(name = "{0} x {1} hits, {2} quick hits")
    @CsvSource({"4, 5000, 250", "1, 0, 0", "1, 1, 1", "8, 1000, 3", "2, 100000, 10000"})
    void printsWhatTheFactsPredict(int workers, int hits, int quick) throws Exception {
        assertEquals(UnsafeCounterFacts.expectedOutput(workers, hits, quick), run(workers, hits, quick));
    }

    @Test
    void mainWithDefaultsPrintsTheDefaultFacts() throws Exception {
        List<String> printed = Stdout.lines(() -> UnsafeCounterApp.main(new String[0]));
        assertEquals(List.of("stats: workers=4 hitsPerWorker=5000 quickHits=250", "hits: 20250"),
                printed);
    }

    @Test
    void defaultConstantsMatchTheFacts() {
        int w = UnsafeCounterApp.DEFAULT_WORKERS;
        int h = UnsafeCounterApp.DEFAULT_HITS_PER_WORKER;
        int q = UnsafeCounterApp.DEFAULT_QUICK_HITS;
        assertEquals(UnsafeCounterFacts.DEFAULT_LOCKED_WRITES, UnsafeCounterFacts.lockedWrites(w, h));
        assertEquals(UnsafeCounterFacts.DEFAULT_UNLOCKED_WRITES, UnsafeCounterFacts.unlockedWrites(q));
        assertEquals(UnsafeCounterFacts.DEFAULT_WRITES, UnsafeCounterFacts.writes(w, h, q));
        assertEquals(20_251, UnsafeCounterFacts.reads(w, h, q));
        long[] last = UnsafeCounterFacts.lastOldValues(w, h, q, 16);
        assertEquals(16, last.length);
        assertEquals(20_234, last[0]);
        assertEquals(20_249, last[15]);
        assertArrayEquals(new long[] {0, 1}, UnsafeCounterFacts.lastOldValues(1, 1, 1, 16));
    }

    @Test
    void quickHitIsTheWriteWithoutTheMonitor() {
        Stats stats = new Stats();
        stats.hit();
        stats.quickHit();
        assertEquals(2, stats.hits());
    }

    @Test
    void rejectsArgumentsOutsideThePlantedRange() {
        assertThrows(IllegalArgumentException.class, () -> run(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> run(1, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> run(1, 1, -1));
    }

    private static List<String> run(int workers, int hits, int quick) throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        UnsafeCounterApp.run(workers, hits, quick, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
