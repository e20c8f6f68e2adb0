package org.dyper.patch.launch;

import org.dyper.patch.aspectj.Woven;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.build.Replacements;
import org.dyper.patch.build.Weaver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launch cache ({@code dyper run}): reused while the inputs are the same, one entry per way, and it keeps the
 * generator's warnings; woven ahead, it holds exactly the patched classes keyed by their original bytes.
 */
class LaunchCacheTest {
    private static final String MODEL = "<MODEL NAME='t'>\n"
            + "<FOR CLASS='org.example.fixture.Target' METHOD='add'>\n<PATCH WHAT='ENTER' MODE='COUNT'/>\n</FOR>\n"
            + "<FOR CLASS='org.example.fixture.Target' METHOD='gone'>\n<PATCH WHAT='ENTER' MODE='COUNT'/>\n</FOR>\n"
            + "</MODEL>\n";

    @Test
    void aReusedFolderShowsTheWarningsAgain(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, "<DYPATCH_EXTERNAL NAME='UNUSED' CLASS='x.Y'/>", MODEL);
        Path cache = dir.resolve("cache");
        LaunchCache.Prepared first = LaunchCache.prepare(in, cache);
        LaunchCache.Prepared second = LaunchCache.prepare(in, cache);

        assertFalse(first.cached());
        assertTrue(second.cached());
        assertEquals(first.aspects(), second.aspects());
        assertTrue(Files.isRegularFile(second.aspects().resolve(LaunchWeaving.PREWOVEN)), "woven ahead by default");
        assertEquals("# Dyper launch weaving: class\tSHA-256 of the original class file\n"
                + "org/example/fixture/Target\t" + sha256(dir, "org/example/fixture/Target.class") + "\n",
                Files.readString(second.aspects().resolve(Replacements.DIR + "/replace.tsv")),
                "exactly the patched class, keyed by its original bytes");
        assertFalse(Files.exists(second.aspects().resolve("org/example/fixture/Target.class")),
                "the woven class is served by the replace agent, not from the class path");
        List<String> expected = List.of(dir.resolve("model.xml") + ":5:1: warning: FOR: FOR CLASS='org.example.fixture"
                + ".Target' METHOD='gone' matches no method in the woven code (18 class(es) scanned)");
        assertEquals(expected, first.warnings());
        assertEquals(expected, second.warnings());
    }

    @Test
    void theWeaverAgentWayKeepsItsOwnEntryWithAopXml(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, "<DYPATCH_EXTERNAL NAME='UNUSED' CLASS='x.Y'/>", MODEL);
        Path cache = dir.resolve("cache");
        LaunchCache.Prepared ahead = LaunchCache.prepare(in, cache);
        LaunchCache.Prepared agent = LaunchCache.prepare(in, cache, LaunchOptions.Weaving.AGENT);

        assertFalse(agent.cached(), "a different way is a different entry");
        assertFalse(ahead.aspects().equals(agent.aspects()));
        assertTrue(Files.isRegularFile(agent.aspects().resolve("META-INF/aop.xml")));
        assertFalse(Files.exists(agent.aspects().resolve(LaunchWeaving.PREWOVEN)));
        assertTrue(LaunchCache.prepare(in, cache, LaunchOptions.Weaving.AGENT).cached());
    }

    @Test
    void aChangedTargetClassIsWovenAgain(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, "<DYPATCH_EXTERNAL NAME='UNUSED' CLASS='x.Y'/>", MODEL);
        Path cache = dir.resolve("cache");
        LaunchCache.Prepared first = LaunchCache.prepare(in, cache);
        Path target = in.targets().get(0).resolve("org/example/fixture/Target.class");
        Files.write(target, Files.readAllBytes(target), java.nio.file.StandardOpenOption.APPEND);  // size changes
        LaunchCache.Prepared second = LaunchCache.prepare(in, cache);

        assertFalse(second.cached());
        assertFalse(first.aspects().equals(second.aspects()));
    }

    /** A Dyper built again (its generator's classes changed) does not reuse what the older one wove. */
    @Test
    void aChangedDyperIsNotServedWhatAnOlderOneWove(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, "<DYPATCH_EXTERNAL NAME='UNUSED' CLASS='x.Y'/>", MODEL);
        Path own = Files.createDirectories(dir.resolve("dyper-classes"));
        Files.writeString(own.resolve("Generator.class"), "one");
        String before = LaunchCache.key(in, "ahead", List.of(own));
        assertEquals(before, LaunchCache.key(in, "ahead", List.of(own)), "the same Dyper: the same entry");
        Files.writeString(own.resolve("Generator.class"), "one, fixed");
        assertFalse(before.equals(LaunchCache.key(in, "ahead", List.of(own))));
    }

    private static String sha256(Path dir, String entry) throws Exception {
        byte[] bytes = Files.readAllBytes(dir.resolve("fixture-classes").resolve(entry));
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
