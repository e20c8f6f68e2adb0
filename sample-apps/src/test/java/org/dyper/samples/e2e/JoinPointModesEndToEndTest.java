package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.samples.alloc.AllocationApp;
import org.dyper.samples.alloc.AllocationFacts;
import org.dyper.samples.contention.ContentionApp;
import org.dyper.samples.contention.ContentionFacts;
import org.dyper.samples.e2e.E2e.Way;
import org.dyper.samples.unsafe.UnsafeCounterApp;
import org.dyper.samples.unsafe.UnsafeCounterFacts;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The library modes for monitors, allocations and field writes on the samples that plant them, woven at load time
 * and by binary weaving, on JDK 17 and 25: the report names the planted lock, allocation site and unsafe write with
 * the program's exact numbers, and the program's own output is exactly its unwoven output.
 */
class JoinPointModesEndToEndTest {
    @TempDir
    static Path shared;

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void lockContentionNamesThePlantedLock(Way way, Jdk jdk, @TempDir Path dir) throws Exception {
        ExitReport report = runAndCompare(way, jdk, "contention.xml", ContentionApp.class.getName(),
                ContentionFacts.expectedOutput(ContentionApp.DEFAULT_ROUNDS, ContentionApp.DEFAULT_WORKERS,
                        ContentionApp.DEFAULT_RECORDS_PER_WORKER), dir);
        int rounds = ContentionApp.DEFAULT_ROUNDS;
        Map<String, String> post = report.site("LOCKS", ContentionFacts.POST);
        assertEquals(ContentionFacts.postAcquisitions(rounds), Long.parseLong(post.get("ACQUISITIONS")));
        assertEquals(ContentionFacts.contendedPosts(rounds), Long.parseLong(post.get("CONTENDED")));
        assertEquals(ContentionFacts.WAITER, post.get("WAITER"));
        assertEquals(ContentionFacts.HOLDER, post.get("HOLDER"));
        // the auditor keeps the lock at least this long after the poster blocks on it
        assertTrue(Long.parseLong(post.get("MAX_WAIT_NS")) >= ContentionFacts.MIN_PLANTED_WAIT_NS, post.toString());
        assertEquals(ContentionFacts.auditAcquisitions(rounds), report.value("LOCKS", ContentionFacts.AUDIT,
                "ACQUISITIONS"));
        assertEquals(ContentionFacts.recordAcquisitions(ContentionApp.DEFAULT_WORKERS,
                ContentionApp.DEFAULT_RECORDS_PER_WORKER), report.value("LOCKS", ContentionFacts.RECORD, "ACQUISITIONS"));
        // nobody else holds the ledger at an audit, nor a worker's own journal: no waits, whatever the scheduler did
        for (String free : List.of(ContentionFacts.AUDIT, ContentionFacts.RECORD, "LOCK_CLASS:" + ContentionFacts.JOURNAL)) {
            Map<String, String> site = report.site("LOCKS", free);
            assertEquals(List.of("0", "0", "", ""), List.of(site.get("CONTENDED"), site.get("WAIT_NS"),
                    site.get("WAITER"), site.get("HOLDER")), free + ": " + site);
        }
        assertEquals(ContentionFacts.ledgerClassAcquisitions(rounds), report.value("LOCKS",
                "LOCK_CLASS:" + ContentionFacts.LEDGER, "ACQUISITIONS"));
        assertEquals("0", report.failures().get("TOTAL"));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void allocationsPerTypeAndSite(Way way, Jdk jdk, @TempDir Path dir) throws Exception {
        int orders = AllocationApp.DEFAULT_ORDERS;
        int windows = AllocationApp.DEFAULT_WINDOWS;
        int grids = AllocationApp.DEFAULT_GRIDS;
        ExitReport report = runAndCompare(way, jdk, "alloc.xml", AllocationApp.class.getName(),
                AllocationFacts.expectedOutput(orders, windows, grids), dir);
        assertEquals(AllocationFacts.orders(orders), report.value("ALLOCATIONS", AllocationFacts.PLACE, "COUNT"));
        assertEquals(AllocationFacts.orders(orders), report.value("ALLOCATIONS", "TYPE:" + AllocationFacts.ORDER,
                "COUNT"));
        Map<String, String> ints = report.site("ALLOCATIONS", "TYPE:" + AllocationFacts.INT_ARRAY);
        assertEquals(AllocationFacts.intArrays(windows), Long.parseLong(ints.get("COUNT")));
        assertEquals(AllocationFacts.intArrayTotalLength(windows), Long.parseLong(ints.get("TOTAL_LENGTH")));
        assertEquals(AllocationFacts.intArrayMaxLength(windows), Long.parseLong(ints.get("MAX_LENGTH")));
        Map<String, String> grid = report.site("ALLOCATIONS", "TYPE:" + AllocationFacts.STRING_2D);
        assertEquals(AllocationFacts.string2dArrays(grids), Long.parseLong(grid.get("COUNT")));
        assertEquals(AllocationFacts.string2dTotalLength(grids), Long.parseLong(grid.get("TOTAL_LENGTH")));
        assertEquals(AllocationFacts.string2dMaxLength(grids), Long.parseLong(grid.get("MAX_LENGTH")));
        assertEquals(AllocationFacts.orderBooks(), report.value("ALLOCATIONS", "TYPE:" + AllocationFacts.ORDER_BOOK,
                "COUNT"));
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void fieldWatchFlagsTheUnsafeWrite(Way way, Jdk jdk, @TempDir Path dir) throws Exception {
        int workers = UnsafeCounterApp.DEFAULT_WORKERS;
        int hits = UnsafeCounterApp.DEFAULT_HITS_PER_WORKER;
        int quick = UnsafeCounterApp.DEFAULT_QUICK_HITS;
        ExitReport report = runAndCompare(way, jdk, "field-watch.xml", UnsafeCounterApp.class.getName(),
                UnsafeCounterFacts.expectedOutput(workers, hits, quick), dir);
        Map<String, String> field = report.site("FIELDS", "FIELD:" + UnsafeCounterFacts.HITS);
        assertEquals(UnsafeCounterFacts.writes(workers, hits, quick), Long.parseLong(field.get("WRITES")));
        assertEquals(UnsafeCounterFacts.unlockedWrites(quick), Long.parseLong(field.get("UNLOCKED_WRITES")));
        assertEquals(UnsafeCounterFacts.unlockedWrites(quick), report.value("FIELDS", UnsafeCounterFacts.QUICK_HIT,
                "UNLOCKED_WRITES"));
        assertEquals(0, report.value("FIELDS", UnsafeCounterFacts.HIT, "UNLOCKED_WRITES"));
        assertEquals(UnsafeCounterFacts.lockedWrites(workers, hits), report.value("FIELDS", UnsafeCounterFacts.HIT,
                "WRITES"));
    }

    /** Runs the sample woven and checks its output is the unwoven program's (and what its facts say). */
    private static ExitReport runAndCompare(Way way, Jdk jdk, String model, String main, List<String> expected,
                                            Path dir) throws Exception {
        Path xml = dir.resolve("report.xml");
        E2e.Run run = E2e.run(way, jdk, model, null, main, xml, shared);
        assertEquals(0, run.exit(), run.err());
        E2e.Run plain = E2e.plain(jdk, main);
        assertEquals(expected, plain.outLines(), "the program's facts no longer describe it");
        assertEquals(plain.outLines(), run.outLines(), "weaving changed the program's output");
        return ExitReport.of(xml);
    }
}
