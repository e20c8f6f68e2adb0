package org.dyper.runtime.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one form of a patch set between processes: written, read back, loaded, and its bad input named. */
class PatchSetFilesTest {
    @TempDir
    Path dir;

    private static final String ID = "afde8b868fe1ec4d";
    private static final String ASPECT = "org.dyper.generated.r" + ID + ".DyperPatches1";

    private PatchSetFiles sample() throws Exception {
        Files.write(dir.resolve("Foo.orig"), new byte[] {1, 2, 3});
        Files.write(dir.resolve("Foo.patch"), new byte[] {4, 5});
        Files.write(dir.resolve("Bar.orig"), new byte[] {6});
        Files.write(dir.resolve("aspect.class"), new byte[] {7, 8, 9, 10});
        Files.writeString(dir.resolve("sites.tsv"), "0\tsite\n", StandardCharsets.UTF_8);
        Map<String, String> aspects = new LinkedHashMap<>();
        aspects.put(ASPECT, dir.resolve("aspect.class").toString());
        return new PatchSetFiles("m 'quoted' & <odd>", ID, dir.resolve("sites.tsv").toString(), List.of(
                new PatchSetFiles.ClassEntry("org.x.Foo", dir.resolve("Foo.orig").toString(),
                        dir.resolve("Foo.patch").toString()),
                new PatchSetFiles.ClassEntry("org.x.Bar", dir.resolve("Bar.orig").toString(), null),
                new PatchSetFiles.ClassEntry("org.x.Unpatched", null, null)),
                aspects, List.of("/jars/aspectjrt.jar"), List.of("a note\nover two lines"), List.of("FOR matched <no>"));
    }

    @Test
    void writtenOnceReadBackTheSame() throws Exception {
        PatchSetFiles p = sample();
        String xml = p.toXml();
        assertEquals("<PATCH MODEL='m &apos;quoted&apos; &amp; &lt;odd&gt;' ID='" + ID + "' SITES='"
                + dir.resolve("sites.tsv") + "'><CLASS NAME='org.x.Foo' ORIG='" + dir.resolve("Foo.orig") + "' PATCH='"
                + dir.resolve("Foo.patch") + "'/><CLASS NAME='org.x.Bar' ORIG='" + dir.resolve("Bar.orig")
                + "'/><CLASS NAME='org.x.Unpatched'/><ASPECT NAME='" + ASPECT + "' FILE='" + dir.resolve("aspect.class")
                + "'/><RUNTIME JAR='/jars/aspectjrt.jar'/><NOTE>a note\nover two lines</NOTE><WARNING>FOR matched "
                + "&lt;no&gt;</WARNING></PATCH>", xml);
        assertEquals(p, PatchSetFiles.fromXml(Xml.parse(xml)));
        assertEquals(List.of("org.x.Foo"), p.patchedOnly().classes().stream().map(PatchSetFiles.ClassEntry::name)
                .toList());
    }

    @Test
    void loadReadsEveryFileAndLeavesOutClassesWithoutFiles() throws Exception {
        PatchSet set = sample().load("m");
        assertEquals("m", set.model());
        assertEquals(ID, set.id());
        assertEquals("0\tsite\n", set.siteTable());
        assertEquals(List.of("org.x.Foo", "org.x.Bar"), set.classes().stream().map(ClassPatch::name).toList());
        assertArrayEquals(new byte[] {1, 2, 3}, set.classes().get(0).original());
        assertArrayEquals(new byte[] {4, 5}, set.classes().get(0).patched());
        assertNull(set.classes().get(1).patched());
        assertArrayEquals(new byte[] {7, 8, 9, 10}, set.aspects().get(ASPECT.replace('.', '/')));
        assertEquals(List.of(Path.of("/jars/aspectjrt.jar")), set.runtimeJars());
    }

    @Test
    void theSeedsOneClassLinesAreReadAsTheSameSet() throws Exception {
        PatchSetFiles p = sample();
        String seed = "<MODEL NAME='m' INSERT='TRUE' ID='" + ID + "' SITES='" + dir.resolve("sites.tsv") + "'>"
                + "<PATCH CLASS='org.x.Foo' ORIG='" + dir.resolve("Foo.orig") + "' PATCH='" + dir.resolve("Foo.patch")
                + "'/><ASPECT NAME='" + ASPECT + "' FILE='" + dir.resolve("aspect.class") + "'/>"
                + "<RUNTIME JAR='/jars/aspectjrt.jar'/></MODEL>";
        PatchSetFiles read = PatchSetFiles.fromSeedLines(Xml.parse(seed));
        assertEquals(p.patchedOnly().classes(), read.classes());
        assertEquals(p.aspects(), read.aspects());
        assertEquals(p.runtimeJars(), read.runtimeJars());
        assertEquals(p.sites(), read.sites());
    }

