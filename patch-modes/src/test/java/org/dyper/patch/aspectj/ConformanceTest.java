package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.example.fixture.Target;
import org.dyper.patch.launch.LaunchCache;
import org.dyper.patch.launch.LaunchOptions;
import org.dyper.patch.build.Replacements;
import org.dyper.patch.build.Weaver;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.function.Executable;

/**
 * Every case of {@link GeneratorBehaviourTest} (which runs binary weaving in this JVM) again through every weaving way
 * on JDK 17 and 25: binary weaving ({@code dyper weave}), weaving ahead of a launch ({@code dyper run}: the woven
 * classes are loaded in place of the originals, as its replace agent does) and the AspectJ weaver agent
 * ({@code dyper run --weaver-agent}; classes the bytecode pass changed are loaded in place of the originals first,
 * as the replace agent does there). All cases of one run share one JVM, each in its own class loader; the events and
 * the script's result must be exactly the same, and reflection must see every fixture class exactly as it sees the
 * unwoven one, but for the synthetic members weaving adds.
 */
class ConformanceTest {
    enum Way { BINARY, LAUNCH, LOAD_TIME }

    @TempDir
    static Path shared;
    private static final Map<Way, List<String>> PREPARED = new EnumMap<>(Way.class);

    static Stream<Arguments> runs() {
        return Stream.of(Way.values()).flatMap(w -> Stream.of(Arguments.of(w, "17"), Arguments.of(w, "25")));
    }

    @ParameterizedTest(name = "{0} on JDK {1}")
    @MethodSource("runs")
    void everyCaseSeesExactlyTheSameEvents(Way way, String jdk) throws Exception {
        Path java = Jdk.of(jdk).java();
        List<Arguments> cases = GeneratorBehaviourTest.cases().toList();
        List<String> runnerArgs = prepare(way, cases);

        List<String> cmd = new ArrayList<>(List.of(java.toString()));
        if (way == Way.LOAD_TIME) {
            cmd.add("-javaagent:" + Weaver.weaverAgent());
            if (org.dyper.patch.launch.TargetJdk.featureVersion(java).orElse(17) >= 24) {
                cmd.add("--sun-misc-unsafe-memory-access=allow");
            }
        }
        List<String> cp = new ArrayList<>(List.of(Woven.TEST_CLASSES.toString()));
        Weaver.runtimeClasspath().forEach(p -> cp.add(p.toString()));
        cmd.addAll(List.of("-Ddyper.report=none", "-cp", String.join(File.pathSeparator, cp),
                ScriptRunner.class.getName()));
        cmd.addAll(runnerArgs);
        Processes.Result run = Processes.run(cmd, Duration.ofSeconds(240));
        Map<String, List<String>> events = new LinkedHashMap<>();
        Map<String, String> results = new LinkedHashMap<>();
        Map<String, List<String>> shapes = new LinkedHashMap<>();
        String current = null;
        for (String line : run.outLines()) {
            if (line.startsWith("CASE ")) {
                current = line.substring(5);
                events.put(current, new ArrayList<>());
                shapes.put(current, new ArrayList<>());
            } else if (line.startsWith("EVENT ")) {
                events.get(current).add(line.substring(6));
            } else if (line.startsWith("RESULT ")) {
                results.put(current, line.substring(7));
            } else if (line.startsWith("SHAPE ")) {
                shapes.get(current).add(line.substring(6));
            }
        }
        List<String> plainShape = shapes.get("plain");
        String plain = Target.script();
        List<Executable> checks = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            Object[] c = cases.get(i).get();
            String key = Integer.toString(i);
            if (runnerArgs.stream().noneMatch(a -> a.startsWith(key + "="))) {
                continue;
            }
            checks.add(() -> assertEquals(plain, results.get(key), c[0] + ": the program's result changed"));
            checks.add(() -> assertEquals(c[2], events.get(key), c[0] + ""));
            boolean sync = ((String) c[1]).contains("'SYNC_");
            checks.add(() -> assertEquals(List.of(), ClassShape.differences(plainShape, shapes.get(key), sync),
                    c[0] + ": weaving changed what reflection sees of the fixture classes"));
        }
        assertAll(way + " on JDK " + jdk + " (stderr in " + shared + ")", checks);
    }

    /** Weaves (binary) or prepares (load time) every case once; the runner arguments for each. */
    private static synchronized List<String> prepare(Way way, List<Arguments> cases) throws Exception {
        List<String> args = PREPARED.get(way);
        if (args != null) {
            return args;
        }
        args = new ArrayList<>();
        args.add("plain=" + Woven.fixtureClasses(Files.createDirectories(shared.resolve("plain"))));
        String modes = Files.readString(Path.of(ConformanceTest.class.getResource("/gen/recorder-modes.xml").toURI()));
        for (int i = 0; i < cases.size(); i++) {
            Object[] c = cases.get(i).get();
            Path dir = Files.createDirectories(shared.resolve(way + "-" + i));
            Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'>" + c[1] + "</MODEL>");
            if (way == Way.BINARY) {
                Path jar = dir.resolve("woven.jar");
                List<String> notes = Weaver.weaveBinary(Weaver.generate(in), in.targets().get(0), jar, in.classpath());
                assertEquals(List.of(), notes, c[0] + ": ajc's lint (advice that matched nothing)");
                args.add(i + "=" + jar);
            } else {
                // the replace agent serves one folder per JVM, not one per class loader: here the replacement
                // classes come first in the case's class loader instead (BytecodePassTest and the e2e tests run
                // the agent itself)
                LaunchCache.Prepared prepared = LaunchCache.prepare(in, shared.resolve("cache"), way == Way.LAUNCH
                        ? LaunchOptions.Weaving.AHEAD : LaunchOptions.Weaving.AGENT);
                assertEquals(List.of(), prepared.warnings().stream().filter(w -> w.contains("AspectJ did not"))
                        .toList(), c[0] + ": ajc's lint (advice that matched nothing)");
                assertEquals(List.of(), prepared.notes(), c[0] + ": ajc's warnings");
                Path replace = prepared.aspects().resolve(Replacements.DIR);
                args.add(i + "=" + (Files.isDirectory(replace) ? replace + ";" : "") + prepared.aspects() + ";"
                        + in.targets().get(0));
            }
        }
        PREPARED.put(way, args);
        return args;
    }

}
