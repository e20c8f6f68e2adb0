package org.dyper.runtime.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one way to write a file: whole or not at all, with the permissions asked for. (The report's own cases, a
 * reader racing the writer, dead writers' temporary files, links and pipes, are in ReportFilesTest.)
 */
class AtomicWriteTest {
    @TempDir
    Path dir;

    private List<String> listing(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFailingWriterLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path file = dir.resolve("out.txt");
        AtomicWrite.write(file, "old");
        IOException failure = new IOException("disk full");
        assertEquals(failure, assertThrows(IOException.class, () -> AtomicWrite.write(file, out -> {
            out.write("half of the new".getBytes(StandardCharsets.UTF_8));
            throw failure;
        })));
        assertEquals("old", Files.readString(file));
        assertEquals(List.of("out.txt"), listing(dir));
    }

    @Test
    void permissionsAskedForAreTheFilesFromItsCreation() throws IOException {
        Path file = dir.resolve("deeper/entry");
        AtomicWrite.write(file, PosixFilePermissions.fromString("rw-------"), true,
                out -> out.write("token=x\n".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("token=x\n", Files.readString(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxrwxrwx"));
        AtomicWrite.write(file, PosixFilePermissions.fromString("rw-r-----"), false, out -> out.write('y'));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)),
                "the permissions asked for, not those of the file replaced");
    }

    @Test
    void aPrivateFileReplacesALinkInsteadOfWritingThroughIt() throws IOException {
        Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "not to be touched");
        Path entry = Files.createSymbolicLink(dir.resolve("42.monitor"), elsewhere);
        AtomicWrite.write(entry, PosixFilePermissions.fromString("rw-------"), true, out -> out.write('x'));
        assertFalse(Files.isSymbolicLink(entry));
        assertEquals("x", Files.readString(entry));
        assertEquals("not to be touched", Files.readString(elsewhere));
    }

    @Test
    void keptPermissionsAreThoseOfTheFileReplaced() throws IOException {
        Path file = dir.resolve("report.xml");
        Files.writeString(file, "old");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx--x---"));
        AtomicWrite.write(file, "new".getBytes(StandardCharsets.UTF_8));
        assertEquals("rwx--x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("new", Files.readString(file));
    }

    @Test
    void aWriterThatClosesTheStreamStillGetsItsFileForcedAndRenamed() throws IOException {
        Path file = dir.resolve("closed.bin");
        AtomicWrite.write(file, out -> {
            out.write(new byte[] {1, 2, 3});
            out.close();
        });
        assertEquals(3, Files.size(file));
        assertEquals(List.of("closed.bin"), listing(dir));
    }

    @Test
    void aFolderIsPublishedWholeOrTheCompleteOneThereIsKept() throws IOException {
        Path target = dir.resolve("entry");
        Path first = Files.createDirectories(dir.resolve("entry.tmp-1"));
        Files.writeString(first.resolve("complete"), "1");
        assertTrue(AtomicWrite.publishFolder(first, target, d -> Files.isRegularFile(d.resolve("complete"))));
        assertFalse(Files.exists(first));

        Path second = Files.createDirectories(dir.resolve("entry.tmp-2"));
        Files.writeString(second.resolve("complete"), "2");
        assertFalse(AtomicWrite.publishFolder(second, target, d -> Files.isRegularFile(d.resolve("complete"))),
                "another writer's complete folder is used");
        assertEquals("1", Files.readString(target.resolve("complete")));
        assertTrue(Files.exists(second), "left for the caller to remove");

        Files.delete(target.resolve("complete"));
        Files.writeString(target.resolve("half"), "");
        assertThrows(IOException.class,
                () -> AtomicWrite.publishFolder(second, target, d -> Files.isRegularFile(d.resolve("complete"))));
    }
}