    @Test
    void badInputIsNamed() throws Exception {
        assertEquals("<PATCH> may hold <CLASS>, <ASPECT>, <RUNTIME>, <NOTE> and <WARNING>, not <FOR>",
                assertThrows(IllegalArgumentException.class, () -> PatchSetFiles.fromXml(Xml.parse(
                        "<PATCH ID='x'><FOR/></PATCH>"))).getMessage());
        assertEquals("<ASPECT> needs FILE", assertThrows(IllegalArgumentException.class,
                () -> PatchSetFiles.fromXml(Xml.parse("<PATCH ID='x'><ASPECT NAME='a'/></PATCH>"))).getMessage());
        Path big = dir.resolve("big.class");
        Files.write(big, new byte[(int) PatchSetFiles.MAX_FILE + 1]);
        PatchSetFiles tooLarge = new PatchSetFiles("m", ID, null, List.of(new PatchSetFiles.ClassEntry("a.B",
                big.toString(), null)), Map.of(), List.of(), List.of(), List.of());
        assertEquals("ORIG of a.B (" + big + ") is too large: 16777217 bytes (at most 16777216 per file and "
                + "268435456 in all)", assertThrows(IllegalArgumentException.class, () -> tooLarge.load("m"))
                .getMessage());
    }

    @Test
    void inlinedCarriesTheBytesSoNoFileIsReadWhenLoaded() throws Exception {
        PatchSetFiles inline = sample().inlined();
        String xml = inline.toXml();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        assertEquals("data:;base64,AQID", inline.classes().get(0).original());
        assertEquals("data:;base64,BAU=", inline.classes().get(0).patched());
        assertNull(inline.classes().get(2).original());
        PatchSet set = PatchSetFiles.fromXml(Xml.parse(xml)).load("m");
        assertEquals("0\tsite\n", set.siteTable());
        assertEquals(List.of("org.x.Foo", "org.x.Bar"), set.classes().stream().map(ClassPatch::name).toList());
        assertArrayEquals(new byte[] {1, 2, 3}, set.classes().get(0).original());
        assertArrayEquals(new byte[] {4, 5}, set.classes().get(0).patched());
        assertArrayEquals(new byte[] {6}, set.classes().get(1).original());
        assertArrayEquals(new byte[] {7, 8, 9, 10}, set.aspects().get(ASPECT.replace('.', '/')));
        assertEquals(List.of(Path.of("/jars/aspectjrt.jar")), set.runtimeJars());
        assertEquals("cannot read ORIG of org.x.Foo (" + dir.resolve("Foo.orig") + "): no such file",
                assertThrows(IllegalArgumentException.class, () -> sample0().inlined()).getMessage());
    }

    /** The sample's entries, its files gone. */
    private PatchSetFiles sample0() {
        return new PatchSetFiles("m", ID, null, List.of(new PatchSetFiles.ClassEntry("org.x.Foo",
                dir.resolve("Foo.orig").toString(), null)), Map.of(), List.of(), List.of(), List.of());
    }

    @Test
    void badInlineBytesAreNamed() {
        PatchSetFiles notBase64 = new PatchSetFiles("m", ID, null, List.of(new PatchSetFiles.ClassEntry("a.B",
                PatchSetFiles.DATA + "AQ*D", null)), Map.of(), List.of(), List.of(), List.of());
        assertEquals("ORIG of a.B (given inline) is not base64: Illegal base64 character 2a",
                assertThrows(IllegalArgumentException.class, () -> notBase64.load("m")).getMessage());
        String big = PatchSetFiles.DATA + "A".repeat((int) (PatchSetFiles.MAX_FILE / 3 * 4) + 8);
        PatchSetFiles tooLarge = new PatchSetFiles("m", ID, null, List.of(new PatchSetFiles.ClassEntry("a.B", big,
                null)), Map.of(), List.of(), List.of(), List.of());
        assertEquals("ORIG of a.B (given inline) is too large: about 16777221 bytes (at most 16777216 per file and "
                + "268435456 in all)", assertThrows(IllegalArgumentException.class, () -> tooLarge.load("m"))
                .getMessage());
    }
}
