package org.dyper.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Problem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModeCatalogTest {
    private static final Set<String> LIBRARY = Set.of("COUNT", "COUNT_CALLS", "TIME_ENTER", "TIME_EXIT", "SAMPLE_ENTER",
            "SAMPLE_EXIT", "RECORD_RETURN", "RECORD_RETURN_REF", "RECORD_ARG1",
            "LOCK_TEST", "LOCK_ENTER", "LOCK_EXIT", "ALLOC", "ALLOC_ARRAY", "FIELD_WATCH", "FIELD_WATCH_REF",
            "BLOCK_COUNT", "TRACE_ENTER", "TRACE_ENTER_ARG1", "TRACE_EXIT", "TRACE_EXIT_RETURN", "TRACE_CALL", "TRACE_CALL_END", "TRACE_ALLOC",
            "TRACE_ALLOC_ARRAY", "TRACE_FIELD_WRITE", "TRACE_FIELD_WRITE_REF", "EVENT");

    @TempDir
    Path dir;

    private Path write(String name, String xml) throws Exception {
        return Files.writeString(dir.resolve(name), xml);
    }

    private static String mode(String name, String method) {
        return "<DYPATCH_MODE NAME='" + name + "' DESCRIPTION='user " + name + "'><CODE TYPE='CALL' CLASS='org.u.Hooks' METHOD='"
                + method + "' SIGNATURE='(int)'><ARG TYPE='METHODID'/></CODE></DYPATCH_MODE>";
    }

    @Test
    void libraryHoldsTheStandardModesEachDescribed() {
        ModeCatalog catalog = ModeCatalog.library();
        assertEquals(LIBRARY, catalog.names());
        assertEquals(List.of("COUNT", "COUNT_CALLS", "TIME_ENTER", "TIME_EXIT", "SAMPLE_ENTER", "SAMPLE_EXIT",
                        "RECORD_RETURN", "RECORD_RETURN_REF", "RECORD_ARG1", "LOCK_TEST", "LOCK_ENTER", "LOCK_EXIT", "ALLOC",
                        "ALLOC_ARRAY", "FIELD_WATCH", "FIELD_WATCH_REF", "BLOCK_COUNT", "TRACE_ENTER",
                        "TRACE_ENTER_ARG1", "TRACE_EXIT", "TRACE_EXIT_RETURN", "TRACE_CALL", "TRACE_CALL_END",
                        "TRACE_ALLOC", "TRACE_ALLOC_ARRAY", "TRACE_FIELD_WRITE", "TRACE_FIELD_WRITE_REF", "EVENT"),
                catalog.libraryModes().stream().map(ModeCatalog.Entry::name).toList());
        for (ModeCatalog.Entry entry : catalog.libraryModes()) {
            assertFalse(entry.description().isBlank(), entry.name());
            assertFalse(entry.description().contains("\n"), entry.name());
        }
        assertEquals(List.of(), catalog.warnings());
        assertEquals("org.dyper.runtime.Timing", catalog.mode("TIME_ENTER").orElseThrow().codes().get(0).className());
        assertEquals("long", catalog.mode("SAMPLE_EXIT").orElseThrow().contextClass());
        assertEquals(Optional.empty(), catalog.mode("count"));
        assertEquals(Optional.empty(), catalog.external("COUNT"));
    }

    @Test
    void addsUserModesAndExternals() throws Exception {
        Path file = write("user.xml", "<DYPATCH>\n" + mode("HIT", "hit")
                + "\n<DYPATCH_EXTERNAL NAME='PROF' CLASS='org.u.Prof'/>\n</DYPATCH>");
        ModeCatalog catalog = ModeCatalog.load(List.of(file));
        assertTrue(catalog.names().containsAll(LIBRARY));
        assertTrue(catalog.names().containsAll(Set.of("HIT", "PROF")));
        assertEquals("hit", catalog.mode("HIT").orElseThrow().codes().get(0).method());
        assertEquals("org.u.Prof", catalog.external("PROF").orElseThrow().className());
        assertEquals(Optional.of("user HIT"), catalog.description("HIT"));
        assertEquals(LIBRARY.size(), catalog.libraryModes().size());
        assertEquals(List.of(), catalog.warnings());
    }

    /** The patch cache's key takes the catalog's fingerprint (PatchServiceInputsTest): the bytes that were read. */
    @Test
    void theFingerprintChangesWithTheUserFilesBytesOnly() throws Exception {
        Path file = write("user.xml", "<DYPATCH>\n" + mode("HIT", "hit") + "\n</DYPATCH>");
        String first = ModeCatalog.load(List.of(file)).fingerprint();
        assertEquals(first, ModeCatalog.load(List.of(file)).fingerprint(), "the same bytes");
        assertEquals(ModeCatalog.library().fingerprint(), ModeCatalog.load(List.of()).fingerprint());
        assertFalse(first.equals(ModeCatalog.library().fingerprint()), "a user file counts");
        write("user.xml", "<DYPATCH>\n" + mode("HIT", "hits") + "\n</DYPATCH>");
        assertFalse(first.equals(ModeCatalog.load(List.of(file)).fingerprint()), "another method called");
    }

    @Test
    void userModeReplacesLibraryModeWithAWarning() throws Exception {
        Path file = write("user.xml", "<DYPATCH>\n  " + mode("COUNT", "mine") + "\n</DYPATCH>");
        ModeCatalog catalog = ModeCatalog.load(List.of(file));
        assertEquals("mine", catalog.mode("COUNT").orElseThrow().codes().get(0).method());
        assertEquals(Optional.of("user COUNT"), catalog.description("COUNT"));
        int libraryLine = ModeCatalog.library().mode("COUNT").orElseThrow().at().line();
        assertEquals(List.of(file + ":2:3: warning: DYPATCH_MODE: mode 'COUNT' replaces the library mode of the same name"
                        + " (org/dyper/patch/library/modes.xml:" + libraryLine + ":3)"),
                catalog.warnings().stream().map(Problem::toString).toList());
    }

    @Test
    void externalMayReplaceALibraryMode() throws Exception {
        Path file = write("user.xml", "<DYPATCH_EXTERNAL NAME='TIME_ENTER' CLASS='org.u.Timer'/>");
        ModeCatalog catalog = ModeCatalog.load(List.of(file));
        assertEquals(Optional.empty(), catalog.mode("TIME_ENTER"));
        assertEquals("org.u.Timer", catalog.external("TIME_ENTER").orElseThrow().className());
        assertEquals(1, catalog.warnings().size());
    }

    @Test
    void sameNameInTwoUserFilesIsAnErrorNamingBoth() throws Exception {
        Path a = write("a.xml", "<DYPATCH>\n  " + mode("HIT", "a") + "\n</DYPATCH>");
        Path b = write("b.xml", "<DYPATCH>\n\n  " + mode("HIT", "b") + "\n</DYPATCH>");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ModeCatalog.load(List.of(a, b)));
        assertEquals(List.of(b + ":3:3: DYPATCH_MODE: duplicate mode NAME='HIT'; also defined at " + a + ":2:3"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void reportsTheProblemsOfEveryFileTogether() throws Exception {
        Path a = write("a.xml", "<DYPATCH>\n  <DYPATCH_MODE/>\n</DYPATCH>");
        Path b = write("b.xml", "<DYPATCH><FOO/></DYPATCH>");
        Path missing = dir.resolve("missing.xml");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ModeCatalog.load(List.of(a, b, missing)));
        assertEquals(List.of(
                        a + ":2:3: DYPATCH_MODE: missing attribute NAME",
                        a + ":2:3: DYPATCH_MODE: a mode needs at least one CODE",
                        b + ":1:10: FOO: unknown element in DYPATCH (allowed: DYPATCH_MODE, DYPATCH_EXTERNAL)",
                        missing + ":0:0: FILE: cannot read: NoSuchFileException: " + missing),
                e.problems().stream().map(Problem::toString).toList());
    }
}
