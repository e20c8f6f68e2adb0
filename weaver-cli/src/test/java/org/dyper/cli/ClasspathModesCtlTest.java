package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small commands: {@code dyper classpath}, {@code dyper modes}, and {@code dyper ctl}'s registry check. */
class ClasspathModesCtlTest extends CliFixture {
    // ---- classpath and modes ----

    @Test
    void classpathPrintsExistingRuntimeJars() {
        Result r = dyper("classpath");
        assertEquals(ExitCode.OK, r.code());
        assertEquals("", r.err());
        assertTrue(r.out().endsWith("\n") && r.out().indexOf('\n') == r.out().length() - 1, r.out());
        List<String> entries = List.of(r.out().strip().split(SEP));
        assertEquals(2, entries.size(), r.out());
        for (String e : entries) {
            assertTrue(Path.of(e).isAbsolute() && Files.exists(Path.of(e)), e);
        }
    }

    @Test
    void modesListsTheLibrary() {
        Result r = dyper("modes");
        assertEquals(ExitCode.OK, r.code());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals("Dyper's mode library (use these names in PATCH MODE='...'):", lines.get(0));
        List<String> names = lines.subList(1, lines.size()).stream().map(l -> l.strip().split(" ")[0]).toList();
        assertTrue(names.containsAll(List.of("COUNT", "TIME_ENTER", "TIME_EXIT", "SAMPLE_ENTER", "SAMPLE_EXIT",
                "RECORD_RETURN")), names.toString());
        // names padded to the longest one (TRACE_FIELD_WRITE_REF), descriptions in one column
        assertTrue(lines.contains("  COUNT                  count executions, one counter per patched method"),
                r.out());
    }

    @Test
    void ctlWarnsAboutARegistryFolderOthersCanWriteTo() throws IOException {
        Path open = Files.createDirectories(dir.resolve("open-registry"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Result r = dyper("ctl", "--dir", open.toString(), "who");
        assertEquals(new Result(ExitCode.OK, "", "dyper: warning: the registry folder " + open + " is writable by other "
                + "users (rwxrwxrwx): they can remove entries or plant false ones; use a folder only you can write to "
                + "(chmod o-w, or the monitor's dir option and dyper ctl --dir)\n" + none(open)), r);
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        assertEquals(new Result(ExitCode.OK, "", none(open)), dyper("ctl", "--dir", open.toString(), "who"));
    }

    private static String none(Path registry) {
        return "dyper: no monitored process in " + registry + " (start one with dyper run, or load the monitor into a "
                + "running JVM with dyper ctl attach PID)\n";
    }
}
