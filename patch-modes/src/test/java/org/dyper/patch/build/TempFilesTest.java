package org.dyper.patch.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a killed run left behind is recognised by its dead process and removed; nothing else is touched. */
class TempFilesTest {
    /** Above Linux's largest pid (2^22), so no process has it. */
    private static final long DEAD = 99_999_999;
    private static final long ME = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void theLeftoversOfDeadProcessesGoTheRestStays() throws IOException {
        Files.createDirectories(dir.resolve("dyper-src-p" + DEAD + "-123/org/x")).resolve("A.aj").toFile()
                .createNewFile();
        Files.writeString(dir.resolve("dyper-woven-p" + DEAD + "-456.jar"), "half a jar");
        Files.writeString(dir.resolve(".dyper-out-p" + DEAD + "-789.jar"), "half a jar");
        Files.createDirectories(dir.resolve("0123456789abcdef01234567.tmp-p" + DEAD + "-42/classes"));
        Files.writeString(dir.resolve("dyper-woven-folder-p" + DEAD + "-7.jar"), "x");
        // still in use: this process's own
        Files.writeString(dir.resolve("dyper-woven-p" + ME + "-1.jar"), "mine");
        // not ours, or not recognisably
        Files.writeString(dir.resolve("dyper-notes.txt"), "a user's file");
        Files.createDirectories(dir.resolve("0123456789abcdef01234567"));
        // an earlier release's leftovers (no pid): a fresh one stays, one a day old goes
        Path fresh = Files.createDirectories(dir.resolve("dyper-src123"));
        Path old = Files.writeString(dir.resolve("dyper-woven456.jar"), "x");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(2))));

        TempFiles.sweep(dir);

        assertEquals(List.of("0123456789abcdef01234567", "dyper-notes.txt", fresh.getFileName().toString(),
                "dyper-woven-p" + ME + "-1.jar"), names());
    }

    @Test
    void namesCarryThePidOfTheirProcess() throws IOException {
        Path entry = TempFiles.entry(dir, "0123456789abcdef01234567");
        Path file = TempFiles.file(dir, "out", ".jar");
        assertTrue(entry.getFileName().toString().startsWith("0123456789abcdef01234567.tmp-p" + ME + "-"), entry.toString());
        assertTrue(file.getFileName().toString().matches("\\.dyper-out-p" + ME + "-\\d+\\.jar"), file.toString());
        TempFiles.sweep(dir);
        assertTrue(Files.exists(entry) && Files.exists(file), "this process still runs");
    }
}
