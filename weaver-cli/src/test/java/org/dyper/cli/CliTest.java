package org.dyper.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.launch.LaunchWeaving;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code dyper} command as a user meets it: exit codes and the exact lines on stdout and stderr. Commands run
 * in-process, except where the program under test inherits the terminal ({@code run}) or must run woven; those run
 * in a child JVM. The patched code is the fixture in {@code com.acme.cli}: {@link App} calls {@code Tally.add}
 * five times and prints {@code total 15}.
 */
class CliTest {
    private static final String SEP = File.pathSeparator;
    private static final String ADD = "com.acme.cli.Tally.add(int)";

    @TempDir
    static Path dir;
    /** Only the fixture package's classes, so the scanner sees exactly App and Tally. */
    static Path classes;
    /** Counts every execution of Tally.add. */
    static Path model;

    @BeforeAll
    static void fixture() throws Exception {
        Path compiled = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path pkg = Path.of("com", "acme", "cli");
        classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve(pkg));
        for (String name : List.of("App.class", "Tally.class")) {
            Files.copy(compiled.resolve(pkg).resolve(name), classes.resolve(pkg).resolve(name));
        }
        model = write("count.xml", """
                <MODEL NAME='count'>
                  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>
                    <PATCH WHAT='ENTER' MODE='COUNT'/>
                  </FOR>
                </MODEL>
                """);
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, UTF_8);
    }

    record Result(int code, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    /** Runs {@code dyper} in-process; {@code {dir}}, {@code {classes}} and {@code {model}} stand for the fixtures. */
    static Result dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] resolved = Arrays.stream(args).map(CliTest::at).toArray(String[]::new);
        int code;
        try (PrintStream o = new PrintStream(out, true, UTF_8); PrintStream e = new PrintStream(err, true, UTF_8)) {
            code = Main.run(resolved, o, e, Map.of());
        }
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    static String at(String s) {
        return s.replace("{dir}", dir.toString()).replace("{classes}", classes.toString())
                .replace("{model}", model.toString());
    }

    private static String[] split(String line) {
        return line.isEmpty() ? new String[0] : line.split(" ");
    }

    // ---- help and version ----

    private static final String OVERVIEW = """
            dyper 0.1.0: instrument Java programs from DYPATCH XML models, woven with AspectJ.

            Usage: dyper <command> [options]   (dyper <command> --help for details)

              generate   turn models and modes into AspectJ source, aop.xml and the site table
              weave      weave a jar or class folder with the generated aspects (binary weaving) into a new jar
              run        run a Java program with its patched classes woven at launch; print the report when it ends
              ctl        list monitored processes, send them DYPER commands, attach the monitor to a running JVM
              patchd     the DYPATCH service: keeps patch models and makes patched class files for a running program
              report     turn XML reports into a self-contained HTML page with flame graphs and tables
              classpath  print the class path woven code needs at run time (Dyper runtime and AspectJ runtime)
              modes      list the modes of Dyper's mode library

            Exit codes: 0 ok, 2 usage, 3 invalid model, mode or report file, 4 weaving failed, 5 file error,
            6 the monitor answered ERROR, 7 no such monitored process, 8 attach failed,
            70 internal error; dyper run returns the program's own exit code once it started.
            """;

    @ParameterizedTest(name = "dyper {0} -> {1}")
    @MethodSource("overviews")
    void overviewListsEveryCommand(String args, int code) {
        assertEquals(new Result(code, OVERVIEW, ""), dyper(split(args)));
    }

    static Stream<Arguments> overviews() {
        return Stream.of(Arguments.of("", ExitCode.USAGE), Arguments.of("--help", ExitCode.OK), Arguments.of("-h", ExitCode.OK),
                Arguments.of("help", ExitCode.OK));
    }

    @Test
    void weaveHelpShowsItsUsageAndEveryOption() {
        String weave = """
                weave a jar or class folder with the generated aspects (binary weaving) into a new jar

                Usage: dyper weave --model FILE [--modes FILE] --in JAR|DIR --out JAR [--classpath PATH]

                     --classpath <PATH>   what the modes' code and the target need to compile against (:-separated)
                     --exclude <PATTERN>  classes matching PATTERN are never patched; repeatable
                  -h,--help               show this help
                     --in <JAR|DIR>       the jar or class folder to weave (required)
                     --include <PATTERN>  only classes matching PATTERN may be patched (* matches any characters);
                                          repeatable
                     --model <FILE>       a patch model (<MODEL>); repeatable; required
                     --modes <FILE>       a mode file (<DYPATCH> or <DYPATCH_MODE>); repeatable; library modes need
                                          none
                     --out <JAR>          the woven jar to write (required; may not be the input)

                Run the result with: java -cp OUT.jar:$(dyper classpath):<other jars> <main class>
                """.replace(":", SEP);
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("help", "weave"));
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("weave", "--help"));
        // --help wins over missing or wrong options
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("weave", "--in", "nowhere", "-h"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"generate", "weave", "run", "classpath", "modes"})
    void everyCommandHasHelp(String command) {
        Result help = dyper("help", command);
        assertEquals(ExitCode.OK, help.code());
        assertTrue(help.out().contains("\nUsage: dyper " + command), help.out());
        assertEquals(help, dyper(command, "--help"));
    }

    @Test
    void version() {
        assertEquals(new Result(ExitCode.OK, "dyper 0.1.0\n", ""), dyper("--version"));
    }

    // ---- usage errors: exit 2, one line ----

    static Stream<Arguments> usageErrors() {
        String commands = "(commands: generate, weave, run, ctl, patchd, report, classpath, modes";
        return Stream.of(
                Arguments.of("frob", "unknown command 'frob' " + commands + "; see dyper --help)"),
                Arguments.of("help frob", "help: unknown command 'frob' " + commands + ")"),
                Arguments.of("weave --bogus", "weave: Unrecognized option: --bogus (see dyper weave --help)"),
                Arguments.of("generate --model", "generate: Missing argument for option: model (see dyper generate --help)"),
                Arguments.of("weave --in {classes} --out {dir}/x.jar", "weave: --model FILE is required"),
                Arguments.of("weave --model {dir}/nope.xml --in {classes} --out {dir}/x.jar",
                        "weave: --model {dir}/nope.xml: no such file"),
                Arguments.of("weave --model {model} --modes {dir}/nope.xml --in {classes} --out {dir}/x.jar",
                        "weave: --modes {dir}/nope.xml: no such file"),
                Arguments.of("weave --model {model} --out {dir}/x.jar", "weave: --in JAR|DIR is required"),
                Arguments.of("weave --model {model} --in {classes}", "weave: --out JAR is required"),
                Arguments.of("weave --model {model} --in {dir}/nowhere --out {dir}/x.jar",
                        "weave: --in {dir}/nowhere: no such jar or folder"),
                Arguments.of("weave --model {model} --in {classes} --out {classes}",
                        "weave: --out {classes} is the input: write the woven jar elsewhere"),
                Arguments.of("weave --model {model} --in {classes} --out {dir}",
                        "weave: --out {dir} is a folder: give the path of the jar to write"),
                Arguments.of("weave --model {model} --in {classes} --out {dir}/x.jar -- extra",
                        "weave: unexpected argument '--' (only dyper run takes java arguments)"),
                Arguments.of("generate --model {model} --in {classes}", "generate: --out DIR is required"),
                Arguments.of("generate --model {model} --out {dir}/gen", "generate: no classes to patch (--in JAR|DIR)"),
                Arguments.of("generate --model {model} --in {classes} --out {dir}/gen stray",
                        "generate: unexpected argument 'stray'"),
                Arguments.of("run --model {model}",
                        "run: give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar Main"),
                Arguments.of("run --model {model} -- ",
                        "run: give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar Main"),
                Arguments.of("run --model {model} foo -- -cp {classes} com.acme.cli.App",
                        "run: unexpected argument 'foo' (java arguments go after --)"),
                Arguments.of("run --model {model} -- -cp x",
                        "run: no main class after the java options (give -cp PATH MAIN or -jar JAR)"),
                Arguments.of("run --model {model} -- -m mod/Main",
                        "run: running a module (-m) is not supported: use -cp and a main class, or -jar"),
                Arguments.of("run --no-monitor -- -cp {classes} com.acme.cli.App", "run: give --model FILE, or leave "
                        + "out --no-monitor: with neither, nothing would be measured"),
                Arguments.of("run --detail --model {model} --no-monitor -- -cp {classes} com.acme.cli.App",
                        "run: --detail needs the DYPER monitor: leave out --no-monitor"),
                Arguments.of("run --detail --no-monitor -- -cp {classes} com.acme.cli.App",
                        "run: --detail needs the DYPER monitor: leave out --no-monitor"),
                Arguments.of("run --modes {model} -- -cp {classes} com.acme.cli.App",
                        "run: --modes needs --model FILE (modes are used by a model)"),
                Arguments.of("run --report stdout -- -cp {classes} com.acme.cli.App", "run: --report needs --model FILE "
                        + "(the text report at exit shows what patches measured; dyper ctl PID REPORT, --xml FILE or "
                        + "--html FILE give the monitor's report)"),
                Arguments.of("run --model {model} -- -cp {dir}/nowhere com.acme.cli.App",
                        "run: no classes to patch: the java class path (-cp or -jar) names no existing jar or folder"),
                Arguments.of("ctl --width 5 4242 REPORT",
                        "ctl: --width takes a number of columns of at least 20, not '5'"),
                Arguments.of("ctl --width wide 4242 REPORT",
                        "ctl: --width takes a number of columns of at least 20, not 'wide'"),
                Arguments.of("classpath extra", "classpath: unexpected argument 'extra'"),
                Arguments.of("modes --model {model}", "modes: Unrecognized option: --model (see dyper modes --help)"));
    }

    @ParameterizedTest(name = "dyper {0}")
    @MethodSource("usageErrors")
    void usageErrorsAreOneLineAndExit2(String args, String message) {
        assertEquals(new Result(ExitCode.USAGE, "", "dyper: error: " + at(message) + "\n"), dyper(split(args)));
        assertFalse(Files.exists(dir.resolve("x.jar")));
    }

    // ---- invalid input: exit 3, every problem as FILE:LINE:COL: ELEMENT: message ----

    static Stream<Arguments> invalidInputs() {
        String forAdd = "<MODEL NAME='m'>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>\n    ";
        String end = "\n  </FOR>\n</MODEL>\n";
        return Stream.of(
                Arguments.of("malformed XML", forAdd.strip() + "\n</MODEL>\n", null,
                        List.of("{model}:3:3: XML: not well-formed: The element type \"FOR\" must be terminated by "
                                + "the matching end-tag \"</FOR>\".")),
                Arguments.of("DOCTYPE", "<?xml version='1.0'?>\n<!DOCTYPE MODEL [<!ENTITY x 'y'>]>\n<MODEL NAME='m'/>\n",
                        null, List.of("{model}:2:10: DOCTYPE: DTDs and entities are not allowed in Dyper XML")),
                Arguments.of("unknown MODE", forAdd + "<PATCH WHAT='ENTER' MODE='NOPE'/>" + end, null,
                        List.of("{model}:3:5: PATCH: unknown MODE 'NOPE': not in the mode library nor in the given "
                                + "mode files (known: ")),
                Arguments.of("user mode SIGNATURE matching no method", forAdd + "<PATCH WHAT='ENTER' MODE='PARSE'/>" + end,
                        """
                        <DYPATCH>
                          <DYPATCH_MODE NAME='PARSE'>
                            <CODE TYPE='CALL' CLASS='java.lang.Integer' METHOD='parseInt' SIGNATURE='(long)'>
                              <ARG TYPE='NULL'/>
                            </CODE>
                          </DYPATCH_MODE>
                        </DYPATCH>
                        """,
                        List.of("{modes}:3:5: CODE: SIGNATURE '(long)' does not match any method "
                                + "java.lang.Integer.parseInt (found: ")),
                Arguments.of("CONTEXT that no patch sets", forAdd + "<PATCH WHAT='EXIT' MODE='ABS_CONTEXT'/>" + end,
                        """
                        <DYPATCH>
                          <DYPATCH_MODE NAME='ABS_CONTEXT' CONTEXT='long'>
                            <CODE TYPE='CALL' CLASS='java.lang.Math' METHOD='abs' SIGNATURE='long (long)'>
                              <ARG TYPE='CONTEXT'/>
                            </CODE>
                          </DYPATCH_MODE>
                        </DYPATCH>
                        """,
                        List.of("{modes}:3:5: CODE: uses CONTEXT but no earlier patch of the same invocation sets it "
                                + "with <RETURN TYPE='CONTEXT'/> (an ENTER patch for EXIT, an earlier CALL patch for "
                                + "CALL) (PATCH WHAT='EXIT' MODE='ABS_CONTEXT' at {model}:3:5)")),
                Arguments.of("ARG RETURN at ENTER", forAdd + "<PATCH WHAT='ENTER' MODE='ABS_RETURN'/>" + end,
                        """
                        <DYPATCH>
                          <DYPATCH_MODE NAME='ABS_RETURN'>
                            <CODE TYPE='CALL' CLASS='java.lang.Math' METHOD='abs' SIGNATURE='long (long)'>
                              <ARG TYPE='RETURN'/>
                            </CODE>
                          </DYPATCH_MODE>
                        </DYPATCH>
                        """,
                        List.of("{modes}:4:7: ARG: TYPE='RETURN' has no value at WHAT='ENTER' (use it at EXIT or CALL) "
                                + "(PATCH WHAT='ENTER' MODE='ABS_RETURN' at {model}:3:5)")),
                Arguments.of("BLOCK_START at an instruction that starts no block", forAdd
                                + "<PATCH WHAT='BLOCK_START' MODE='COUNT'>\n      <WHEN CASE='BLOCK' ARG='1'/>\n"
                                + "    </PATCH>" + end, null,
                        List.of("{model}:4:7: WHEN: CASE='BLOCK' ARG='1': instruction 1 of com.acme.cli.Tally.add(int) "
                                + "does not start a basic block (blocks start at instructions 0)")));
    }

    /**
     * Each expected line is the start of the printed line (the unknown-MODE and SIGNATURE lists go on); the last
     * line is the count.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidInputs")
    void invalidInputExits3WithEveryProblemPinned(String name, String modelXml, String modesXml, List<String> expected)
            throws IOException {
        Path m = write("invalid-model.xml", modelXml);
        Path modes = modesXml == null ? null : write("invalid-modes.xml", modesXml);
        for (String command : List.of("generate", "weave")) {
            Path out = dir.resolve("invalid-out-" + command);
            List<String> args = new ArrayList<>(List.of(command, "--model", m.toString(), "--in", classes.toString(),
                    "--out", out.toString()));
            if (modes != null) {
                args.addAll(List.of("--modes", modes.toString()));
            }
            Result r = dyper(args.toArray(String[]::new));
            assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
            assertEquals("", r.out());
            List<String> lines = r.errLines();
            int first = command.equals("weave") ? 1 : 0;  // weave says what it is doing first
            if (first == 1) {
                assertEquals("dyper: generating aspects for " + classes + " ...", lines.get(0));
            }
            assertEquals(first + expected.size() + 1, lines.size(), r.err());
            for (int i = 0; i < expected.size(); i++) {
                String want = "dyper: error: " + expected.get(i).replace("{model}", m.toString())
                        .replace("{modes}", String.valueOf(modes));
                assertTrue(lines.get(first + i).startsWith(want), "expected\n" + want + "\ngot\n" + lines.get(first + i));
            }
            assertEquals("dyper: " + expected.size() + " problem(s); nothing was written", lines.get(lines.size() - 1));
            assertFalse(Files.exists(out), out + " was written");
        }
    }

    /** Reading problems of every file come together; generation problems of every patch come together. */
    @Test
    void problemsOfEveryFileAreReportedTogether() throws IOException {
        Path a = write("broken-a.xml", "<MODEL NAME='a'>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>\n</MODEL>\n");
        Path b = write("broken-b.xml", "<MODEL NAME='b'>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>\n"
                + "    <PATCH WHAT='NOPE' MODE='COUNT'/>\n  </FOR>\n  <BAR/>\n</MODEL>\n");
        Result r = dyper("generate", "--model", a.toString(), "--model", b.toString(), "--in", "{classes}",
                "--out", "{dir}/together");
        assertEquals(new Result(ExitCode.INVALID_INPUT, "", String.join("\n",
                "dyper: error: " + a + ":3:3: XML: not well-formed: The element type \"FOR\" must be terminated by "
                        + "the matching end-tag \"</FOR>\".",
                "dyper: error: " + b + ":3:5: PATCH: WHAT='NOPE' is not one of ENTER, EXIT, BLOCK_START, SYNC_TEST, "
                        + "SYNC_ENTER, SYNC_EXIT, STATIC_ACCESS, FIELD_ACCESS, STATIC_WRITE, FIELD_WRITE, OBJECT_ALLOC, "
                        + "ARRAY_ALLOC, BASE_ARRAY_ALLOC, CALL",
                "dyper: error: " + b + ":5:3: BAR: unknown element in MODEL (allowed: FOR)",
                "dyper: 3 problem(s); nothing was written", "")), r);

        Path c = write("broken-c.xml", "<MODEL NAME='c'>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>\n"
                + "    <PATCH WHAT='BLOCK_START' MODE='GONE'/>\n    <PATCH WHAT='ENTER' MODE='NOPE'/>\n  </FOR>\n"
                + "</MODEL>\n");
        r = dyper("generate", "--model", c.toString(), "--in", "{classes}", "--out", "{dir}/together");
        assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
        assertEquals(List.of("dyper: error: " + c + ":3:5: PATCH", "dyper: error: " + c + ":4:5: PATCH",
                        "dyper: 2 problem(s); nothing was written"),
                r.errLines().stream().map(l -> l.replaceFirst("^(dyper: error: [^ ]+: [A-Z_]+): .*", "$1")).toList(),
                r.err());
        assertFalse(Files.exists(dir.resolve("together")));
    }

    /** Warnings are printed with the errors, so that fixing the errors does not uncover more to fix. */
    @Test
    void warningsArePrintedWithTheErrors() throws IOException {
        Path m = write("errors-and-warnings.xml", "<MODEL NAME='e'>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='nothing'>\n"
                + "    <PATCH WHAT='ENTER' MODE='COUNT'/>\n  </FOR>\n  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>\n"
                + "    <PATCH WHAT='ENTER' MODE='NOPE'/>\n  </FOR>\n</MODEL>\n");
        Result r = dyper("generate", "--model", m.toString(), "--in", "{classes}", "--out", "{dir}/both");
        assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
        assertEquals(List.of("dyper: error: " + m + ":6:5: PATCH",
                        "dyper: " + m + ":2:3: warning: FOR: FOR CLASS='com.acme.cli.Tally' METHOD='nothing' matches no "
                                + "method in the woven code (2 class(es) scanned)",
                        "dyper: 1 problem(s); nothing was written"),
                r.errLines().stream().map(l -> l.replaceFirst("^(dyper: error: [^ ]+: [A-Z_]+): .*", "$1")).toList(),
                r.err());
    }

    @Test
    void forMatchingNothingIsAWarning() throws IOException {
        Path m = write("nomatch.xml", """
                <MODEL NAME='nomatch'>
                  <FOR CLASS='com.acme.cli.Tally' METHOD='subtract'>
                    <PATCH WHAT='ENTER' MODE='COUNT'/>
                  </FOR>
                </MODEL>
                """);
        Path out = dir.resolve("gen-nomatch");
        Result r = dyper("generate", "--model", m.toString(), "--in", "{classes}", "--out", out.toString());
        assertEquals(new Result(ExitCode.OK,
                "dyper: generated 0 advice for 0 site id(s) in 0 class(es): 0 aspect source(s), the site-table class, "
                        + "aop.xml and sites.tsv in "
                        + out + "\n",
                "dyper: " + m + ":2:3: warning: FOR: FOR CLASS='com.acme.cli.Tally' METHOD='subtract' matches no "
                        + "method in the woven code (2 class(es) scanned)\n"), r);
    }

    /**
     * Warnings have a bound (issue 20, item 8: a model of 663,656 FORs that matched nothing printed as many lines):
     * the first 10 of each kind, then one line counting the rest at the first of them; the same in generate, weave
     * and run.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"generate", "weave", "run"})
    void warningsOfOneKindAreCappedAndTheRestCounted(String command) throws IOException {
        StringBuilder xml = new StringBuilder("<MODEL NAME='many'>\n");
        for (int i = 0; i < 1000; i++) {
            xml.append("  <FOR CLASS='com.acme.none.C").append(i).append("' METHOD='m'><PATCH WHAT='ENTER' MODE='COUNT'/>"
                    + "</FOR>\n");
        }
        String callFor = "  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>";
        for (int i = 0; i < 25; i++) {
            xml.append(callFor).append("<PATCH WHAT='CALL' MODE='COUNT_CALLS'><WHEN CASE='METHOD' ARG='n").append(i)
                    .append("'/></PATCH></FOR>\n");
        }
        xml.append("  <FOR CLASS='com.acme.cli.Tally' METHOD='add'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>\n</MODEL>\n");
        Path m = write("many-" + command + ".xml", xml.toString());
        Path out = dir.resolve("many-out-" + command + (command.equals("weave") ? ".jar" : ""));
        Result r = switch (command) {
            case "generate" -> dyper("generate", "--model", m.toString(), "--in", "{classes}", "--out", out.toString());
            case "weave" -> dyper("weave", "--model", m.toString(), "--in", "{classes}", "--out", out.toString());
            default -> dyper("run", "--model", m.toString(), "--cache", out.toString(), "--report", "none", "--",
                    "-cp", classes.toString(), "com.acme.cli.App");
        };
        assertEquals(ExitCode.OK, r.code(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains(": warning: ")).toList();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            expected.add("dyper: " + m + ":" + (i + 2) + ":3: warning: FOR: FOR CLASS='com.acme.none.C" + i
                    + "' METHOD='m' matches no method in the woven code (2 class(es) scanned)");
        }
        expected.add("dyper: " + m + ":12:3: warning: FOR: … and 990 more FORs that match no method in the woven code"
                + " (the first here; only the first 10 are listed)");
        int column = callFor.length() + 1;
        for (int i = 0; i < 10; i++) {
            expected.add("dyper: " + m + ":" + (1002 + i) + ":" + column + ": warning: PATCH: WHAT='CALL' "
                    + "MODE='COUNT_CALLS' matches no join point in the 1 method(s) its FOR selects ("
                    + "com.acme.cli.Tally.add(int)): none of them makes a call that WHEN CASE='METHOD' ARG='n" + i
                    + "' selects (calls of constructors, super calls and invokedynamic are not CALL join points)");
        }
        expected.add("dyper: " + m + ":1012:" + column + ": warning: PATCH: … and 15 more PATCHes that match no join "
                + "point in the methods their FOR selects (the first here; only the first 10 are listed)");
        assertEquals(expected, warnings, r.err());
    }

    // ---- generate ----

    private static final List<String> SITES = List.of("# Dyper site table: id\tkind\tclass\tmethod\tparameters",
            "1\tMETHOD\tcom.acme.cli.Tally\tadd\tint");

    @Test
    void generateWritesSourcesAndCompilesThemForLoadTimeWeaving() throws IOException {
        Path out = dir.resolve("gen");
        Path compiled = dir.resolve("gen-classes");
        Result r = dyper("generate", "--model", "{model}", "--in", "{classes}", "--out", out.toString(),
                "--classes", compiled.toString());
        assertEquals(new Result(ExitCode.OK,
                "dyper: generated 1 advice for 1 site id(s) in 1 class(es): 1 aspect source(s), the site-table class, "
                        + "aop.xml and sites.tsv in " + out + "\n"
                        + "dyper: compiled the aspects into " + compiled + " (with META-INF/aop.xml)\n", ""), r);
        Path pkg = generatedPackage(out);
        assertTrue(Files.readString(pkg.resolve("DyperPatches1.aj")).contains("aspect DyperPatches1"));
        assertTrue(Files.readString(pkg.resolve("DyperSites.aj")).contains("class DyperSites"));
        assertTrue(Files.readString(out.resolve("aop.xml")).contains("<include within=\"com.acme.cli.Tally\"/>"));
        assertEquals(SITES, Files.readAllLines(out.resolve("sites.tsv")));
        assertTrue(Files.isRegularFile(compiled.resolve(out.relativize(pkg)).resolve("DyperPatches1.class")));
        assertEquals(Files.readString(out.resolve("aop.xml")), Files.readString(compiled.resolve("META-INF/aop.xml")));
        assertEquals(SITES, Files.readAllLines(compiled.resolve("META-INF/dyper/sites.tsv")));
    }

    /** The one package of generated sources under {@code out} (each generation has its own). */
    static Path generatedPackage(Path out) throws IOException {
        try (Stream<Path> dirs = Files.list(out.resolve("org/dyper/generated"))) {
            List<Path> all = dirs.toList();
            assertEquals(1, all.size(), all.toString());
            return all.get(0);
        }
    }

    // ---- weave ----

    @Test
    void weaveKeepsResourcesAndManifestDropsSignaturesAndTheWovenJarCounts() throws Exception {
        Path input = dir.resolve("app.jar");
        jar(input, "com.acme.cli.App", Map.of("com/acme/cli/greeting.txt", "hello\n", "META-INF/TEST.SF",
                "Signature-Version: 1.0\n"));
        Path woven = dir.resolve("woven.jar");
        Result r = dyper("weave", "--model", "{model}", "--in", input.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Pattern.matches("dyper: wrote " + Pattern.quote(woven.toString())
                + " \\(1 class\\(es\\) patched, 1 advice, 1 site id\\(s\\)\\) in \\d+\\.\\d s\n", r.out()), r.out());
        assertEquals(List.of("dyper: generating aspects for " + input + " ...",
                "dyper: weaving 1 patched class(es) with 1 advice (ajc) ...",
                "dyper: note: dropped signature file META-INF/TEST.SF: woven classes no longer match the signature"),
                r.errLines());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals(SITES, List.of(read(jar, "META-INF/dyper/sites.tsv").split("\n")));
            assertEquals("hello\n", read(jar, "com/acme/cli/greeting.txt"));
            assertEquals("com.acme.cli.App", jar.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
            assertNull(jar.getEntry("META-INF/TEST.SF"));
            assertTrue(Pattern.compile("<aspect name=\"org\\.dyper\\.generated\\.g[0-9a-f]{12}\\.DyperPatches1\"/>")
                    .matcher(read(jar, "META-INF/dyper/aop.xml")).find(), read(jar, "META-INF/dyper/aop.xml"));
        }

        Path report = dir.resolve("weave-report.xml");
        String runtime = dyper("classpath").out().strip();
        Child plain = java(List.of("-cp", classes.toString(), "com.acme.cli.App"));
        Child patched = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp",
                woven + SEP + runtime, "com.acme.cli.App"));
        assertEquals(new Child(0, "total 15\n", ""), plain);
        assertEquals(plain, patched);
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    @Test
    void weavesAClassFolderToo() throws IOException {
        Path woven = dir.resolve("new-folder/deeper/from-folder.jar");  // folders that do not exist yet are made
        Result r = dyper("weave", "--model", "{model}", "--in", "{classes}", "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals(SITES, List.of(read(jar, "META-INF/dyper/sites.tsv").split("\n")));
            assertTrue(jar.getEntry("com/acme/cli/App.class") != null);
        }
    }

    private static String read(JarFile jar, String name) throws IOException {
        JarEntry e = jar.getJarEntry(name);
        assertTrue(e != null, name + " is missing");
        try (InputStream in = jar.getInputStream(e)) {
            return new String(in.readAllBytes(), UTF_8);
        }
    }

    /** A jar of the fixture classes with a Main-Class manifest and the given extra files. */
    private static void jar(Path file, String mainClass, Map<String, String> extra) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            try (Stream<Path> walk = Files.walk(classes)) {
                for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                    jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                    jar.write(Files.readAllBytes(f));
                    jar.closeEntry();
                }
            }
            for (Map.Entry<String, String> e : extra.entrySet()) {
                jar.putNextEntry(new JarEntry(e.getKey()));
                jar.write(e.getValue().getBytes(UTF_8));
                jar.closeEntry();
            }
        }
    }

    /** COUNTS of the XML report, site name to COUNT. */
    private static Map<String, String> counts(Path report) throws Exception {
        return XmlReports.counts(report);
    }

    // ---- classpath and modes ----

    @Test
    void classpathPrintsExistingRuntimeJars() {
        Result r = dyper("classpath");
        assertEquals(ExitCode.OK, r.code());
        assertEquals("", r.err());
        assertTrue(r.out().endsWith("\n") && r.out().indexOf('\n') == r.out().length() - 1, r.out());
        List<String> entries = List.of(r.out().strip().split(SEP));
        assertEquals(2, entries.size(), r.out());
        for (String e : entries) {
            assertTrue(Path.of(e).isAbsolute() && Files.exists(Path.of(e)), e);
        }
    }

    @Test
    void modesListsTheLibrary() {
        Result r = dyper("modes");
        assertEquals(ExitCode.OK, r.code());
        assertEquals("", r.err());
        List<String> lines = List.of(r.out().split("\n"));
        assertEquals("Dyper's mode library (use these names in PATCH MODE='...'):", lines.get(0));
        List<String> names = lines.subList(1, lines.size()).stream().map(l -> l.strip().split(" ")[0]).toList();
        assertTrue(names.containsAll(List.of("COUNT", "TIME_ENTER", "TIME_EXIT", "SAMPLE_ENTER", "SAMPLE_EXIT",
                "RECORD_RETURN")), names.toString());
        assertTrue(lines.contains("  COUNT              count executions, one counter per patched method"),
                r.out());
    }

    @Test
    void ctlWarnsAboutARegistryFolderOthersCanWriteTo() throws IOException {
        Path open = Files.createDirectories(dir.resolve("open-registry"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Result r = dyper("ctl", "--dir", open.toString(), "who");
        assertEquals(new Result(ExitCode.OK, "", "dyper: warning: the registry folder " + open + " is writable by other "
                + "users (rwxrwxrwx): they can remove entries or plant false ones; use a folder only you can write to "
                + "(chmod o-w, or the monitor's dir option and dyper ctl --dir)\n"), r);
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        assertEquals(new Result(ExitCode.OK, "", ""), dyper("ctl", "--dir", open.toString(), "who"));
    }

    // ---- run (child JVM: the program inherits stdout and the exit code) ----

    record Child(int code, String out, String err) {}

    private static Child java(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Processes.currentJava().toString());
        cmd.addAll(args);
        return run(cmd, dir, 60);
    }

    /** Runs {@code cmd} in {@code workDir}, reading both its streams; fails the test if it takes over {@code seconds}. */
    static Child run(List<String> cmd, Path workDir, int seconds) throws IOException, InterruptedException {
        Processes.Result r = Processes.run(new ProcessBuilder(cmd).directory(workDir.toFile()),
                Duration.ofSeconds(seconds));
        return new Child(r.exit(), r.out(), r.err());
    }

    private static Child cli(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return java(cmd);
    }

    private static final Pattern ASPECTS = Pattern.compile(
            "^dyper: woven classes and aspects (made in|reused from) (\\S+)$", Pattern.MULTILINE);
    private static final String FIRST_RUN = "(first run with these inputs; later runs reuse it) ...";

    @Test
    void runPassesOutputAndExitCodeThroughAndCachesTheAspects() throws Exception {
        Path app = dir.resolve("run-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path runModel = Files.copy(model, dir.resolve("run-model.xml"));
        Path cache = dir.resolve("cache");
        Path report = dir.resolve("run-report.xml");
        List<String> args = List.of("run", "--model", runModel.toString(), "--cache", cache.toString(), "--verbose",
                "--report", "none", "--xml", report.toString(), "--", "-jar", app.toString(), "a", "b");

        Child first = cli(args);
        assertEquals(7, first.code(), first.err());
        assertEquals("total 15\nargs a,b\n", first.out());
        assertEquals(Map.of(ADD, "5"), counts(report));
        Matcher compiled = ASPECTS.matcher(first.err());
        assertTrue(compiled.find(), first.err());
        assertEquals("made in", compiled.group(1));
        assertTrue(first.err().contains(FIRST_RUN), first.err());
        assertTrue(Files.isRegularFile(Path.of(compiled.group(2), LaunchWeaving.PREWOVEN)));
        assertTrue(first.err().lines().noneMatch(l -> l.contains("aspectjweaver")), "no AspectJ weaver agent: "
                + first.err());

        Files.delete(report);
        Child second = cli(args);
        assertEquals(new Child(7, "total 15\nargs a,b\n", second.err()), second);
        Matcher reused = ASPECTS.matcher(second.err());
        assertTrue(reused.find(), second.err());
        assertEquals(List.of("reused from", compiled.group(2)), List.of(reused.group(1), reused.group(2)));
        assertFalse(second.err().contains(FIRST_RUN), second.err());
        assertEquals(Map.of(ADD, "5"), counts(report));

        Files.writeString(runModel, Files.readString(runModel) + "<!-- changed -->\n");
        Child third = cli(args.subList(0, args.size() - 2));  // no program arguments: exit 0
        assertEquals(new Child(0, "total 15\n", third.err()), third);
        Matcher again = ASPECTS.matcher(third.err());
        assertTrue(again.find(), third.err());
        assertEquals("made in", again.group(1));
        assertNotEquals(compiled.group(2), again.group(2));
    }

    /**
     * From a multi-release jar the JVM loads the class of its release: that is the one woven ahead (a base entry would
     * not match what loads, and the class would run unpatched).
     */
    /**
     * The fixture as a multi-release jar: Tally also under META-INF/versions/17 with different bytes (an extra field),
     * which is the one JDK 17 and later load.
     */
    private static Path multiReleaseJar(Path app) throws IOException {
        byte[] tally = Files.readAllBytes(classes.resolve("com/acme/cli/Tally.class"));
        org.objectweb.asm.ClassWriter versioned = new org.objectweb.asm.ClassWriter(0);
        new org.objectweb.asm.ClassReader(tally).accept(new org.objectweb.asm.ClassVisitor(
                org.objectweb.asm.Opcodes.ASM9, versioned) {
            @Override
            public void visitEnd() {
                visitField(org.objectweb.asm.Opcodes.ACC_PRIVATE | org.objectweb.asm.Opcodes.ACC_STATIC,
                        "release17", "I", null, null).visitEnd();
                super.visitEnd();
            }
        }, 0);
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.acme.cli.App");
        mf.getMainAttributes().putValue("Multi-Release", "true");
        try (OutputStream out = Files.newOutputStream(app); JarOutputStream jar = new JarOutputStream(out, mf)) {
            for (String name : List.of("com/acme/cli/App.class", "com/acme/cli/Tally.class")) {
                jar.putNextEntry(new JarEntry(name));
                jar.write(Files.readAllBytes(classes.resolve(name)));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("META-INF/versions/17/com/acme/cli/Tally.class"));
            jar.write(versioned.toByteArray());
            jar.closeEntry();
        }
        return app;
    }

    /** dyper weave on a multi-release jar weaves the base class and the versioned one (ajc alone stops on them). */
    @Test
    void weaveWeavesEveryReleaseOfAMultiReleaseJar() throws Exception {
        Path app = multiReleaseJar(dir.resolve("mr-weave.jar"));
        Path woven = dir.resolve("mr-woven.jar");
        Result r = dyper("weave", "--model", "{model}", "--in", app.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        try (JarFile jar = new JarFile(woven.toFile())) {
            assertEquals("true", jar.getManifest().getMainAttributes().getValue("Multi-Release"));
            for (String entry : List.of("com/acme/cli/Tally.class", "META-INF/versions/17/com/acme/cli/Tally.class")) {
                try (InputStream in = jar.getInputStream(jar.getJarEntry(entry))) {
                    String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
                    assertTrue(text.contains("org/dyper/generated/g"), entry + " is woven");
                }
            }
            try (InputStream in = jar.getInputStream(jar.getJarEntry("META-INF/versions/17/com/acme/cli/Tally.class"))) {
                assertTrue(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains("release17"), "the versioned class stays the versioned one");
            }
        }
        Path report = dir.resolve("mr-weave-report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp", woven
                + File.pathSeparator + dyper("classpath").out().trim(), "com.acme.cli.App"));
        assertEquals(new Child(0, "total 15\n", ""), run);
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    @Test
    void runWeavesTheClassAMultiReleaseJarGivesTheRunningJdk() throws Exception {
        Path app = multiReleaseJar(dir.resolve("mr-app.jar"));
        Path report = dir.resolve("mr-report.xml");
        Child run = cli(List.of("run", "--model", model.toString(), "--cache", dir.resolve("mr-cache").toString(),
                "--no-monitor", "--report", "none", "--xml", report.toString(), "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertTrue(run.err().lines().noneMatch(l -> l.contains("is not the class Dyper prepared")), run.err());
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    @Test
    void runWithTheWeaverAgentWeavesAsClassesLoad() throws Exception {
        Path app = dir.resolve("agent-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path report = dir.resolve("agent-report.xml");
        Child run = cli(List.of("run", "--weaver-agent", "--model", model.toString(), "--cache",
                dir.resolve("agent-cache").toString(), "--verbose", "--no-monitor", "--report", "none", "--xml",
                report.toString(), "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertEquals(Map.of(ADD, "5"), counts(report));
        assertTrue(run.err().contains("dyper: aspects made in "), run.err());
        assertTrue(run.err().lines().anyMatch(l -> l.startsWith("dyper: ") && l.contains("-javaagent:")
                && l.contains("aspectjweaver")), "the command names the AspectJ weaver agent: " + run.err());
    }

    @Test
    void aProgramWhosePatchesCallOnlyTheUsersOwnModesEndsWithoutAnEmptyReport() throws Exception {
        Path app = dir.resolve("own-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path modes = write("own-modes.xml", """
                <DYPATCH>
                  <DYPATCH_MODE NAME='SPIN'>
                    <CODE TYPE='CALL' CLASS='java.lang.Thread' METHOD='onSpinWait' SIGNATURE='()'/>
                  </DYPATCH_MODE>
                </DYPATCH>
                """);
        Path own = write("own-model.xml", """
                <MODEL NAME='own'>
                  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>
                    <PATCH WHAT='ENTER' MODE='SPIN'/>
                  </FOR>
                </MODEL>
                """);
        Child run = cli(List.of("run", "--model", own.toString(), "--modes", modes.toString(), "--cache",
                dir.resolve("own-cache").toString(), "--no-monitor", "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertTrue(run.err().lines().allMatch(l -> l.startsWith("dyper: ")), "only Dyper's own progress lines, no "
                + "report that says nothing: " + run.err());
    }

    /** A jar of the named fixture classes of {@code com.acme.cli}, with {@code mainClass} as its Main-Class. */
    private static Path fixtureJar(Path file, String mainClass, List<String> names) throws Exception {
        Path compiled = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            for (String name : names) {
                String entry = "com/acme/cli/" + name + ".class";
                jar.putNextEntry(new JarEntry(entry));
                jar.write(Files.readAllBytes(compiled.resolve(entry)));
                jar.closeEntry();
            }
        }
        return file;
    }

    /** One jar of {@code Sleeper} for the tests that stop it, so they share one cache entry (woven once). */
    private static synchronized Path sleeperJar() throws Exception {
        Path jar = dir.resolve("sleeper.jar");
        return Files.exists(jar) ? jar : fixtureJar(jar, "com.acme.cli.Sleeper", List.of("Sleeper", "Tally"));
    }

    /** Whether this JVM was started with {@code signal} ignored (a background job of a shell that has no job control). */
    private static boolean ignored(int signal) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalToDyperRunStopsTheProgramWhichEndsWithItsReportBeforeDyperRunReturnsItsExitCode(String signal)
            throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(signal.equals("INT") && ignored(2),
                "SIGINT is ignored in this JVM (started in the background), so its children cannot get it either");
        Path app = sleeperJar();
        Path report = dir.resolve("sleeper-" + signal + ".xml");
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--model", model.toString(),
                "--cache", dir.resolve("sleeper-cache").toString(), "--no-monitor", "--report", "none", "--xml",
                report.toString(), "--", "-jar", app.toString()));
        try (Running cli = Processes.start(cmd)) {
            assertEquals("sleeper: started", cli.line(0, Duration.ofSeconds(60)));
            List<ProcessHandle> programs = cli.process().children().toList();
            assertEquals(1, programs.size(), "dyper run starts the program as its child");
            Processes.signal(cli.pid(), signal);
            int exit = cli.awaitExit(Duration.ofSeconds(60));
            assertFalse(programs.get(0).isAlive(), "dyper run returned while the program still ran");
            assertEquals("sleeper: stopped", cli.line(1, Duration.ofSeconds(10)),
                    "the program's shutdown hooks ran before dyper run returned");
            assertEquals(signal.equals("TERM") ? 128 + 15 : 128 + 2, exit, "the program's exit code");
        }
        assertEquals(Map.of(ADD, "3"), counts(report), "the report was written before dyper run returned");
    }

    @Test
    void whenDyperRunIsKilledTheMonitorEndsTheProgramWhichStillWritesItsReport() throws Exception {
        Path app = sleeperJar();
        Path report = dir.resolve("sleeper-kill.xml");
        Path registry = Files.createDirectories(dir.resolve("sleeper-registry"));
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--model", model.toString(),
                "--cache", dir.resolve("sleeper-cache").toString(), "--monitor", "dir=" + registry, "--report", "none",
                "--xml", report.toString(), "--", "-jar", app.toString()));
        // the program's output goes to a file: a pipe would close with dyper run
        Path out = dir.resolve("sleeper-kill.out");
        Process cli = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(dir.resolve("sleeper-kill.err").toFile()).start();
        for (int i = 0; i < 600 && !Files.readString(out).equals("sleeper: started\n"); i++) {
            Thread.sleep(100);
        }
        assertEquals("sleeper: started\n", Files.readString(out));
        ProcessHandle program = cli.children().findFirst().orElseThrow();
        try {
            // SIGKILL: dyper run cannot pass it on
            Processes.signal(cli.pid(), "KILL");
            Processes.awaitExit(cli, Duration.ofSeconds(60), "the killed dyper run");
            program.onExit().get(60, TimeUnit.SECONDS);
        } finally {
            program.destroyForcibly();  // if the test failed: no orphan left running
        }
        assertEquals("sleeper: started\nsleeper: stopped\n", Files.readString(out),
                "the program ended normally: its shutdown hooks ran");
        assertEquals(Map.of(ADD, "3"), counts(report));
        assertTrue(Files.readString(dir.resolve("sleeper-kill.err")).contains("dyper: the launcher of this program "
                + "(process " + cli.pid() + ") is gone: ending the program as SIGTERM would\n"),
                Files.readString(dir.resolve("sleeper-kill.err")));
    }

    @Test
    void runWithoutAModelRunsTheProgramUnderTheMonitorAlone() throws Exception {
        Path app = dir.resolve("plain-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path registry = Files.createDirectories(dir.resolve("plain-registry"));
        Child run = cli(List.of("run", "--verbose", "--monitor", "dir=" + registry, "--", "-jar", app.toString(), "x"));
        assertEquals(7, run.code(), run.err());
        assertEquals("total 15\nargs x\n", run.out());
        List<String> err = run.err().lines().toList();
        assertEquals(2, err.size(), run.err());
        assertTrue(err.get(0).startsWith("dyper: ") && err.get(0).contains(" -javaagent:")
                && err.get(0).contains("dyper-runtime") && err.get(0).endsWith(" -jar " + app + " x"),
                "the java command, with the monitor agent and nothing else of Dyper: " + err.get(0));
        assertFalse(err.get(0).contains("replace=") || err.get(0).contains("aspectjweaver")
                || err.get(0).contains("-Ddyper."), err.get(0));
        Matcher started = Pattern.compile("dyper: no model, nothing patched: the program \\(process (\\d+)\\) runs "
                + "under the DYPER monitor alone; dyper ctl (\\d+) REPORT shows where its time goes").matcher(err.get(1));
        assertTrue(started.matches(), err.get(1));
        assertEquals(started.group(1), started.group(2));
        try (Stream<Path> entries = Files.list(registry)) {
            assertEquals(List.of(), entries.toList(), "the monitor ran and removed its entry at exit");
        }
    }

    @Test
    void runWithoutAModelWritesTheMonitorsReportAsXmlAndHtml() throws Exception {
        Path app = dir.resolve("plain-report-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path registry = Files.createDirectories(dir.resolve("plain-report-registry"));
        Path xml = dir.resolve("plain.xml");
        Path html = dir.resolve("plain.html");
        Child run = cli(List.of("run", "--xml", xml.toString(), "--html", html.toString(), "--monitor",
                "dir=" + registry, "--", "-jar", app.toString(), "x"));
        assertEquals(7, run.code(), run.err());
        assertEquals("total 15\nargs x\n", run.out());
        String report = Files.readString(xml);
        assertTrue(report.startsWith("<DYPER_REPORT ") && report.contains("<MONITOR_REPORT ")
                && report.contains(" MAIN='" + app + "'"), report);
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.contains("<title>Dyper report: " + app + " (pid "),
                "an HTML page of the monitor's report: " + page.substring(0, Math.min(400, page.length())));
    }

    /** Entries of {@code folder} whose names contain {@code part}. */
    private static List<String> entries(Path folder, String part) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(part)).sorted().toList();
        }
    }

    /** Starts the CLI with {@code java.io.tmpdir} = {@code tmp}, and kills it (SIGKILL) once {@code made} exists. */
    private static void killWhenItMade(Path tmp, List<String> args, java.util.function.LongFunction<Boolean> made)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        for (int i = 0; i < 1200 && !made.apply(p.pid()) && p.isAlive(); i++) {
            Thread.sleep(50);
        }
        assertTrue(made.apply(p.pid()), "the CLI made no temporary files before it ended");
        Processes.signal(p.pid(), "KILL");
        Processes.awaitExit(p, Duration.ofSeconds(30), "the killed CLI");
    }

    @Test
    void whatAKilledWeaveOrRunLeftBehindIsRemovedByTheNextOne() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("killed-tmp"));
        Path out = Files.createDirectories(dir.resolve("killed-out"));
        Path app = dir.resolve("killed-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        List<String> weave = List.of("weave", "--model", model.toString(), "--in", app.toString(), "--out",
                out.resolve("woven.jar").toString());
        killWhenItMade(tmp, weave, pid -> {
            try {
                return !entries(tmp, "dyper-src-p" + pid + "-").isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        assertTrue(!entries(tmp, "dyper-").isEmpty(), "the kill left temporary files");

        List<String> again = new ArrayList<>(List.of("-Djava.io.tmpdir=" + tmp));
        again.addAll(weave);
        Child woven = java(withCli(again));
        assertEquals(0, woven.code(), woven.err());
        assertEquals(List.of(), entries(tmp, ""), "the next weave removed them, and its own");
        assertEquals(List.of("woven.jar"), entries(out, ""));

        Path cache = dir.resolve("killed-cache");
        List<String> run = List.of("run", "--model", model.toString(), "--cache", cache.toString(), "--no-monitor",
                "--report", "none", "--", "-jar", app.toString());
        killWhenItMade(tmp, run, pid -> {
            try {
                return Files.isDirectory(cache) && !entries(cache, ".tmp-p" + pid + "-").isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        assertEquals(1, entries(cache, ".tmp-p").size(), "the kill left a cache entry half made");
        List<String> runAgain = new ArrayList<>(List.of("-Djava.io.tmpdir=" + tmp));
        runAgain.addAll(run);
        Child ran = java(withCli(runAgain));
        assertEquals(new Child(0, "total 15\n", ran.err()), ran);
        assertEquals(List.of(), entries(cache, ".tmp"), "the next run removed the half-made entry");
        assertEquals(1, entries(cache, "").size(), "one complete entry: " + entries(cache, ""));
        assertEquals(List.of(), entries(tmp, ""));
    }

    /** {@code jvmOptions... Main args...}: the CLI's command after {@code java}, JVM options first. */
    private static List<String> withCli(List<String> optionsThenArgs) {
        List<String> cmd = new ArrayList<>();
        int i = 0;
        while (i < optionsThenArgs.size() && optionsThenArgs.get(i).startsWith("-D")) {
            cmd.add(optionsThenArgs.get(i++));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(optionsThenArgs.subList(i, optionsThenArgs.size()));
        return cmd;
    }
}
