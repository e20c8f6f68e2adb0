package org.dyper.patch.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.aspectj.Woven;
import org.dyper.patch.model.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PATCH whose inputs an earlier PATCH had (the same Dyper, modes, model and class path files) reads its patch from
 * the cache without scanning the class path or generating (docs/runtime-patching.md, the patch cache's `inputs/` folder); any change of
 * an input makes it again.
 */
class PatchServiceInputsTest {
    @TempDir
    Path dir;

    private static final String MODEL = "<MODEL NAME='busy'><FOR CLASS='org.example.inflight.Busy' METHOD='outer'>"
            + "<PATCH WHAT='ENTER' MODE='COUNT'/></FOR><FOR CLASS='org.example.inflight.Busy' METHOD='nothingLikeIt'>"
            + "<PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>";

    private PatchService service() throws Exception {
        PatchService s = new PatchService(ModeCatalog.load(List.of()), new PatchService.TargetClasses(
                List.of(dir.resolve("classes"))), dir.resolve("patches"));
        s.model(MODEL, "test");
        return s;
    }

    private long known() throws Exception {
        Path inputs = dir.resolve("patches/inputs");
        try (Stream<Path> files = Files.list(inputs)) {
            return files.count();
        }
    }

    @Test
    void theSameInputsSkipTheScanAndAChangedInputDoesNot() throws Exception {
        Path busy = dir.resolve("classes/org/example/inflight/Busy.class");
        Files.createDirectories(busy.getParent());
        Files.copy(Woven.TEST_CLASSES.resolve("org/example/inflight/Busy.class"), busy);

        PatchService first = service();
        PatchService.Patched made = first.patch("busy", true, List.of());
        assertFalse(made.cached());
        assertEquals(1, first.scans);
        assertTrue(made.warnings().stream().anyMatch(w -> w.contains("nothingLikeIt")), made.warnings().toString());
        assertEquals(1, known());

        PatchService second = service();
        PatchService.Patched again = second.patch("busy", true, List.of());
        assertEquals(0, second.scans, "known by its inputs: nothing scanned");
        assertTrue(again.cached());
        assertEquals(made.patch().id(), again.patch().id());
        assertEquals(made.dir(), again.dir());
        assertEquals(made.warnings(), again.warnings(), "the generator's warnings are kept with it");
        assertEquals(made.files().toXml(), again.files().toXml());

        // the same bytes with another time: another key, scanned again, the same patch
        Files.setLastModifiedTime(busy, FileTime.fromMillis(Files.getLastModifiedTime(busy).toMillis() + 5000));
        PatchService touched = service();
        PatchService.Patched same = touched.patch("busy", true, List.of());
        assertEquals(1, touched.scans);
        assertEquals(made.patch().id(), same.patch().id());
        assertEquals(2, known());

        // another model (one that patches nothing): another key, so it is generated and refused, not taken from
        // the cache
        PatchService other = new PatchService(ModeCatalog.load(List.of()), new PatchService.TargetClasses(
                List.of(dir.resolve("classes"))), dir.resolve("patches"));
        other.model("<MODEL NAME='busy'><FOR CLASS='org.example.inflight.Busy' METHOD='nothingLikeIt'>"
                + "<PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>", "test");
        InvalidInputException none = assertThrows(InvalidInputException.class, () -> other.patch("busy", true,
                List.of()));
        assertTrue(none.getMessage().contains("patches no class of the target"), none.getMessage());
        assertEquals(1, other.scans);

        // an entry that does not read is as if it were not there
        try (Stream<Path> files = Files.list(dir.resolve("patches/inputs"))) {
            for (Path f : files.toList()) {
                Files.writeString(f, "id\t../../elsewhere\n");
            }
        }
        PatchService broken = service();
        assertEquals(made.patch().id(), broken.patch("busy", true, List.of()).patch().id());
        assertEquals(1, broken.scans);
    }
}
