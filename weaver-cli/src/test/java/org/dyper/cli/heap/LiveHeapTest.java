package org.dyper.cli.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The CLI reads and deletes only what HEAPDUMP makes: a path in a reply that is anything else (another file, a folder
 * others may enter, a link) is refused and left alone.
 */
class LiveHeapTest {
    @TempDir
    Path dir;

    /** A dump folder of {@code name} with {@code permissions}, holding heap.hprof as a file or a link to a file. */
    private Path planted(String name, String permissions, boolean link) throws Exception {
        Path folder = Files.createDirectory(dir.resolve(name));
        Path file = folder.resolve("heap.hprof");
        if (link) {
            Files.createSymbolicLink(file, Files.writeString(dir.resolve("precious"), "x"));
        } else {
            Files.writeString(file, "JAVA PROFILE 1.0.2");
        }
        Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString(permissions));
        return file;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "another name | other-1 | rwx------ | false | it is not a HEAPDUMP file (<tmp>/dyper-heap-*/heap.hprof)",
        "a folder others may enter | dyper-heap-2 | rwxr-xr-x | false | its folder is open to others",
        "a link | dyper-heap-3 | rwx------ | true | it is not on this machine (the heap report reads the dump where the "
                + "program runs) or not a regular file"})
    void aPathThatHeapdumpDoesNotMakeIsRefusedAndLeftAlone(String what, String folder, String permissions,
            boolean link, String why) throws Exception {
        Path file = planted(folder, permissions, link);
        CommandFailure e = assertThrows(CommandFailure.class, () -> LiveHeap.check(file, 42));
        assertEquals("process 42 dumped its heap to " + file + ", which is not read: " + why, e.getMessage());
        assertEquals(ExitCode.COMMAND_FAILED, e.code);
        assertTrue(Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS), "left alone");
    }

    @Test
    void whatHeapdumpMakesIsReadAndDeletedWithItsFolder() throws Exception {
        Path file = planted("dyper-heap-4", "rwx------", false);
        LiveHeap.check(file, 42);
        LiveHeap.delete(file);
        assertTrue(!Files.exists(file) && !Files.exists(file.getParent()));
    }

    @Test
    void aRelativePathIsRefused() {
        CommandFailure e = assertThrows(CommandFailure.class, () -> LiveHeap.check(Path.of("dyper-heap-5/heap.hprof"),
                42));
        assertTrue(e.getMessage().endsWith("it is not a HEAPDUMP file (<tmp>/dyper-heap-*/heap.hprof)"), e.getMessage());
    }
}
