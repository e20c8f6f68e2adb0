package org.dyper.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.dyper.runtime.internal.Failures;
import org.dyper.runtime.internal.Registry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The switch, hook failures and reset. */
class DyperTest {
    private final PrintStream originalErr = System.err;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void captureStderr() {
        Dyper.reset();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
        Dyper.setEnabled(true);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void switchIsOnByDefaultAndCanBeTurnedOff() {
        assertTrue(Dyper.on());
        Dyper.setEnabled(false);
        assertFalse(Dyper.on());
        Dyper.setEnabled(true);
        assertTrue(Dyper.on());
    }

    /** A throwable whose every describing method throws, as a broken user exception might. */
    static final class EvilThrowable extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("getMessage");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString");
        }

        @Override
        public String getLocalizedMessage() {
            throw new IllegalStateException("getLocalizedMessage");
        }
    }

    @Test
    void hookFailedNeverThrowsCountsPerIdAndPrintsOnceFirstFailureKept() {
        int id = 70_001;
        Sites.define(id + "\tMETHOD\torg.x.Bank\ttransfer\tint,int,long");
        Dyper.hookFailed(id, new EvilThrowable());
        Dyper.hookFailed(id, new IllegalStateException("second"));
        Dyper.hookFailed(id, null);
        Dyper.hookFailed(id + 1, new IllegalArgumentException("other site"));

        assertEquals(3, Failures.count(id));
        assertEquals(1, Failures.count(id + 1));
        assertEquals(EvilThrowable.class.getName() + ": <getMessage() threw java.lang.IllegalStateException>",
                Failures.first(id));
        String expectedLine = "dyper: hook failed at org.x.Bank.transfer(int,int,long): " + Failures.first(id)
                + " (further failures are counted)";
        String[] lines = stderr().split("\\R");
        assertEquals(2, lines.length, stderr());
        assertEquals(expectedLine, lines[0]);
        assertEquals("dyper: hook failed at #70002: java.lang.IllegalArgumentException: other site "
                + "(further failures are counted)", lines[1]);
    }

    @Test
    void hookFailedWithNullThrowable() {
        Dyper.hookFailed(70_010, null);
        assertEquals(1, Failures.count(70_010));
        assertEquals("null", Failures.first(70_010));
    }

    @Test
    void absurdIdsAreCountedAsFailuresNotAllocated() {
        int[] absurd = {Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 30, -(1 << 25)};
        for (int id : absurd) {
            Counting.count(id);
            Counting.count(id);
            Counting.countCall(id);
            Timing.exit(id, Timing.enter(id));
            assertEquals(0, SampledTiming.enter(id));
            Values.record(id, 1);
            Values.recordRef(id, null);
            assertEquals(7, Failures.count(id), "id " + id);
            assertTrue(Failures.first(id).startsWith("java.lang.IndexOutOfBoundsException: site id " + id),
                    Failures.first(id));
        }
        assertEquals(absurd.length, stderr().lines().count(), stderr());
        assertTrue(Registry.snapshot().isEmpty());
    }

    @Test
    void resetClearsEveryThreadIncludingEndedOnes() throws InterruptedException {
        Thread t = new Thread(() -> {
            Counting.count(5);
            Counting.countCall(5);
            Counting.countCall(5);
            Values.record(5, 9);
        });
        t.start();
        t.join();
        Counting.count(5);
        Counting.countCall(5);
        Dyper.hookFailed(5, new RuntimeException("x"));
        assertEquals(2, Registry.snapshot().count(5));
        assertEquals(3, Registry.snapshot().calls(5));

        Dyper.reset();
        assertTrue(Registry.snapshot().isEmpty());
        assertEquals(0, Registry.snapshot().calls(5));
        assertEquals(0, Failures.count(5));

        Counting.count(5);
        assertEquals(1, Registry.snapshot().count(5));
        assertEquals(0, Registry.snapshot().calls(5), "this thread's call counts were cleared by the reset");
        Counting.countCall(5);
        assertEquals(1, Registry.snapshot().calls(5));
        Dyper.hookFailed(5, new RuntimeException("again"));
        assertEquals(1, stderr().lines().count(), "a site announced before a reset is not announced again");
    }

    // ---- hooks of the user's own: re-entry, stack overflow, failures of the failure handling ----

    private static final int PATCHED = 70_030;
    private static int patchedRuns;

    /** A patched method as generated code runs it: ENTER COUNT, then a hook of the user's own (see Generator). */
    private static void patched() {
        patchedRuns++;
        if (Dyper.on()) {
            try {
                Counting.count(PATCHED);
            } catch (Throwable t$) {
                Dyper.hookFailed(PATCHED, t$);
            }
        }
        if (Dyper.on()) {
            try {
                Dyper.enterHook();
                usersHook();
            } catch (Throwable t$) {
                Dyper.hookFailed(PATCHED, t$);
            } finally {
                Dyper.exitHook();
            }
        }
    }

    /** The user's mode: it calls the patched method again. */
    private static void usersHook() {
        assertFalse(Dyper.on(), "inside a hook nothing is measured");
        assertEquals(0, Dyper.state() & 1, "inside a hook the state is off");
        patched();
    }

    @Test
    void patchedCodeThatAHookCallsIsNotMeasured() {
        patchedRuns = 0;
        for (int i = 0; i < 10; i++) {
            patched();
        }
        assertEquals(20, patchedRuns);
        assertTrue(Dyper.xmlReport().contains("<SITE ID='" + PATCHED + "' NAME='#" + PATCHED + "' COUNT='10'/>"),
                Dyper.xmlReport());
        assertEquals(0, Failures.count(PATCHED));
        assertTrue(Dyper.on());
        assertEquals(1, Dyper.state() & 3, "outside a hook: on, and the hook bit is not part of the state");
        Dyper.setEnabled(false);
        assertFalse(Dyper.on());
        Dyper.setEnabled(true);
        assertTrue(Dyper.on());
    }

    private static void recurseForever(int n) {
        recurseForever(n + 1);
    }

    @Test
    void aHookThatOverflowsTheStackIsCountedAndReported() {
        int id = 70_040;
        Sites.define(id + "\tMETHOD\torg.x.Deep\tdive\t");
        if (Dyper.on()) {
            try {
                Dyper.enterHook();
                recurseForever(0);
            } catch (Throwable t$) {
                Dyper.hookFailed(id, t$);
            } finally {
                Dyper.exitHook();
            }
        }
        assertEquals(1, Failures.count(id));
        assertEquals("java.lang.StackOverflowError", Failures.first(id));
        assertEquals("dyper: hook failed at org.x.Deep.dive(): java.lang.StackOverflowError (further failures are "
                + "counted)\n", stderr());
        assertTrue(Dyper.textReport().contains("  org.x.Deep.dive()         1  java.lang.StackOverflowError\n"),
                Dyper.textReport());
    }

    private static final int DEEP = 70_050;
    private static long handled;

    /** Overflows the stack, then every frame on the way back reports the overflow, the deepest with no stack left. */
    private static void overflowAndReport(int n) {
        try {
            overflowAndReport(n + 1);
        } catch (StackOverflowError e) {
            Dyper.hookFailed(DEEP, e);
            handled++;
            throw e;
        }
    }

    @Test
    void aFailureWhoseHandlingFailsStillLeavesATrace() {
        handled = 0;
        try {
            overflowAndReport(0);
        } catch (StackOverflowError expected) {
            // every frame reported it
        }
        assertTrue(handled > 100, "handled " + handled);
        assertEquals(handled, Failures.count(DEEP), "every failure that hookFailed returned from is counted, also "
                + "those it had no stack left to record at once (" + Failures.unrecorded + ")");
        assertTrue(Dyper.xmlReport().contains("<SITE ID='" + DEEP + "' NAME='#" + DEEP + "' COUNT='" + handled
                + "' FIRST='java.lang.StackOverflowError"), Dyper.xmlReport());
    }
}
