package org.dyper.patch.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A woven jar written with the unchanged entries copied compressed as they are ({@link RawJarCopy}) holds exactly
 * what the entry-by-entry copy holds: the same names in the same order, the same bytes, signature files dropped, the
 * manifest's digests removed, the module descriptor rewritten, replaced, dropped and added entries; it reads with
 * {@link JarFile} and, entry after entry, with {@link JarInputStream}; and the copied entries keep their compressed
 * bytes (a jar deflated at level 9 stays so, which no second deflation at the default level gives).
 */
class JarOutputTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"JarOutputStream (data descriptors, level 9)", "ZipOutputStream, stored entries"})
    void rawCopyHoldsWhatTheEntryCopyHolds(String kind) throws Exception {
        Path input = kind.startsWith("Jar") ? deflatedJar() : storedJar();
        Map<String, byte[]> changes = new LinkedHashMap<>();
        changes.put("p/A.class", bytes("woven A"));
        changes.put("p/Gone.class", null);
        changes.put("META-INF/dyper/sites.tsv", bytes("1\tMETHOD\tp.A\tf\t\n"));
        Path raw = dir.resolve("raw.jar");
        Path copied = dir.resolve("copied.jar");
        List<String> rawNotes = JarOutput.write(input, raw, changes, JarOutputTest::rewritten, true);
        List<String> copiedNotes = JarOutput.write(input, copied, changes, JarOutputTest::rewritten, false);

        assertEquals(copiedNotes, rawNotes);
        assertEquals(List.of("dropped signature file META-INF/SIGNER.SF: woven classes no longer match the signature"),
                rawNotes);
        Map<String, byte[]> expected = contents(copied);
        assertEquals(List.of("META-INF/MANIFEST.MF", "p/", "p/A.class", "p/B.class", "p/\u00e9t\u00e9.txt",
                "module-info.class", "META-INF/dyper/sites.tsv"), new ArrayList<>(expected.keySet()));
        Map<String, byte[]> actual = contents(raw);
        assertEquals(expected.keySet(), actual.keySet());
        for (String name : expected.keySet()) {
            assertArrayEquals(expected.get(name), actual.get(name), name);
        }
        assertArrayEquals(bytes("woven A"), actual.get("p/A.class"));
        assertArrayEquals(bytes("module X"), actual.get("module-info.class"));
        Manifest m = new Manifest(new java.io.ByteArrayInputStream(actual.get("META-INF/MANIFEST.MF")));
        assertEquals("p.A", m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
        assertEquals(Map.of(), m.getEntries(), "the signature's digests are gone");
        assertEquals(expected.keySet().stream().toList(), streamed(raw), "read entry after entry");
        try (ZipFile in = new ZipFile(input.toFile()); ZipFile out = new ZipFile(raw.toFile())) {
            for (String copiedName : List.of("p/B.class", "p/\u00e9t\u00e9.txt")) {
                ZipEntry a = in.getEntry(copiedName);
                ZipEntry b = out.getEntry(copiedName);
                assertEquals(a.getCompressedSize(), b.getCompressedSize(), copiedName + " copied as it was compressed");
                assertEquals(a.getCrc(), b.getCrc(), copiedName);
                assertEquals(a.getMethod(), b.getMethod(), copiedName);
            }
        }
        try (JarFile verified = new JarFile(raw.toFile(), true)) {
            assertNotNull(verified.getManifest());
        }
    }

    private Path deflatedJar() throws IOException {
        Path jar = dir.resolve("in-deflated.jar");
        Manifest mf = manifest();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf)) {
            out.setLevel(Deflater.BEST_COMPRESSION);
            put(out, "META-INF/SIGNER.SF", bytes("Signature-Version: 1.0\n"));
            put(out, "p/", null);
            for (String name : List.of("p/A.class", "p/Gone.class", "p/B.class")) {
                put(out, name, bytes((name + " ").repeat(200)));
            }
            put(out, "p/\u00e9t\u00e9.txt", bytes("summer ".repeat(100)));
            put(out, "module-info.class", bytes("module"));
        }
        return jar;
    }

    private Path storedJar() throws IOException {
        Path jar = dir.resolve("in-stored.jar");
        ByteArrayOut mf = new ByteArrayOut();
        manifest().write(mf);
        try (OutputStream file = Files.newOutputStream(jar); ZipOutputStream out = new ZipOutputStream(file)) {
            stored(out, "META-INF/MANIFEST.MF", mf.toByteArray());
            stored(out, "META-INF/SIGNER.SF", bytes("Signature-Version: 1.0\n"));
            stored(out, "p/", new byte[0]);
            for (String name : List.of("p/A.class", "p/Gone.class", "p/B.class")) {
                stored(out, name, bytes((name + " ").repeat(200)));
            }
            stored(out, "p/\u00e9t\u00e9.txt", bytes("summer ".repeat(100)));
            stored(out, "module-info.class", bytes("module"));
        }
        return jar;
    }

    private static Manifest manifest() {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "p.A");
        Attributes digest = new Attributes();
        digest.putValue("SHA-256-Digest", "AAAA");
        mf.getEntries().put("p/A.class", digest);
        return mf;
    }

    private static void put(ZipOutputStream out, String name, byte[] data) throws IOException {
        out.putNextEntry(new JarEntry(name));
        if (data != null) {
            out.write(data);
        }
        out.closeEntry();
    }

    private static void stored(ZipOutputStream out, String name, byte[] data) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setMethod(ZipEntry.STORED);
        e.setSize(data.length);
        e.setCompressedSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        e.setCrc(crc.getValue());
        out.putNextEntry(e);
        out.write(data);
        out.closeEntry();
    }

    private static byte[] rewritten(byte[] descriptor) {
        return bytes(new String(descriptor, StandardCharsets.UTF_8) + " X");
    }

    private static Map<String, byte[]> contents(Path jar) throws IOException {
        Map<String, byte[]> all = new LinkedHashMap<>();
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (ZipEntry e : java.util.Collections.list(z.entries())) {
                try (InputStream in = z.getInputStream(e)) {
                    all.put(e.getName(), in.readAllBytes());
                }
            }
        }
        return all;
    }

    /** The names as a stream reader meets them, reading each entry's data through its local header. */
    private static List<String> streamed(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (InputStream file = Files.newInputStream(jar); java.util.zip.ZipInputStream in =
                new java.util.zip.ZipInputStream(file)) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                in.readAllBytes();
                names.add(e.getName());
            }
        }
        return names;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final class ByteArrayOut extends java.io.ByteArrayOutputStream {}
}
