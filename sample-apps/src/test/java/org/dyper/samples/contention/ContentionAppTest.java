package org.dyper.samples.contention;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dyper.testsupport.Stdout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContentionAppTest {

    @ParameterizedTest(name = "{0} rounds, {1} x {2} records")
    @CsvSource({"5, 4, 2500", "0, 1, 0", "1, 1, 1", "3, 2, 77", "20, 3, 1000"})
    void printsWhatTheFactsPredict(int rounds, int workers, int records) throws Exception {
        assertEquals(ContentionFacts.expectedOutput(rounds, workers, records), run(rounds, workers, records));
    }

    @Test
    void mainWithDefaultsPrintsTheDefaultFacts() throws Exception {
        List<String> printed = Stdout.lines(() -> ContentionApp.main(new String[0]));
        assertEquals(List.of(
                "contention: rounds=5 holdMs=3 workers=4 recordsPerWorker=2500",
                "ledger: posts=5 balance=1500 audited=2000",
                "journals: records=10000 total=54988"), printed);
    }

    @Test
    void defaultConstantsMatchTheFacts() {
        int r = ContentionApp.DEFAULT_ROUNDS;
        int w = ContentionApp.DEFAULT_WORKERS;
        int p = ContentionApp.DEFAULT_RECORDS_PER_WORKER;
        assertEquals(ContentionFacts.DEFAULT_POST_ACQUISITIONS, ContentionFacts.postAcquisitions(r));
        assertEquals(ContentionFacts.DEFAULT_CONTENDED_POSTS, ContentionFacts.contendedPosts(r));
        assertEquals(ContentionFacts.DEFAULT_RECORD_ACQUISITIONS, ContentionFacts.recordAcquisitions(w, p));
        assertEquals(ContentionFacts.DEFAULT_BALANCE, ContentionFacts.balance(r));
        assertEquals(ContentionFacts.DEFAULT_AUDITED, ContentionFacts.audited(r));
        assertEquals(ContentionFacts.DEFAULT_JOURNAL_TOTAL, ContentionFacts.journalTotal(w, p));
        assertEquals(10, ContentionFacts.ledgerClassAcquisitions(r));
    }

    /**
     * The planted part really blocks: while an audit holds the ledger, a post from another thread is blocked on it
     * for at least the planted hold, and the audit returns only after the post was seen blocked.
     */
    @Test
    void anAuditHoldsThePostUntilItIsBlocked() throws Exception {
        Ledger ledger = new Ledger();
        AtomicBoolean held = new AtomicBoolean();
        AtomicLong waited = new AtomicLong();
        Thread poster = new Thread(() -> {
            while (!held.get()) {
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            ledger.post(7);
            waited.set(System.nanoTime() - start);
        }, "test-poster");
        poster.start();
        long seen = ledger.audit(poster, () -> held.set(true));
        poster.join();
        assertEquals(0, seen, "the audit ran before the post");
        assertEquals(7, ledger.balance());
        assertTrue(waited.get() >= ContentionFacts.MIN_PLANTED_WAIT_NS, "waited " + waited.get() + " ns");
    }

    @Test
    void rejectsArgumentsOutsideThePlantedRange() {
        assertThrows(IllegalArgumentException.class, () -> run(-1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> run(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> run(1, 1, -1));
    }

    private static List<String> run(int rounds, int workers, int records) throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ContentionApp.run(rounds, workers, records, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
