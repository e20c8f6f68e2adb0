package org.dyper.patch.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TreeFingerprintTest {
    @TempDir
    Path dir;

    private static List<String> items(Path root) throws IOException {
        List<String> items = new ArrayList<>();
        TreeFingerprint.describe(root, items::add);
        return items;
    }

    @Test
    void aFolderIsItsPathAndEveryFilesNameSizeAndTimeSorted() throws IOException {
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve("b"));
        Files.writeString(classes.resolve("b/B.class"), "bb");
        Files.writeString(classes.resolve("A.class"), "a");
        Files.setLastModifiedTime(classes.resolve("A.class"), FileTime.fromMillis(1_000));
        Files.setLastModifiedTime(classes.resolve("b/B.class"), FileTime.fromMillis(2_000));
        assertEquals(List.of(classes.toString(), "A.class:1:1000000000", "b/B.class:2:2000000000"), items(classes));
        Files.setLastModifiedTime(classes.resolve("b/B.class"), FileTime.fromMillis(2_001));
        assertEquals("b/B.class:2:2001000000", items(classes).get(2), "a touched file changes the fingerprint");
    }

    @Test
    void aJarIsItsPathSizeAndTimeAndAMissingOneSaysSo() throws IOException {
        Path jar = Files.writeString(dir.resolve("app.jar"), "12345");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(5));
        assertEquals(List.of(jar.toString(), "5:5000000"), items(jar));
        Path missing = dir.resolve("gone.jar");
        assertEquals(List.of(missing.toString(), "missing"), items(missing));
        assertNotEquals(items(jar), items(missing));
    }
}
