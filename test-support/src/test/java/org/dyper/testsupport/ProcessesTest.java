package org.dyper.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessesTest {
    @Test
    void runCapturesExitCodeAndBothOutputs() throws Exception {
        Processes.Result r = Processes.run(List.of("sh", "-c", "echo one; echo two; echo oops >&2; exit 3"),
                Duration.ofSeconds(30));
        assertEquals(3, r.exit());
        assertEquals("one\ntwo\n", r.out());
        assertEquals(List.of("one", "two"), r.outLines());
        assertEquals("oops\n", r.err());
        assertEquals(Processes.Result.class, r.getClass());
        assertEquals("x=1\n", Processes.run(List.of("sh", "-c", "echo x=$DYPER_T"), Map.of("DYPER_T", "1"),
                Duration.ofSeconds(30)).out());
    }

    @Test
    void aProgramOverItsTimeLimitIsKilledAndFailsTheTest() throws Exception {
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class, () -> Processes.run(List.of("sh", "-c",
                "echo started; exec sleep 600"), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().startsWith("timed out after 1 s: sh -c echo started; exec sleep 600\n"
                + "stdout so far:\nstarted\n"), e.getMessage());
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(60).toNanos(), "it did not wait for sleep 600");
    }

    @Test
    void aRunningProgramIsReadLineByLineAndStoppedThroughStdin() throws Exception {
        try (Running r = Processes.start(List.of("sh", "-c", "echo ready; echo note >&2; cat; echo done"))) {
            assertEquals("ready", r.line(0, Duration.ofSeconds(30)));
            assertEquals(0, r.stop(Duration.ofSeconds(30)));
            assertEquals(List.of("ready", "done"), r.lines());
            assertEquals("note\n", r.stderr());
            assertFalse(r.process().isAlive());
        }
    }

    @Test
    void waitingForALineThatNeverComesFailsWithStderr() throws Exception {
        try (Running r = Processes.start(List.of("sh", "-c", "echo why >&2; exit 1"))) {
            AssertionError e = assertThrows(AssertionError.class, () -> r.line(0, Duration.ofSeconds(30)));
            assertTrue(e.getMessage().startsWith("no line 0 of output within 30 s (0 came"), e.getMessage());
            r.awaitExit(Duration.ofSeconds(30));
            assertEquals("why\n", r.stderr());
        }
    }

    @Test
    void closingARunningProgramKillsIt() throws Exception {
        Running r = Processes.start(List.of("sleep", "600"));
        r.close();
        assertTrue(r.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
    }
}
