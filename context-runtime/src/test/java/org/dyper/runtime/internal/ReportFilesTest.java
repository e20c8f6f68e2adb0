package org.dyper.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report files are replaced whole: never seen half-written, never lost to a failed or killed write. */
class ReportFilesTest {
    @TempDir
    Path dir;

    @Test
    void aReaderNeverSeesAHalfWrittenReport() throws Exception {
        Path file = dir.resolve("report.xml");
        int size = 2 << 20;
        String a = "a".repeat(size) + "END-A\n";
        String b = "b".repeat(size) + "END-B\n";
        ReportHook.writeFile(file.toString(), a);
        AtomicBoolean done = new AtomicBoolean();
        List<String> seen = new ArrayList<>();
        long[] reads = {0};
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                try {
                    byte[] got = Files.readAllBytes(file);
                    reads[0]++;
                    String end = got.length < 6 ? "" : new String(got, got.length - 6, 6, StandardCharsets.US_ASCII);
                    if (got.length != size + 6 || !end.equals("END-A\n") && !end.equals("END-B\n")
                            || got[0] != (end.equals("END-A\n") ? 'a' : 'b')) {
                        synchronized (seen) {
                            seen.add(got.length + " bytes ending '" + end.trim() + "'");
                        }
                    }
                } catch (NoSuchFileException gone) {
                    synchronized (seen) {
                        seen.add("no file");
                    }
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        watcher.start();
        for (int i = 0; i < 30; i++) {
            ReportHook.writeFile(file.toString(), i % 2 == 0 ? b : a);
        }
        done.set(true);
        watcher.join();
        assertTrue(reads[0] > 0);
        synchronized (seen) {
            assertEquals(List.of(), seen.subList(0, Math.min(5, seen.size())), seen.size() + " incomplete reads of "
                    + reads[0]);
        }
        assertEquals(List.of(file), listing());
    }

    private List<Path> listing() throws IOException {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Test
    void temporaryFilesOfWritersThatDiedAreRemovedAndPermissionsKept() throws IOException {
        Path file = dir.resolve("report.txt");
        Files.writeString(file, "previous");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Path stale = Files.writeString(dir.resolve(".report.txt.999999999.3.tmp"), "half");
        Path other = Files.writeString(dir.resolve(".other.txt.999999999.3.tmp"), "not this report's");
        ReportHook.writeFile(file.toString(), "new report\n");
        assertEquals("new report\n", Files.readString(file));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertFalse(Files.exists(stale));
        assertTrue(Files.exists(other));
    }

    @Test
    void aSymbolicLinkKeepsPointingAtTheReport() throws IOException {
        Path real = Files.createDirectories(dir.resolve("real")).resolve("report.xml");
        Files.writeString(real, "previous");
        Path link = Files.createSymbolicLink(dir.resolve("link.xml"), real);
        ReportHook.writeFile(link.toString(), "<DYPER_REPORT/>\n");
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("<DYPER_REPORT/>\n", Files.readString(real));
    }

    @Test
    void aFileThatIsNotRegularIsWrittenDirectly() throws IOException {
        ReportHook.writeFile("/dev/null", "discarded\n");
        assertTrue(Files.exists(Path.of("/dev/null")));
    }
}
