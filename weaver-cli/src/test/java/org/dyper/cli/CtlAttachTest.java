package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dyper ctl attach} sends nothing to a process that does not catch SIGQUIT yet: the JDK's attach begins with
 * one, which ends a JVM in its first milliseconds (no handler yet: the default action) or is lost when the parent
 * ignored it (then the attach waits out its whole timeout: 63 s seen in WhatIfEndToEndTest).
 */
class CtlAttachTest {
    @TempDir
    Path dir;

    @Test
    void theCaughtSignalMaskIsRead() {
        assertEquals(Boolean.TRUE, Ctl.catchesQuit("Name:\tjava\nSigIgn:\t0000000000000002\nSigCgt:\t0000000101005ccd\n"));
        assertEquals(Boolean.FALSE, Ctl.catchesQuit("SigIgn:\t0000000000000006\nSigCgt:\t0000000000000000\n"));
        assertEquals(Boolean.FALSE, Ctl.catchesQuit("SigCgt:\t0000000000000002\n"), "SIGINT only");
        assertEquals(Boolean.TRUE, Ctl.catchesQuit("SigCgt:\tfffffffe7ffbfeff\n"), "all but a few, the top bit set");
        assertNull(Ctl.catchesQuit("Name:\tnot linux\n"));
        assertNull(Ctl.catchesQuit("SigCgt:\tnonsense\n"));
    }

    /** A process that does not catch SIGQUIT (here `sleep`): refused after the wait, and it is still running. */
    @Test
    void aProcessThatDoesNotCatchQuitIsNotSignalled() throws Exception {
        assumeTrue(Files.isRegularFile(Path.of("/proc/self/status")), "needs /proc");
        Process sleep = new ProcessBuilder("sleep", "30").start();
        try {
            long t0 = System.nanoTime();
            CommandFailure f = assertThrows(CommandFailure.class, () -> Ctl.awaitCatchesQuit(sleep.pid(),
                    Path.of("/proc/" + sleep.pid() + "/status"), 300));
            assertTrue(System.nanoTime() - t0 >= 300_000_000L, "it waited for the handler first");
            assertEquals(ExitCode.ATTACH_FAILED, f.code);
            assertEquals("cannot attach to process " + sleep.pid() + ": it does not catch SIGQUIT, which the JDK's "
                    + "attach sends (after 0 s: is it a JVM started with -Xrs, or not a JVM?); nothing was sent, so "
                    + "nothing happened to it", f.getMessage());
            assertTrue(sleep.isAlive());
        } finally {
            sleep.destroy();
            sleep.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The handler appears while it waits (a JVM that finishes starting): it goes on at once. */
    @Test
    void itGoesOnOnceTheHandlerIsThere() throws Exception {
        Path status = dir.resolve("proc/42/status");
        Files.createDirectories(status.getParent());
        Files.writeString(status, "SigCgt:\t0000000000000000\n");
        Thread later = new Thread(() -> {
            try {
                Thread.sleep(200); // planted: the JVM installs its handler a little later
                Path next = Files.writeString(dir.resolve("next"), "SigCgt:\t0000000101005ccd\n");
                Files.move(next, status, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long t0 = System.nanoTime();
        later.start();
        Ctl.awaitCatchesQuit(42, status, 10_000);
        long waited = System.nanoTime() - t0;
        assertTrue(waited >= 150_000_000L && waited < 9_000_000_000L, "went on when the handler came: " + waited);
        later.join();
    }

    @Test
    void aProcessThatIsGoneIsNamed() throws Exception {
        Path status = dir.resolve("proc/43/status");
        Files.createDirectories(dir.resolve("proc"));
        CommandFailure f = assertThrows(CommandFailure.class, () -> Ctl.awaitCatchesQuit(43, status, 1_000));
        assertEquals(ExitCode.NO_PROCESS, f.code);
        assertEquals("no process 43", f.getMessage());
    }
}
