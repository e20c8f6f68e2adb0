package org.dyper.patch.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a {@code java} command line is read: which class path entries load-time weaving may patch, and the command
 * again with Dyper's entries appended. Paths in the tables are relative to a temp folder holding {@code a/},
 * {@code b.jar}, {@code lib/x.jar}, {@code lib/y.jar} and {@code lib/notes.txt}.
 */
class JavaArgsTest {
    private static final String SEP = File.pathSeparator;

    @TempDir
    static Path dir;

    @BeforeEach
    void files() throws IOException {
        Files.createDirectories(dir.resolve("a"));
        Files.createDirectories(dir.resolve("lib"));
        for (String f : List.of("b.jar", "lib/y.jar", "lib/x.jar", "lib/notes.txt")) {
            if (!Files.exists(dir.resolve(f))) {
                Files.writeString(dir.resolve(f), "");
            }
        }
    }

    /** {@code {dir}} in a table cell stands for the temp folder. */
    private static List<String> args(String line) {
        return Arrays.stream(line.split(" ")).map(JavaArgsTest::at).toList();
    }

    private static String at(String s) {
        return s.replace("{dir}", dir.toString()).replace(";", SEP);
    }

    static Stream<Arguments> commandLines() {
        return Stream.of(
                Arguments.of("-cp {dir}/a;{dir}/b.jar app.Main x y",
                        "{dir}/a;{dir}/b.jar",
                        "-cp {dir}/a;{dir}/b.jar;EXTRA app.Main x y"),
                Arguments.of("-classpath {dir}/a app.Main", "{dir}/a", "-cp {dir}/a;EXTRA app.Main"),
                Arguments.of("--class-path {dir}/b.jar app.Main", "{dir}/b.jar", "-cp {dir}/b.jar;EXTRA app.Main"),
                Arguments.of("--class-path={dir}/b.jar app.Main", "{dir}/b.jar", "-cp {dir}/b.jar;EXTRA app.Main"),
                // an option's value is not the main class; options keep their order, -cp moves to the end of them
                Arguments.of("-Dk=v --add-opens java.base/java.lang=ALL-UNNAMED -cp {dir}/a -Xmx64m app.Main -v",
                        "{dir}/a",
                        "-Dk=v --add-opens java.base/java.lang=ALL-UNNAMED -Xmx64m -cp {dir}/a;EXTRA app.Main -v"),
                Arguments.of("--add-opens=java.base/java.lang=ALL-UNNAMED -cp {dir}/a app.Main",
                        "{dir}/a",
                        "--add-opens=java.base/java.lang=ALL-UNNAMED -cp {dir}/a;EXTRA app.Main"),
                // missing entries are not patched but stay on the class path the program runs with
                Arguments.of("-cp {dir}/missing;{dir}/a app.Main", "{dir}/a", "-cp {dir}/missing;{dir}/a;EXTRA app.Main"),
                // dir/* is every jar in dir, sorted; java expands the wildcard itself
                Arguments.of("-cp {dir}/lib/* app.Main", "{dir}/lib/x.jar;{dir}/lib/y.jar",
                        "-cp {dir}/lib/*;EXTRA app.Main"),
                // the last class path option wins, as in java
                Arguments.of("-cp {dir}/a -cp {dir}/b.jar app.Main", "{dir}/b.jar", "-cp {dir}/b.jar;EXTRA app.Main"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandLines")
    void readsTheClassPathAndAppendsToIt(String line, String entries, String appended) throws IOException {
        JavaArgs parsed = JavaArgs.parse(args(line));
        assertEquals(Arrays.stream(at(entries).split(SEP)).map(Path::of).toList(), parsed.classpathEntries());
        assertEquals(args(appended), parsed.withClasspathAppended(List.of("EXTRA")));
    }

    private static Path jar(Path file, String mainClass, String classPath) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        if (classPath != null) {
            mf.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        }
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            jar.flush();
        }
        return file;
    }

    @Test
    void jarBringsItsManifestClassPathAndBecomesCpWithItsMainClass() throws IOException {
        Path app = jar(dir.resolve("app.jar"), "app.Main", "lib/x.jar  b.jar missing.jar");
        JavaArgs parsed = JavaArgs.parse(List.of("-Dk=v", "-jar", app.toString(), "-jar", "x"));
        assertEquals(List.of(app, dir.resolve("lib/x.jar"), dir.resolve("b.jar")), parsed.classpathEntries());
        assertEquals(List.of("-Dk=v", "-cp", String.join(SEP, app.toString(), dir.resolve("lib/x.jar").toString(),
                        dir.resolve("b.jar").toString(), dir.resolve("missing.jar").toString(), "EXTRA"),
                        "app.Main", "-jar", "x"),
                parsed.withClasspathAppended(List.of("EXTRA")));
    }

    @Test
    void manifestClassPathEntriesAreRelativeUrls() throws IOException {
        Files.createDirectories(dir.resolve("my libs"));
        Files.writeString(dir.resolve("my libs/dep one.jar"), "");
        Path app = jar(dir.resolve("urls.jar"), "app.Main", "my%20libs/dep%20one.jar " + dir.resolve("b.jar").toUri()
                + " http://example.invalid/remote.jar lib/../lib/x.jar [bad");
        JavaArgs parsed = JavaArgs.parse(List.of("-jar", app.toString()));
        assertEquals(List.of(app, dir.resolve("my libs/dep one.jar"), dir.resolve("b.jar"), dir.resolve("lib/x.jar")),
                parsed.classpathEntries());
    }

    @Test
    void jarWithoutMainClassIsNamedInTheError() throws IOException {
        Path app = jar(dir.resolve("nomain.jar"), null, null);
        JavaArgs parsed = JavaArgs.parse(List.of("-jar", app.toString()));
        assertEquals(List.of(app), parsed.classpathEntries());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> parsed.withClasspathAppended(List.of("EXTRA")));
        assertEquals(app + " has no Main-Class in its manifest", e.getMessage());
    }

    static Stream<Arguments> mistakes() {
        String noMain = "no main class after the java options (give -cp PATH MAIN or -jar JAR)";
        String module = " is not supported: use -cp and a main class, or -jar";
        return Stream.of(
                Arguments.of("", noMain),
                Arguments.of("-cp {dir}/a", noMain),
                Arguments.of("-Xmx64m --add-opens java.base/java.lang=ALL-UNNAMED", noMain),
                Arguments.of("-m mod/app.Main", "running a module (-m)" + module),
                Arguments.of("-cp {dir}/a --module mod/app.Main", "running a module (--module)" + module),
                Arguments.of("--module=mod/app.Main", "running a module (--module=mod/app.Main)" + module),
                Arguments.of("-cp", "java option -cp needs a value"),
                Arguments.of("-jar", "java option -jar needs a value"),
                Arguments.of("-cp {dir}/a --add-opens", "java option --add-opens needs a value"));
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("mistakes")
    void rejectsWhatItCannotRun(String line, String message) {
        List<String> a = line.isEmpty() ? List.of() : args(line);
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> JavaArgs.parse(a)).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-cp", "-classpath", "--class-path"})
    void classpathOptionsAreNotKeptTwice(String option) throws IOException {
        List<String> out = JavaArgs.parse(List.of("-ea", option, "x", "app.Main")).withClasspathAppended(List.of("E"));
        assertEquals(List.of("-ea", "-cp", "x" + SEP + "E", "app.Main"), out);
    }
}
