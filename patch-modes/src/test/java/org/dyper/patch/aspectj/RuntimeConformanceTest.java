package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.patch.build.Weaver;
import org.example.fixture.Target;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Every case of {@link GeneratorBehaviourTest} the run-time way, on JDK 17 and 25: the fixture loads unpatched in a
 * child class loader, the case's patch goes in by class redefinition (code generated for load-time weaving, woven by
 * the DYPATCH service), the script runs, the patch comes out. The events must be exactly those of build-time
 * weaving, the script's result unchanged, and after the removal the script must run as before with no event.
 */
class RuntimeConformanceTest {
    @TempDir
    static Path shared;
    private static List<String> prepared;

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(strings = {"17", "25"})
    void everyCaseSeesExactlyTheEventsOfBuildTimeWeaving(String jdk) throws Exception {
        Path java = Jdk.of(jdk).java();
        List<Arguments> cases = GeneratorBehaviourTest.cases().toList();
        List<String> runnerArgs = prepare(cases);
        List<String> cp = new ArrayList<>(List.of(Woven.TEST_CLASSES.toString(), Woven.classesOf(PatchFiles.class)
                .toString()));
        Weaver.runtimeClasspath().forEach(p -> cp.add(p.toString()));
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-javaagent:" + agentJar(shared) + "=dir=" + shared
                .resolve("registry"), "-Ddyper.report=none", "-cp", String.join(File.pathSeparator, cp),
                RuntimeScriptRunner.class.getName()));
        cmd.addAll(runnerArgs);
        Processes.Result run = Processes.run(cmd, Duration.ofSeconds(300));
        Map<String, List<String>> events = new LinkedHashMap<>();
        Map<String, List<String>> left = new HashMap<>();
        Map<String, String> results = new HashMap<>();
        Map<String, String> after = new HashMap<>();
        String current = null;
        for (String line : run.outLines()) {
            if (line.startsWith("CASE ")) {
                current = line.substring(5);
                events.put(current, new ArrayList<>());
                left.put(current, new ArrayList<>());
            } else if (line.startsWith("EVENT ")) {
                events.get(current).add(line.substring(6));
            } else if (line.startsWith("LEFT ")) {
                left.get(current).add(line.substring(5));
            } else if (line.startsWith("RESULT ")) {
                results.put(current, line.substring(7));
            } else if (line.startsWith("AFTER ")) {
                after.put(current, line.substring(6));
            }
        }
        String plain = Target.script();
        assertEquals(cases.size(), events.size(), "cases run (stderr in " + shared + ")");
        System.out.println("run time on JDK " + jdk + ": " + events.size() + " cases, "
                + events.values().stream().mapToInt(List::size).sum() + " events");
        List<Executable> checks = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Object[] c = cases.get(i).get();
            String key = Integer.toString(i);
            checks.add(() -> assertEquals(plain, results.get(key), c[0] + ": the program's result changed"));
            checks.add(() -> assertEquals(c[2], events.get(key), c[0] + ""));
            checks.add(() -> assertEquals(plain, after.get(key), c[0] + ": the result after removal"));
            checks.add(() -> assertEquals(List.of(), left.get(key), c[0] + ": events after removal"));
        }
        assertAll("run time on JDK " + jdk + " (stderr in " + shared + ")", checks);
    }

    /** Generates and weaves every case once (the patches run on both JDKs). */
    private static synchronized List<String> prepare(List<Arguments> cases) throws Exception {
        if (prepared != null) {
            return prepared;
        }
        List<String> args = new ArrayList<>();
        String modes = Files.readString(Path.of(RuntimeConformanceTest.class.getResource("/gen/recorder-modes.xml")
                .toURI()));
        for (int i = 0; i < cases.size(); i++) {
            Object[] c = cases.get(i).get();
            Path dir = Files.createDirectories(shared.resolve("case-" + i));
            Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'>" + c[1] + "</MODEL>");
            String patch;
            try {
                patch = RuntimePatches.patch(in, shared.resolve("patches")).dir().toString();
            } catch (org.dyper.patch.model.InvalidInputException e) {
                // the cases that patch nothing: the service says so instead of making an empty patch
                assertEquals(List.of(), c[2], c[0] + ": " + e.getMessage());
                assertEquals(true, e.getMessage().contains("patches no class of the target"), e.getMessage());
                patch = RuntimeScriptRunner.NONE;
            }
            args.add(i + "=" + patch + ";" + in.targets().get(0));
        }
        prepared = args;
        return args;
    }

    /**
     * A jar with only a manifest naming the Dyper agent (its classes come from the class path), which hands the
     * JVM's Instrumentation to the run-time patcher: the runtime may be a classes folder in a reactor build.
     */
    static Path agentJar(Path dir) throws Exception {
        Path jar = dir.resolve("agent.jar");
        if (!Files.exists(jar)) {
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            m.getMainAttributes().putValue("Premain-Class", "org.dyper.runtime.monitor.MonitorAgent");
            m.getMainAttributes().putValue("Can-Redefine-Classes", "true");
            m.getMainAttributes().putValue("Can-Retransform-Classes", "true");
            try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, m)) {
                out.flush();
            }
        }
        return jar;
    }

}
