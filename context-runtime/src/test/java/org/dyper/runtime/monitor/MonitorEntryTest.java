package org.dyper.runtime.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Registry entries: reused pids, unreadable entries and a folder others can write to. */
class MonitorEntryTest {
    @TempDir
    Path dir;

    private static final long PID = ProcessHandle.current().pid();
    private static final long STARTED = ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();

    private Path entry(long pid, long start) throws IOException {
        return Files.writeString(dir.resolve(pid + ".monitor"), "pid=" + pid + "\nport=1\nmain=Main\nstart=" + start
                + "\njava=17\ntoken=" + "0".repeat(64) + "\n");
    }

    @Test
    void theEntryOfALiveProcessIsListed() throws IOException {
        entry(PID, STARTED + 300);  // the JVM starts a little after its process
        assertEquals(List.of(PID), MonitorEntry.list(dir, true).stream().map(MonitorEntry::pid).toList());
        assertEquals(PID, MonitorEntry.of(dir, PID).pid());
    }

    @Test
    void anEntryWhosePidWasReusedByANewerProcessIsNotListedAndIsRemoved() throws IOException {
        // an entry of a JVM that started an hour before the process that has its pid now
        Path file = entry(PID, STARTED - 3_600_000);
        assertEquals(List.of(), MonitorEntry.list(dir, false));
        assertTrue(Files.exists(file), "without clean the entry stays");
        assertEquals(List.of(), MonitorEntry.list(dir, true));
        assertFalse(Files.exists(file));
        entry(PID, STARTED - 3_600_000);
        IOException gone = assertThrows(IOException.class, () -> MonitorEntry.of(dir, PID));
        assertEquals("process " + PID + " is gone (its stale entry was removed)", gone.getMessage());
        assertFalse(Files.exists(dir.resolve(PID + ".monitor")));
    }

    @Test
    void unreadableEntriesAreRemovedWhenCleaning() throws IOException {
        Path garbage = Files.writeString(dir.resolve("12345.monitor"), "not an entry\n");
        Path partial = Files.writeString(dir.resolve("12346.monitor"), "pid=12346\nport=\n");
        Path writing = Files.writeString(dir.resolve(".tmp-1.monitor"), "pid=");
        assertEquals(List.of(), MonitorEntry.list(dir, false));
        assertTrue(Files.exists(garbage) && Files.exists(partial));
        assertEquals(List.of(), MonitorEntry.list(dir, true));
        assertFalse(Files.exists(garbage));
        assertFalse(Files.exists(partial));
        assertTrue(Files.exists(writing), "a temporary file being written is not an entry");
    }

    @Test
    void aFolderOthersCanWriteToIsWarnedAbout() throws IOException {
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        assertNull(MonitorEntry.insecureDirectory(dir));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-x---"));
        assertNull(MonitorEntry.insecureDirectory(dir));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals("the registry folder " + dir + " is writable by other users (rwxrwxrwx): they can remove entries "
                + "or plant false ones; use a folder only you can write to (chmod o-w, or the monitor's dir option and "
                + "dyper ctl --dir)", MonitorEntry.insecureDirectory(dir));
        assertNull(MonitorEntry.insecureDirectory(dir.resolve("missing")));
    }
}
