package org.dyper.patch.launch;

import org.dyper.patch.build.Weaver;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which {@code java} runs the program, which JDK it is, and the command line {@code dyper run} builds. */
class LaunchCommandTest {
    private static final Path JDK25 = org.dyper.testsupport.Jdk.jdk25Home();

    @TempDir
    Path dir;

    /** A fake JDK home: {@code bin/java} and, unless {@code release} is null, a release file holding it. */
    private Path jdk(String name, String release) throws IOException {
        Path home = Files.createDirectories(dir.resolve(name));
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        if (release != null) {
            Files.writeString(home.resolve("release"), release);
        }
        return java;
    }

    @Test
    void readsTheReleaseFileOfRealJdks() {
        assertEquals(Optional.of(Runtime.version().feature()),
                TargetJdk.featureVersion(Path.of(System.getProperty("java.home"), "bin", "java")));
        assumeTrue(Files.isRegularFile(JDK25.resolve("release")), "no JDK 25 at " + JDK25);
        assertEquals(Optional.of(25), TargetJdk.featureVersion(JDK25.resolve("bin/java")));
    }

    static Stream<Arguments> releases() {
        return Stream.of(
                Arguments.of("IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"25.0.3\"\n", Optional.of(25)),
                Arguments.of("JAVA_VERSION=\"17.0.15\"\n", Optional.of(17)),
                Arguments.of("JAVA_VERSION=\"24\"\n", Optional.of(24)),
                Arguments.of("JAVA_VERSION=\"26-ea\"\n", Optional.of(26)),
                Arguments.of("JAVA_VERSION=\"1.8.0_392\"\n", Optional.of(8)),
                Arguments.of("JAVA_VERSION=\"banana\"\n", Optional.empty()),
                Arguments.of("IMPLEMENTOR=\"x\"\n", Optional.empty()),
                Arguments.of(null, Optional.empty()));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("releases")
    void featureVersionFromTheReleaseFile(String release, Optional<Integer> version) throws IOException {
        assertEquals(version, TargetJdk.featureVersion(jdk("jdk", release)));
    }

    static Stream<Arguments> unsafeFlag() {
        return Stream.of(Arguments.of("JAVA_VERSION=\"25.0.3\"", true), Arguments.of("JAVA_VERSION=\"24\"", true),
                Arguments.of("JAVA_VERSION=\"23.0.1\"", false), Arguments.of("JAVA_VERSION=\"17.0.15\"", false),
                Arguments.of(null, false));
    }

    /** AspectJ's weaver uses sun.misc.Unsafe; JDK 24+ warns about it on stderr unless access is allowed. */
    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("unsafeFlag")
    void allowsUnsafeMemoryAccessOnlyFromJdk24(String release, boolean allowed) throws IOException {
        Path java = jdk("jdk", release);
        List<String> cmd = LaunchOptions.of(java, List.of("-cp", "app.jar", "app.Main")).withMonitor(false, null)
                .command(Path.of("/aspects"));
        List<String> expected = new ArrayList<>(List.of(java.toString(), "-javaagent:" + Weaver.weaverAgent()));
        if (allowed) {
            expected.add("--sun-misc-unsafe-memory-access=allow");
        }
        expected.addAll(List.of("-cp", classpath("app.jar"), "app.Main"));
        assertEquals(expected, cmd);
    }

    private static String classpath(String first) {
        List<String> cp = new ArrayList<>(List.of(first, "/aspects"));
        Weaver.runtimeClasspath().forEach(p -> cp.add(p.toString()));
        return String.join(File.pathSeparator, cp);
    }

    @Test
    void agentComesFirstThenDyperPropertiesThenTheUsersOptions() throws IOException {
        Path java = jdk("jdk", "JAVA_VERSION=\"17.0.15\"");
        List<String> cmd = LaunchOptions.of(java, List.of("-Xmx64m", "-Ddyper.report=none", "--class-path=app.jar",
                "app.Main", "-cp", "arg")).withMonitor(false, null).withReport(new LaunchOptions.Report("stdout",
                "/r.xml")).withVerbose(true).command(Path.of("/aspects"));
        assertEquals(List.of(java.toString(), "-javaagent:" + Weaver.weaverAgent(), "-Ddyper.report=stdout",
                "-Ddyper.report.xml=/r.xml", "-Daj.weaving.verbose=true", "-Dorg.aspectj.weaver.showWeaveInfo=true",
                // the user's own -D comes later, so it wins
                "-Xmx64m", "-Ddyper.report=none", "-cp", classpath("app.jar"), "app.Main", "-cp", "arg"), cmd);
    }

    @Test
    void targetsAreTheExistingClassPathEntries() throws IOException {
        Path a = Files.createDirectories(dir.resolve("a"));
        assertEquals(List.of(a), JavaArgs.parse(List.of("-cp", a + File.pathSeparator + dir.resolve("none"), "M"))
                .classpathEntries());
    }

    @Test
    void javaHomeWinsOverThePath() throws IOException {
        Path onPath = jdk("onpath", null);
        Map<String, String> env = new HashMap<>(Map.of("PATH", "/nonexistent" + File.pathSeparator + onPath.getParent()));
        assertEquals(onPath.toRealPath(), TargetJdk.java(env));
        env.put("JAVA_HOME", " ");
        assertEquals(onPath.toRealPath(), TargetJdk.java(env));
        env.put("JAVA_HOME", "/opt/jdk");
        assertEquals(Path.of("/opt/jdk/bin/java"), TargetJdk.java(env));
    }

    @Test
    void javaOnThePathIsResolvedToItsJdkSoItsReleaseFileIsFound() throws IOException {
        Path java = jdk("real", "JAVA_VERSION=\"24\"");
        Path bin = Files.createDirectories(dir.resolve("usr-bin"));
        Files.createSymbolicLink(bin.resolve("java"), java);
        Path found = TargetJdk.java(Map.of("PATH", bin.toString()));
        assertEquals(java.toRealPath(), found);
        assertEquals(Optional.of(24), TargetJdk.featureVersion(found));
    }

    @Test
    void withoutJavaHomeOrJavaOnThePathItIsPlainJava() {
        assertEquals(Path.of("java"), TargetJdk.java(Map.of()));
        assertEquals(Path.of("java"), TargetJdk.java(Map.of("PATH", dir.toString())));
    }
}
