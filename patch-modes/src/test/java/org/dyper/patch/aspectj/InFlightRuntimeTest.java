package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.patch.build.Weaver;
import org.example.inflight.Busy;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Calls in flight while a patch goes in and out: three threads call nested patched methods (contexts in locals),
 * a patched constructor and timed calls (contexts on the per-thread stack) without pause, while the patch is inserted
 * and removed 150 times. Nothing may reach the program, its results may not change, and every EXIT must get the
 * context of its own ENTER: as many EXITs as ENTERs, no mismatch (docs/runtime-patching.md, calls in flight).
 */
class InFlightRuntimeTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(strings = {"17", "25"})
    void everyExitGetsItsOwnContextAndNothingReachesTheProgram(String jdk) throws Exception {
        Path java = Jdk.of(jdk).java();
        Path modes = Path.of(getClass().getResource("/gen/inflight-modes.xml").toURI());
        Path model = dir.resolve("inflight.xml");
        Files.writeString(model, "<MODEL NAME='inflight'><FOR CLASS='org.example.inflight.Busy' METHOD='*'>"
                + "<PATCH WHAT='ENTER' MODE='IN'/><PATCH WHAT='EXIT' MODE='OUT'/></FOR>"
                + "<FOR CLASS='org.example.inflight.Busy' METHOD='outer'>"
                + "<PATCH WHAT='CALL' MODE='IN'><WHEN CASE='METHOD' ARG='inner'/></PATCH>"
                + "<PATCH WHAT='CALL' MODE='OUT'><WHEN CASE='METHOD' ARG='inner'/></PATCH></FOR></MODEL>");
        Path classes = dir.resolve("classes/org/example/inflight");
        Files.createDirectories(classes);
        Files.copy(Woven.TEST_CLASSES.resolve("org/example/inflight/Busy.class"), classes.resolve("Busy.class"));
        Weaver.Inputs in = new Weaver.Inputs(List.of(model), List.of(modes), List.of(dir.resolve("classes")),
                List.of(Woven.TEST_CLASSES));
        var woven = RuntimePatches.patch(in, dir.resolve("patches"));
        assertTrue(woven.patch().patched().containsKey(Busy.class.getName()));
        List<String> cp = new ArrayList<>(List.of(Woven.TEST_CLASSES.toString(),
                Woven.classesOf(PatchFiles.class).toString()));
        Weaver.runtimeClasspath().forEach(p -> cp.add(p.toString()));
        Processes.Result run = Processes.run(List.of(java.toString(), "-javaagent:"
                + RuntimeConformanceTest.agentJar(dir) + "=dir=" + dir.resolve("registry"), "-Ddyper.report=none", "-cp", String.join(File.pathSeparator, cp),
                InFlightRunner.class.getName(), woven.dir().toString(), "150"), Duration.ofSeconds(240));
        Map<String, Long> seen = new HashMap<>();
        for (String line : run.outLines()) {
            String[] f = line.split(" ");
            seen.put(f[0], Long.parseLong(f[1]));
        }
        String err = run.err();
        assertAll("stderr: " + err,
                () -> assertEquals(0, run.exit()),
                () -> assertEquals(150L, seen.get("CYCLES")),
                () -> assertEquals(0L, seen.get("THROWN"), "exceptions that reached the program"),
                () -> assertEquals(0L, seen.get("WRONG"), "results the patch changed"),
                () -> assertEquals(0L, seen.get("MISMATCHES"), "an EXIT got another call's context"),
                () -> assertEquals(seen.get("ENTERS"), seen.get("EXITS"), "every ENTER has its EXIT"),
                () -> assertTrue(seen.get("ENTERS") > 1000, "the patched code ran: " + seen.get("ENTERS")),
                () -> assertEquals("", err));
    }
}
