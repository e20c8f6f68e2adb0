package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.patch.build.Weaver;
import org.example.inflight.Busy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;

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
        Path patches = patch();
        Processes.Result run = Processes.run(List.of(java.toString(), "-javaagent:"
                + RuntimeConformanceTest.agentJar(dir) + "=dir=" + dir.resolve("registry"), "-Ddyper.report=none",
                "-cp", classpath(), InFlightRunner.class.getName(), patches.toString(), "150"),
                Duration.ofSeconds(240));
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

    /**
     * A class patched for the first time is patched by retransformation (docs/runtime-patching.md, "Refusals"): the
     * patch must survive another agent's retransformation of the class, and must not come back after it was taken
     * out; when the other agent redefines the class with code of its own, its version wins and the status says
     * UNPATCHED. On JDK 17 only: the retransformation is the JVM's own, the same code on both.
     */
    @Test
    void anotherAgentsRetransformationKeepsThePatchAndDoesNotBringItBack() throws Exception {
        Path patches = patch();
        Path foreign = dir.resolve("foreign.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", ForeignAgent.class.getName());
        m.getMainAttributes().putValue("Can-Retransform-Classes", "true");
        m.getMainAttributes().putValue("Can-Redefine-Classes", "true");
        try (OutputStream file = Files.newOutputStream(foreign); JarOutputStream out = new JarOutputStream(file, m)) {
            out.flush();
        }
        Processes.Result run = Processes.run(List.of(Jdk.JDK17.java().toString(), "-javaagent:"
                + RuntimeConformanceTest.agentJar(dir) + "=dir=" + dir.resolve("registry"), "-javaagent:" + foreign,
                "-Ddyper.report=none", "-cp", classpath(), KeptPatchRunner.class.getName(), patches.toString()),
                Duration.ofSeconds(120));
        Map<String, Long> seen = new HashMap<>();
        run.outLines().forEach(l -> seen.put(l.split(" ")[0], Long.parseLong(l.split(" ")[1])));
        String status = run.outLines().stream().filter(l -> l.startsWith("UNPATCHED ")).findFirst().orElse("");
        // Busy(5).outer(40): the constructor, outer, inner 40 times (ENTER, and CALL from outer), fails 6 times
        long perCall = seen.getOrDefault("PATCHED", -1L);
        assertAll("stdout: " + run.out() + "\nstderr: " + run.err(),
                () -> assertEquals(0, run.exit()),
                () -> assertEquals(1 + 1 + 40 + 40 + 6L, perCall, "ENTERs of one patched call"),
                () -> assertEquals(perCall, seen.get("RETRANSFORMED"), "after another agent's retransformation"),
                () -> assertEquals(0L, seen.get("REMOVED")),
                () -> assertEquals(0L, seen.get("REMOVED_RETRANSFORMED"), "the patch came back"),
                () -> assertEquals(perCall, seen.get("PATCHED_AGAIN"), "ENTERs after the patch went in again"),
                () -> assertEquals(0L, seen.get("REDEFINED"), "the other agent's redefinition wins"),
                () -> assertEquals(2L, seen.get("UNPATCHED"), "one class UNPATCHED in the status: " + status),
                () -> assertEquals(0L, seen.get("REDEFINED_RETRANSFORMED"), "the patch came back over it"),
                () -> assertEquals(0L, seen.get("WRONG")),
                () -> assertEquals("", run.err()));
    }

    /**
     * Once the monitor's warm-up ran, a JVM's first insert loads no class but the AspectJ runtime's first (the
     * program lacks it: INSTRUMENT adds the jar), the set's own aspects and the patched class's new version; a second
     * insert loads only the patched class's new version (docs/runtime-patching.md, "Cost"). Seen in the JVM's class
     * loading log, on the inserting thread (the flight recorder starts on other threads meanwhile). The installation's
     * layout: the AspectJ runtime jar lies beside the dyper-runtime jar. Class names, not times: timing is the
     * benchmark's. Without the warm-up, or before it looked for the runtime jars only where needed, the first loaded
     * about 20 more (a folder listed with a stream and a regular expression, lambdas, a jar opened twice).
     */
    @Test
    void aFirstInsertAfterTheWarmUpLoadsOnlyWhatIsNewToTheJvm() throws Exception {
        Path patches = patch();
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path runtime = Files.copy(Weaver.runtimeClasspath().get(0), lib.resolve("dyper-runtime.jar"));
        Path aspectj = Files.copy(Weaver.runtimeClasspath().get(1), lib.resolve("aspectjrt-1.jar"));
        Path log = dir.resolve("class-load.log");
        String cp = String.join(File.pathSeparator, Woven.TEST_CLASSES.toString(),
                Woven.classesOf(PatchFiles.class).toString(), runtime.toString());
        Processes.Result run = Processes.run(List.of(Jdk.JDK17.java().toString(), "-javaagent:" + runtime + "=dir="
                + dir.resolve("registry") + ",MONITOR=false", "-Ddyper.report=none", "-Ddyper.instrument.phases=true",
                "-Xlog:class+load=info:file=" + log + ":tid", "-cp", cp, FirstInsertRunner.class.getName(),
                patches.toString(), aspectj.toString()), Duration.ofSeconds(120));
        Map<String, String> out = new HashMap<>();
        run.outLines().forEach(l -> out.put(l.substring(0, l.indexOf(' ')), l.substring(l.indexOf(' ') + 1)));
        var set = PatchFiles.read(patches);
        List<String> aspects = new ArrayList<>();
        set.aspects().keySet().forEach(a -> aspects.add("org.example.inflight.Dyper$" + set.id() + "$"
                + a.substring(a.lastIndexOf('/') + 1)));
        List<String> first = new ArrayList<>(List.of("org.aspectj.lang.NoAspectBoundException"));
        first.addAll(aspects);
        first.add("org.example.inflight.Busy");
        List<String> lines = Files.readAllLines(log);
        assertAll("stdout: " + run.out() + "\nstderr: " + run.err(),
                () -> assertEquals(0, run.exit()),
                () -> assertEquals("", run.err()),
                () -> assertEquals(1 + 1 + 40 + 40 + 6L, Long.parseLong(out.get("PATCHED")), "the patch counts"),
                () -> assertEquals("0", out.get("WRONG"), "the patch changed the result"),
                () -> assertEquals(first, loadedBetween(lines, "FirstStarts", "FirstEnded"), "the first insert"),
                () -> assertEquals(List.of("org.example.inflight.Busy"), loadedBetween(lines, "SecondStarts",
                        "SecondEnded"), "the second insert"),
                () -> assertEquals("find check jars runtimes aspects rename patch record loaders finish",
                        out.get("FIRST").replaceAll("=[0-9/]+", ""), "the phases measured"));
    }

    /**
     * The classes the thread that loaded {@code FirstInsertRunner$<from>} loaded after it and before
     * {@code FirstInsertRunner$<to>}, in order ({@code -Xlog:class+load} lines decorated with the thread id).
     */
    private static List<String> loadedBetween(List<String> log, String from, String to) {
        String runner = FirstInsertRunner.class.getName() + "$";
        String tid = null;
        List<String> loaded = new ArrayList<>();
        for (String line : log) {
            String thread = line.substring(1, line.indexOf(']'));
            String name = line.substring(line.indexOf("] ", line.indexOf("[class,load")) + 2).split(" ")[0];
            if (name.equals(runner + from)) {
                tid = thread;
            } else if (name.equals(runner + to) && thread.equals(tid)) {
                return loaded;
            } else if (thread.equals(tid)) {
                loaded.add(name);
            }
        }
        throw new AssertionError("no " + from + " and " + to + " in the class loading log");
    }

    /** The patch of Busy (every method's ENTER and EXIT, and the calls of inner from outer), woven for run time. */
    private Path patch() throws Exception {
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
        return woven.dir();
    }

    private static String classpath() throws Exception {
        List<String> cp = new ArrayList<>(List.of(Woven.TEST_CLASSES.toString(),
                Woven.classesOf(PatchFiles.class).toString(), Woven.classesOf(ClassReader.class).toString()));
        Weaver.runtimeClasspath().forEach(p -> cp.add(p.toString()));
        return String.join(File.pathSeparator, cp);
    }
}
