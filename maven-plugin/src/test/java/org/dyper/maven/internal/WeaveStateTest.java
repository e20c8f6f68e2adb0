package org.dyper.maven.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The weave goal's record of what it wove, and by which Dyper (docs/maven-plugin.md, "Building again"). */
class WeaveStateTest {
    @TempDir
    Path dir;

    @Test
    void classesWovenByAnotherDyperAreToldApart() throws Exception {
        Path state = dir.resolve("weave-state.txt");
        assertEquals(WeaveState.Verdict.CHANGED, WeaveState.check(state, "h1", "d1"), "nothing woven yet");
        WeaveState.write(state, "h1", "d1");
        assertEquals(WeaveState.Verdict.WOVEN, WeaveState.check(state, "h1", "d1"));
        assertEquals(WeaveState.Verdict.CHANGED, WeaveState.check(state, "h2", "d1"), "models or classes changed");
        assertEquals(WeaveState.Verdict.OTHER_DYPER, WeaveState.check(state, "h1", "d2"));
        // the one-line file a plugin before this one wrote
        Files.writeString(state, "h1\n");
        assertEquals(WeaveState.Verdict.OTHER_DYPER, WeaveState.check(state, "h1", "d1"));
        Files.writeString(state, "h0\n");
        assertEquals(WeaveState.Verdict.CHANGED, WeaveState.check(state, "h1", "d1"));
    }

    @Test
    void aDyperBuiltAgainIsAnotherDyper() throws Exception {
        Path jar = Files.writeString(dir.resolve("dyper-runtime-0.1.0.jar"), "classes");
        Path folder = Files.createDirectories(dir.resolve("patch-modes/classes"));
        Files.writeString(folder.resolve("Weaver.class"), "code");
        String before = WeaveState.dyper(List.of(jar, folder));
        assertEquals(before, WeaveState.dyper(List.of(jar, folder)), "the same files, the same Dyper");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 1000));
        String rebuilt = WeaveState.dyper(List.of(jar, folder));
        assertNotEquals(before, rebuilt);
        Files.writeString(folder.resolve("Weaver.class"), "code, fixed");
        assertNotEquals(rebuilt, WeaveState.dyper(List.of(jar, folder)));
        assertEquals(32, before.length());
        assertEquals(64, WeaveState.hash(List.of(jar), List.of(folder)).length());
    }
}
