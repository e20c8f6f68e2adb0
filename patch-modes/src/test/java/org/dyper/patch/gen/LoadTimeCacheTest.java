package org.dyper.patch.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.weave.LoadTime;
import org.dyper.patch.weave.Weaver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The load-time weaving cache: reused while the inputs are the same, and it keeps the generator's warnings. */
class LoadTimeCacheTest {
    private static final String MODEL = "<MODEL NAME='t'>\n"
            + "<FOR CLASS='org.example.fixture.Target' METHOD='add'>\n<PATCH WHAT='ENTER' MODE='COUNT'/>\n</FOR>\n"
            + "<FOR CLASS='org.example.fixture.Target' METHOD='gone'>\n<PATCH WHAT='ENTER' MODE='COUNT'/>\n</FOR>\n"
            + "</MODEL>\n";

    @Test
    void aReusedFolderShowsTheWarningsAgain(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, "<DYPATCH_EXTERNAL NAME='UNUSED' CLASS='x.Y'/>", MODEL);
        Path cache = dir.resolve("cache");
        LoadTime.Prepared first = LoadTime.prepare(in, cache);
        LoadTime.Prepared second = LoadTime.prepare(in, cache);

        assertFalse(first.cached());
        assertTrue(second.cached());
        assertEquals(first.aspects(), second.aspects());
        assertTrue(Files.isRegularFile(second.aspects().resolve("META-INF/aop.xml")));
        List<String> expected = List.of(dir.resolve("model.xml") + ":5:1: warning: FOR: FOR CLASS='org.example.fixture"
                + ".Target' METHOD='gone' matches no method in the woven code (1 class(es) scanned)");
        assertEquals(expected, first.warnings());
        assertEquals(expected, second.warnings());
    }
}
