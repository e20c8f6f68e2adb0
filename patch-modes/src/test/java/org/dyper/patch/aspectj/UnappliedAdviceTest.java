package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dyper.patch.launch.LaunchWeaving;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.patch.runtime.RuntimeWeaving;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Advice AspectJ does not apply (its lint {@code adviceDidNotMatch}) reaches the user as a warning naming the patch,
 * in binary weaving, in weaving ahead of a launch and in weaving for a running JVM (where a reused cache entry shows
 * it again). Here the generated
 * pointcut is broken on purpose, as a stand-in for any join point the generator saw and AspectJ does not match.
 */
class UnappliedAdviceTest {
    private static final String T = "org.example.fixture.Target";

    private static GeneratedCode brokenCode(Path dir) throws Exception {
        String modes = Files.readString(Path.of(UnappliedAdviceTest.class.getResource("/gen/recorder-modes.xml")
                .toURI()));
        Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='m'>\n<FOR CLASS='" + T + "' METHOD='add'>\n"
                + "<PATCH WHAT='ENTER' MODE='ID'/>\n<PATCH WHAT='EXIT' MODE='VALUE_RET'/>\n</FOR>\n</MODEL>\n");
        GeneratedCode code = Weaver.generate(in);
        Map<String, String> aspects = new LinkedHashMap<>();
        code.aspects().forEach((name, text) -> aspects.put(name, text.replace("execution(int " + T + ".add(",
                "execution(int " + T + ".addNothing(")));
        return new GeneratedCode(aspects, code.aopXml(), code.siteTable(), code.wovenClasses(), code.siteCount(),
                code.adviceCount(), code.warnings(), code.weaverOptions(), code.bytecode(), code.advised(),
                code.adviceIndex());
    }

    private static String expected(Path dir) {
        return dir + "/model.xml:3:1: warning: PATCH: WHAT='ENTER' MODE='ID' is not measured at execution of " + T
                + ".add(int,int): AspectJ did not weave its advice (DyperPatches1.aj:6, adviceDidNotMatch)";
    }

    @Test
    void binaryWeavingWarnsNamingThePatch(@TempDir Path dir) throws Exception {
        GeneratedCode code = brokenCode(dir);
        List<String> notes = Weaver.weaveBinary(code, Woven.fixtureClasses(dir), dir.resolve("woven.jar"),
                List.of(Woven.TEST_CLASSES));
        List<String> warnings = notes.stream().filter(Weaver::isWarning).toList();
        assertEquals(List.of(expected(dir), expected(dir).replace("WHAT='ENTER' MODE='ID'", "WHAT='EXIT' "
                + "MODE='VALUE_RET'").replace("model.xml:3:1", "model.xml:4:1")), warnings, String.join("\n", notes));
    }

    /**
     * Run-time patching weaves with the same lint (issue 20, item 4: it ran ajc without, so nothing was said), and a
     * patch taken again from the cache says it again.
     */
    @Test
    void runTimeWeavingWarnsNamingThePatchAlsoFromTheCache(@TempDir Path dir) throws Exception {
        GeneratedCode code = brokenCode(dir);
        Map<String, byte[]> originals = Map.of(T, Files.readAllBytes(Woven.fixtureClasses(dir)
                .resolve(T.replace('.', '/') + ".class")));
        String id = RuntimeWeaving.id("m", code, originals);
        List<String> expected = List.of(expected(dir), expected(dir).replace("WHAT='ENTER' MODE='ID'", "WHAT='EXIT' "
                + "MODE='VALUE_RET'").replace("model.xml:3:1", "model.xml:4:1"));
        for (boolean cached : List.of(false, true)) {
            RuntimeWeaving.Woven woven = RuntimeWeaving.weaveCached("m", id, code, originals,
                    List.of(Woven.fixtureClasses(dir), Woven.TEST_CLASSES), dir.resolve("patches"));
            assertEquals(cached, woven.cached());
            assertEquals(expected, RuntimeWeaving.warnings(woven.patch()), String.join("\n", woven.patch().notes()));
            String xml = PatchFiles.files(woven.patch(), woven.dir(), List.of(), List.of()).toXml();
            assertFalse(xml.contains("adviceDidNotMatch"), "a warning is not repeated as a NOTE: " + xml);
        }
    }

    /**
     * Item 4 with ajc in a JVM of the second JDK (the CLI weaves for a running JVM in its own JVM, on whatever JDK the
     * user runs it): the same two warnings, from a fresh weave and from the cache. {@link #main} is that JVM's work.
     */
    @Test
    void runTimeWeavingWarnsTheSameWhenAjcRunsOnJdk25(@TempDir Path dir) throws Exception {
        Processes.Result r = Processes.run(List.of(Jdk.JDK25.java().toString(), "-cp",
                System.getProperty("java.class.path"), UnappliedAdviceTest.class.getName(), dir.toString()),
                Duration.ofSeconds(120));
        assertEquals(0, r.exit(), r.err());
        List<String> expected = List.of(expected(dir), expected(dir).replace("WHAT='ENTER' MODE='ID'", "WHAT='EXIT' "
                + "MODE='VALUE_RET'").replace("model.xml:3:1", "model.xml:4:1"));
        assertEquals(Stream.of(expected, expected).flatMap(List::stream).map(w -> w + "\n").collect(
                Collectors.joining()), r.out(), r.err());
    }

    /** Weaves the broken patch for a running JVM in folder {@code args[0]}, twice (the second from the cache). */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        GeneratedCode code = brokenCode(dir);
        Map<String, byte[]> originals = Map.of(T, Files.readAllBytes(Woven.fixtureClasses(dir)
                .resolve(T.replace('.', '/') + ".class")));
        String id = RuntimeWeaving.id("m", code, originals);
        for (int i = 0; i < 2; i++) {
            RuntimeWeaving.Woven woven = RuntimeWeaving.weaveCached("m", id, code, originals,
                    List.of(Woven.fixtureClasses(dir), Woven.TEST_CLASSES), dir.resolve("patches"));
            RuntimeWeaving.warnings(woven.patch()).forEach(System.out::println);
        }
    }

    @Test
    void weavingAheadOfALaunchWarnsNamingThePatch(@TempDir Path dir) throws Exception {
        GeneratedCode code = brokenCode(dir);
        Path classes = dir.resolve("launch");
        List<String> notes = LaunchWeaving.weave(code, List.of(Woven.fixtureClasses(dir)),
                List.of(Woven.TEST_CLASSES), classes, Runtime.version().feature(), line -> {});
        assertEquals(2, notes.stream().filter(Weaver::isWarning).count(), String.join("\n", notes));
        assertEquals(expected(dir), notes.stream().filter(Weaver::isWarning).findFirst().orElseThrow());
    }
}
