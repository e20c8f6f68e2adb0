package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.samples.bank.BankApp;
import org.dyper.samples.bank.BankFacts;
import org.dyper.samples.e2e.E2e.Way;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bank sample, woven at load time ({@code dyper run}) and by binary weaving ({@code dyper weave} then plain
 * java), on JDK 17 and 25: the XML report has the exact numbers the program determines, and the program's own
 * output is exactly what it prints unwoven.
 */
class BankEndToEndTest {
    private static final int THREADS = BankApp.DEFAULT_THREADS;
    private static final int PER_THREAD = BankApp.DEFAULT_TRANSFERS_PER_THREAD;

    @TempDir
    static Path shared;

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void timingCountingAndReturnedValuesAreExact(Way way, Jdk jdk, @TempDir Path dir) throws Exception {
        Path xml = dir.resolve("report.xml");
        E2e.Run run = run(way, jdk, "bank.xml", null, xml);

        assertEquals(0, run.exit(), run.err());
        assertEquals(BankFacts.expectedOutput(THREADS, PER_THREAD), run.outLines(), "the program's output changed");
        ExitReport report = ExitReport.of(xml);
        // EXIT runs on every exit: the 120 transfers that throw are timed too (the context reached EXIT)
        assertEquals(BankFacts.transferCalls(THREADS, PER_THREAD), report.value("TIMING", BankFacts.TRANSFER, "COUNT"));
        assertEquals(BankFacts.auditCalls(THREADS, PER_THREAD), report.value("TIMING", BankFacts.AUDIT, "COUNT"));
        // EXIT bound to RETURN saw every value fee returned
        assertEquals(BankFacts.feeCalls(THREADS, PER_THREAD), report.value("VALUES", BankFacts.FEE, "COUNT"));
        assertEquals(BankFacts.feeReturnSum(THREADS, PER_THREAD), report.value("VALUES", BankFacts.FEE, "SUM"));
        assertEquals(BankFacts.withdrawCalls(THREADS, PER_THREAD),
                report.value("COUNTS", BankFacts.WITHDRAW, "COUNT"));
        assertEquals(BankFacts.depositCalls(THREADS, PER_THREAD), report.value("COUNTS", BankFacts.DEPOSIT, "COUNT"));
        // the same deposits counted at transfer's call site (COUNT_CALLS) are a separate counter: neither doubles
        assertEquals(BankFacts.depositCalls(THREADS, PER_THREAD), report.value("CALLS", BankFacts.DEPOSIT, "COUNT"));
        assertEquals(BankFacts.accountConstructorCalls(), report.value("COUNTS", BankFacts.ACCOUNT_INIT, "COUNT"));
        assertEquals("0", report.failures().get("TOTAL"));
        assertTrue(report.value("TIMING", BankFacts.AUDIT, "MIN_NS") > 0);
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void sampledTimingCallCountsAndAFailingHook(Way way, Jdk jdk, @TempDir Path dir) throws Exception {
        Path xml = dir.resolve("report.xml");
        E2e.Run run = run(way, jdk, "bank-sampled.xml", "hook-failure.xml", xml);

        assertEquals(0, run.exit(), run.err());
        assertEquals(BankFacts.expectedOutput(THREADS, PER_THREAD), run.outLines(),
                "a failing hook changed the program's output");
        ExitReport report = ExitReport.of(xml);
        Map<String, String> sampled = report.site("SAMPLED_TIMING", BankFacts.TRANSFER);
        assertEquals(BankFacts.transferCalls(THREADS, PER_THREAD), Long.parseLong(sampled.get("COUNT")));
        // one call in 64 per thread and site from a pseudo-random start in 1..64: 2500 = 39 * 64 + 4 transfers give
        // 39 samples, or 40 when the start is <= 4; the start comes from an identity hash, so each worker has 39 or 40
        long samples = Long.parseLong(sampled.get("SAMPLES"));
        assertTrue(samples >= THREADS * (PER_THREAD / 64) && samples <= THREADS * (PER_THREAD / 64 + 1),
                "samples: " + samples);
        assertEquals("false", sampled.get("EXACT"));
        // COUNT_CALLS counts at the call site, in CALLS; the model has no COUNT patch, so COUNTS has no withdraw
        assertEquals(BankFacts.withdrawCalls(THREADS, PER_THREAD),
                report.value("CALLS", BankFacts.WITHDRAW, "COUNT"));
        assertFalse(report.sections().get("COUNTS").containsKey(BankFacts.WITHDRAW),
                "withdraw in COUNTS: " + report.sections().get("COUNTS"));
        assertEquals(Long.toString(BankFacts.auditCalls(THREADS, PER_THREAD)), report.failures().get("TOTAL"));
        assertEquals(BankFacts.auditCalls(THREADS, PER_THREAD), report.value("FAILURES", BankFacts.AUDIT, "COUNT"));
        long lines = run.err().lines().filter(l -> l.startsWith("dyper: hook failed at " + BankFacts.AUDIT)).count();
        assertEquals(1, lines, "the failure is printed once, then counted:\n" + run.err());
    }

    private static E2e.Run run(Way way, Jdk jdk, String model, String modes, Path xml) throws Exception {
        return E2e.run(way, jdk, model, modes, BankApp.class.getName(), xml, shared);
    }
}
