package org.dyper.runtime.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replace agent hands out a prepared class only for the exact bytes it was prepared from, and says so once. */
class ReplaceAgentTest {
    private static final byte[] ORIGINAL = "original class bytes".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WOVEN = "woven class bytes".getBytes(StandardCharsets.UTF_8);

    private static ReplaceAgent agent(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("com/acme"));
        Files.write(dir.resolve("com/acme/App.class"), WOVEN);
        Files.writeString(dir.resolve(ReplaceAgent.INDEX), "# a comment line\ncom/acme/App\t"
                + ReplaceAgent.sha256(ORIGINAL) + "\n");
        return new ReplaceAgent(dir, ReplaceAgent.readIndex(dir));
    }

    @Test
    void theIndexSkipsCommentsAndKeepsOneEntryPerClass(@TempDir Path dir) throws Exception {
        agent(dir);
        assertEquals(Map.of("com/acme/App", ReplaceAgent.sha256(ORIGINAL)), ReplaceAgent.readIndex(dir));
    }

    @Test
    void thePreparedBytesReplaceTheOriginalOnly(@TempDir Path dir) throws Exception {
        ReplaceAgent agent = agent(dir);
        assertArrayEquals(WOVEN, agent.transform(null, "com/acme/App", null, null, ORIGINAL));
        assertNull(agent.transform(null, "com/acme/Other", null, null, ORIGINAL), "a class not in the index");
        assertNull(agent.transform(null, null, null, null, ORIGINAL), "a hidden class has no name");
        assertNull(agent.transform(null, "com/acme/App", String.class, null, ORIGINAL), "a redefinition");
    }

    @Test
    void aChangedClassRunsUnpatchedAndIsReportedOnce(@TempDir Path dir) throws Exception {
        ReplaceAgent agent = agent(dir);
        byte[] changed = "changed class bytes".getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertNull(agent.transform(null, "com/acme/App", null, null, changed));
            assertNull(agent.transform(null, "com/acme/App", null, null, changed));
        } finally {
            System.setErr(saved);
        }
        assertEquals("dyper: com.acme.App is not the class Dyper prepared its patches for (it changed since, or "
                + "another agent changed it); it runs without them\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aMissingReplacementFileIsReportedAndTheClassLoadsUnchanged(@TempDir Path dir) throws Exception {
        ReplaceAgent agent = agent(dir);
        Files.delete(dir.resolve("com/acme/App.class"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertNull(agent.transform(null, "com/acme/App", null, null, ORIGINAL));
        } finally {
            System.setErr(saved);
        }
        String line = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, line.lines().count(), line);
        assertEquals(true, line.startsWith("dyper: replace agent failed for com/acme/App: java.nio.file."), line);
    }
}
