package org.dyper.patch.scan;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one class-path reader: folders, jars, multi-release jars, a class loader, and compounds of them. */
class ClassPathTest {
    @TempDir
    Path dir;

    private Path folder(String name, Map<String, String> files) throws IOException {
        Path root = dir.resolve(name);
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path file = root.resolve(f.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, f.getValue(), UTF_8);
        }
        return root;
    }

    /** A jar of {@code entries} in their order (a name ending in '/' is a directory entry). */
    private Path jar(String name, boolean multiRelease, Map<String, String> entries) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (multiRelease) {
            mf.getMainAttributes().putValue("Multi-Release", "true");
        }
        Path file = dir.resolve(name);
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                JarEntry entry = new JarEntry(e.getKey());
                entry.setTime(1_700_000_000_000L);
                jar.putNextEntry(entry);
                if (!e.getKey().endsWith("/")) {
                    jar.write(e.getValue().getBytes(UTF_8));
                }
                jar.closeEntry();
            }
        }
        return file;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, UTF_8);
    }

    @Test
    void aFolderReadsItsFilesAndListsThemSorted() throws IOException {
        Path root = folder("classes", Map.of("b/B.class", "bee", "a/A.class", "ay", "a/notes.txt", "text"));
        try (ClassPath.Root cp = ClassPath.root(root, 0)) {
            assertEquals("ay", text(cp.read("a/A.class")));
            assertEquals("bee", text(cp.readClass("b.B")));
            assertEquals(root.resolve("a/A.class").toString(), cp.find("a/A.class").source());
            assertNull(cp.read("a/Missing.class"));
            assertNull(cp.read("a"), "a folder is not an entry");
            assertEquals(List.of("a/A.class", "a/notes.txt", "b/B.class"), cp.entries());
            List<String> visited = new ArrayList<>();
            cp.forEach((name, time, data) -> visited.add(name + "=" + time + "=" + text(data.read())));
            assertEquals(List.of("a/A.class=-1=ay", "a/notes.txt=-1=text", "b/B.class=-1=bee"), visited);
        }
    }

    @Test
    void aJarReadsItsEntriesAndListsThemInItsOrder() throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("z/", "");
        entries.put("z/Z.class", "zed");
        entries.put("a/A.class", "ay");
        Path jar = jar("app.jar", false, entries);
        try (ClassPath.Root cp = ClassPath.root(jar, 0)) {
            assertEquals("zed", text(cp.readClass("z.Z")));
            assertEquals(jar + "!/a/A.class", cp.find("a/A.class").source());
            assertNull(cp.read("a/Missing.class"));
            assertNull(cp.read("z/"), "a directory entry has no bytes to read");
            assertEquals(List.of("META-INF/MANIFEST.MF", "z/", "z/Z.class", "a/A.class"), cp.entries());
            List<String> visited = new ArrayList<>();
            cp.forEach((name, time, data) -> {
                if (!name.startsWith("META-INF/")) {
                    visited.add(name + "=" + time + "=" + text(data.read()));
                }
            });
            assertEquals(List.of("z/=1700000000000=null", "z/Z.class=1700000000000=zed",
                    "a/A.class=1700000000000=ay"), visited);
        }
    }

    @ParameterizedTest(name = "Java {0} reads {1}")
    @CsvSource({"0, base", "8, base", "9, base", "11, eleven", "16, eleven", "17, seventeen", "25, seventeen"})
    void aMultiReleaseJarGivesTheVersionTheJavaReleaseLoads(int javaFeature, String expected) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("p/T.class", "base");
        entries.put("META-INF/versions/11/p/T.class", "eleven");
        entries.put("META-INF/versions/17/p/T.class", "seventeen");
        entries.put("p/Only.class", "only base");
        Path jar = jar("mr.jar", true, entries);
        try (ClassPath.Root cp = ClassPath.root(jar, javaFeature)) {
            assertEquals(expected, text(cp.read("p/T.class")));
            assertEquals("only base", text(cp.read("p/Only.class")));
            assertEquals("seventeen", text(cp.read("META-INF/versions/17/p/T.class")), "a versioned name as it is");
            assertEquals(List.of("META-INF/MANIFEST.MF", "p/T.class", "META-INF/versions/11/p/T.class",
                    "META-INF/versions/17/p/T.class", "p/Only.class"), cp.entries(), "every entry, as stored");
        }
    }

    @Test
    void aClassLoaderGivesWhatItCanLoad() throws IOException {
        Path root = folder("loaded", Map.of("l/L.class", "from the loader"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {root.toUri().toURL()}, null);
                ClassPath cp = ClassPath.loader(loader)) {
            ClassPath.Found found = cp.find("l/L.class");
            assertEquals("from the loader", text(found.bytes()));
            assertEquals("l/L.class", found.source());
            assertNull(cp.read("l/Missing.class"));
        }
    }

    @Test
    void aCompoundGivesTheFirstPartThatHoldsAnEntry() throws IOException {
        Path first = folder("first", Map.of("p/Both.class", "first"));
        Path second = jar("second.jar", false, Map.of("p/Both.class", "second", "p/Second.class", "only second"));
        Path third = folder("third", Map.of("p/Both.class", "third", "p/Third.class", "only third"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {third.toUri().toURL()}, null);
                ClassPath cp = ClassPath.compound(List.of(ClassPath.of(List.of(first, dir.resolve("absent.jar"),
                        second), 0), ClassPath.loader(loader)))) {
            assertEquals("first", text(cp.read("p/Both.class")));
            assertEquals("only second", text(cp.read("p/Second.class")));
            assertEquals(second + "!/p/Second.class", cp.find("p/Second.class").source());
            assertEquals("only third", text(cp.read("p/Third.class")));
            assertNull(cp.find("p/Nowhere.class"));
        }
        try (ClassPath cp = ClassPath.of(List.of(second, first), 0)) {
            assertEquals("second", text(cp.read("p/Both.class")), "the order of the roots decides");
        }
    }

    @Test
    void aMissingRootIsAnErrorNamingIt() {
        Path absent = dir.resolve("absent.jar");
        assertEquals(absent + ": no such jar or class folder",
                assertThrows(IOException.class, () -> ClassPath.root(absent, 0)).getMessage());
    }
}
