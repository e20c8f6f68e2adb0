package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.samples.e2e.E2e.Way;
import org.dyper.samples.nested.NestedApp;
import org.dyper.samples.nested.NestedFacts;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The nested sample ({@code models/nested.xml}) woven every way ({@code dyper run}, {@code dyper run --weaver-agent},
 * {@code dyper weave}) on JDK 17 and 25: the anonymous and local classes, the varargs calls, one overload, the
 * jagged array and the private field of the package-private class are measured with their exact numbers, nothing
 * else is, no warning is printed, and the program's output, which ends with what reflection sees of those classes,
 * is exactly its unwoven output.
 */
class NestedEndToEndTest {
    private static final int SKUS = NestedApp.DEFAULT_SKUS;
    private static final int ROWS = NestedApp.DEFAULT_ROWS;

    @TempDir
    static Path shared;

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void nestedAnonymousLocalAndVarargsAreMeasuredAndNothingReflectionSeesChanges(Way way, Jdk jdk,
            @TempDir Path dir) throws Exception {
        Path xml = dir.resolve("report.xml");
        E2e.Run run = E2e.run(way, jdk, "nested.xml", null, NestedApp.class.getName(), xml, shared);
        assertEquals(0, run.exit(), run.err());
        assertFalse(run.err().contains("warning"), run.err());
        E2e.Run plain = E2e.plain(jdk, NestedApp.class.getName());
        assertEquals(NestedFacts.results(SKUS, ROWS), plain.outLines().subList(0, 3), "the facts no longer describe it");
        assertTrue(plain.outLines().contains("shape " + NestedFacts.INVENTORY + " modifiers 'final' reachable false "
                + "anonymous false local false member false interfaces [] annotations []"), plain.out());
        assertEquals(plain.outLines(), run.outLines(), "weaving changed the program's output or its classes' shape");

        ExitReport report = ExitReport.of(xml);
        assertEquals(NestedFacts.halves(SKUS), report.value("COUNTS", NestedFacts.HALF, "COUNT"));
        assertEquals(NestedFacts.sumAdds(SKUS), report.value("COUNTS", NestedFacts.SUM_ADD, "COUNT"));
        assertEquals(NestedFacts.restocks(SKUS), report.value("CALLS", NestedFacts.RESTOCK, "COUNT"));
        assertEquals(NestedFacts.pricesOfN(SKUS), report.value("TIMING", NestedFacts.PRICE_OF_N, "COUNT"));
        assertFalse(report.sections().get("TIMING").containsKey(NestedFacts.PRICE_OF_ONE),
                "the other overload is not timed: " + report.sections().get("TIMING"));
        Map<String, String> units = report.site("FIELDS", "FIELD:" + NestedFacts.UNITS);
        assertEquals(NestedFacts.restocks(SKUS), Long.parseLong(units.get("WRITES")));
        assertEquals(NestedFacts.restocks(SKUS), Long.parseLong(units.get("UNLOCKED_WRITES")));
        Map<String, String> jagged = report.site("ALLOCATIONS", "TYPE:" + NestedFacts.LONG_2D);
        assertEquals(1, Long.parseLong(jagged.get("COUNT")));
        assertEquals(ROWS, Long.parseLong(jagged.get("TOTAL_LENGTH")));
        Map<String, String> rows = report.site("ALLOCATIONS", "TYPE:" + NestedFacts.LONG_ARRAY);
        assertEquals(ROWS, Long.parseLong(rows.get("COUNT")));
        assertEquals(NestedFacts.rowsTotalLength(ROWS), Long.parseLong(rows.get("TOTAL_LENGTH")));
        assertEquals(NestedFacts.halves(SKUS), report.value("ALLOCATIONS", "TYPE:" + NestedFacts.HALF_TYPE, "COUNT"));
        assertEquals("0", report.failures().get("TOTAL"));
    }
}
