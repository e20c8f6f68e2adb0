package org.dyper.patch.build;

import org.dyper.patch.aspectj.Woven;
import org.dyper.patch.aspectj.GeneratedCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.gentest.Recorder;
import org.dyper.patch.build.Weaver;
import org.example.fixture.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Weaver#weaveFolderInPlace} (the Maven plugin's weave goal): the folder ends up with woven classes, the
 * aspects and the site table, its other resources untouched and aspects of an earlier generation gone; the woven
 * folder behaves like the woven jar.
 */
class WeaveFolderInPlaceTest {
    /** WHAT, and the aspect it gives: ENTER alone is the plain way's shared wrapper, EXIT is AspectJ advice. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"ENTER, DyperPlain1", "EXIT, DyperPatches1"})
    void theFolderIsWovenInPlace(String what, String aspect, @TempDir Path dir) throws Exception {
        String modes = Files.readString(Path.of(getClass().getResource("/gen/recorder-modes.xml").toURI()));
        Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'><FOR CLASS='org.example.fixture.Target' "
                + "METHOD='add'><PATCH WHAT='" + what + "' MODE='ID'/></FOR></MODEL>");
        Path classes = in.targets().get(0);
        Path resource = classes.resolve("org/example/fixture/notes.txt");
        Files.writeString(resource, "kept");
        Path stale = classes.resolve("org/dyper/generated/DyperPatches9.class");
        Files.createDirectories(stale.getParent());
        Files.writeString(stale, "not a class");
        GeneratedCode code = Weaver.generate(in);

        Weaver.weaveFolderInPlace(code, classes, in.classpath());

        assertFalse(Files.exists(stale), "an earlier generation's aspect was kept");
        Path generated = classes.resolve(code.packageName().replace('.', '/'));
        assertTrue(Files.isRegularFile(generated.resolve(aspect + ".class")), aspect);
        assertTrue(Files.isRegularFile(generated.resolve("DyperSites.class")));
        assertEquals(code.siteTable(), Files.readString(classes.resolve(Weaver.SITE_TABLE)));
        assertEquals("kept", Files.readString(resource));
        Recorder.take();
        String result = Woven.runScript(classes);
        assertEquals(Target.script(), result, "weaving changed the program's result");
        assertEquals(List.of("id Target.add(int,int)", "id Target.add(int,int)", "id Target.add(int,int)"),
                Recorder.take());
    }
}
