package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code dyper weave}: a jar or a class folder in, a woven jar out that runs and counts. */
class WeaveCommandTest extends CliFixture {
    // ---- weave ----

    @Test
    void weaveKeepsResourcesAndManifestDropsSignaturesAndTheWovenJarCounts() throws Exception {
        Path input = dir.resolve("app.jar");
        jar(input, "com.acme.cli.App", Map.of("com/acme/cli/greeting.txt", "hello\n", "META-INF/TEST.SF",
                "Signature-Version: 1.0\n"));
        Path woven = dir.resolve("woven.jar");
        Result r = dyper("weave", "--model", "{model}", "--in", input.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Pattern.matches("dyper: wrote " + Pattern.quote(woven.toString())
                + " \\(1 class\\(es\\) patched, 1 advice, 1 site id\\(s\\)\\) in \\d+\\.\\d s\n", r.out()), r.out());
        assertEquals(List.of("dyper: generating aspects for " + input + " ...",
                // COUNT at ENTER: the plain way, no class through ajc (docs/bytecode-pass.md)
                "dyper: weaving 1 patched class(es) with 1 advice (0 of the classes through ajc) ...",
                "dyper: note: dropped signature file META-INF/TEST.SF: woven classes no longer match the signature"),
                r.errLines());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals(SITES, List.of(read(jar, "META-INF/dyper/sites.tsv").split("\n")));
            assertEquals("hello\n", read(jar, "com/acme/cli/greeting.txt"));
            assertEquals("com.acme.cli.App", jar.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
            assertNull(jar.getEntry("META-INF/TEST.SF"));
            assertTrue(Pattern.compile("<aspect name=\"org\\.dyper\\.generated\\.g[0-9a-f]{12}\\.DyperPlain1\"/>")
                    .matcher(read(jar, "META-INF/dyper/aop.xml")).find(), read(jar, "META-INF/dyper/aop.xml"));
        }

        Path report = dir.resolve("weave-report.xml");
        String runtime = dyper("classpath").out().strip();
        Child plain = java(List.of("-cp", classes.toString(), "com.acme.cli.App"));
        Child patched = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp",
                woven + SEP + runtime, "com.acme.cli.App"));
        assertEquals(new Child(0, "total 15\n", ""), plain);
        assertEquals(plain, patched);
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    @Test
    void weavesAClassFolderToo() throws IOException {
        Path woven = dir.resolve("new-folder/deeper/from-folder.jar");  // folders that do not exist yet are made
        Result r = dyper("weave", "--model", "{model}", "--in", "{classes}", "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals(SITES, List.of(read(jar, "META-INF/dyper/sites.tsv").split("\n")));
            assertTrue(jar.getEntry("com/acme/cli/App.class") != null);
        }
    }

    /** dyper weave on a multi-release jar weaves the base class and the versioned one (ajc alone stops on them). */
    @Test
    void weaveWeavesEveryReleaseOfAMultiReleaseJar() throws Exception {
        Path app = multiReleaseJar(dir.resolve("mr-weave.jar"));
        Path woven = dir.resolve("mr-woven.jar");
        Result r = dyper("weave", "--model", "{model}", "--in", app.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals("true", jar.getManifest().getMainAttributes().getValue("Multi-Release"));
            for (String entry : List.of("com/acme/cli/Tally.class", "META-INF/versions/17/com/acme/cli/Tally.class")) {
                try (InputStream in = jar.getInputStream(jar.getJarEntry(entry))) {
                    String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                    assertTrue(text.contains("org/dyper/generated/g"), entry + " is woven");
                }
            }
            try (InputStream in = jar.getInputStream(jar.getJarEntry("META-INF/versions/17/com/acme/cli/Tally.class"))) {
                assertTrue(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("release17"), "the versioned class stays the versioned one");
            }
        }
        Path report = dir.resolve("mr-weave-report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp", woven
                + File.pathSeparator + dyper("classpath").out().trim(), "com.acme.cli.App"));
        assertEquals(new Child(0, "total 15\n", ""), run);
        assertEquals(Map.of(ADD, "5"), counts(report));
    }
}
