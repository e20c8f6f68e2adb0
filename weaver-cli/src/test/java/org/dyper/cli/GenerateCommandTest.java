package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dyper generate}, and invalid models and modes: exit 3 with every problem as FILE:LINE:COL: ELEMENT: message,
 * all together, warnings with them.
 */
class GenerateCommandTest extends CliFixture {
    // ---- invalid input: exit 3, every problem as FILE:LINE:COL: ELEMENT: message ----

    private static final String ABS = "CLASS='java.lang.Math' METHOD='abs' SIGNATURE='long (long)'";

    /** A mode file of one mode ({@code mode}: its attributes) whose CODE calls {@code call} with one ARG. */
    private static String oneCallMode(String mode, String call, String argType) {
        return "<DYPATCH>\n  <DYPATCH_MODE " + mode + ">\n    <CODE TYPE='CALL' " + call + ">\n      <ARG TYPE='"
                + argType + "'/>\n    </CODE>\n  </DYPATCH_MODE>\n</DYPATCH>\n";
    }

    /** The lines of stderr with each error cut after its place and element ({@code dyper: error: FILE:L:C: ELEMENT}). */
    private static List<String> placesOfErrors(Result r) {
        return r.errLines().stream().map(l -> l.replaceFirst("^(dyper: error: [^ ]+: [A-Z_]+): .*", "$1")).toList();
    }

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
                        oneCallMode("NAME='PARSE'", "CLASS='java.lang.Integer' METHOD='parseInt' SIGNATURE='(long)'",
                                "NULL"),
                        List.of("{modes}:3:5: CODE: SIGNATURE '(long)' does not match any method "
                                + "java.lang.Integer.parseInt (found: ")),
                Arguments.of("CONTEXT that no patch sets", forAdd + "<PATCH WHAT='EXIT' MODE='ABS_CONTEXT'/>" + end,
                        oneCallMode("NAME='ABS_CONTEXT' CONTEXT='long'", ABS, "CONTEXT"),
                        List.of("{modes}:3:5: CODE: uses CONTEXT but no earlier patch of the same invocation sets it "
                                + "with <RETURN TYPE='CONTEXT'/> (an ENTER patch for EXIT, an earlier CALL patch for "
                                + "CALL) (PATCH WHAT='EXIT' MODE='ABS_CONTEXT' at {model}:3:5)")),
                Arguments.of("ARG RETURN at ENTER", forAdd + "<PATCH WHAT='ENTER' MODE='ABS_RETURN'/>" + end,
                        oneCallMode("NAME='ABS_RETURN'", ABS, "RETURN"),
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
                placesOfErrors(r), r.err());
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
                placesOfErrors(r), r.err());
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
        // COUNT at ENTER is the plain way: a shared wrapper, no advice (docs/bytecode-pass.md)
        assertTrue(Files.readString(pkg.resolve("DyperPlain1.aj")).contains("aspect DyperPlain1"));
        assertTrue(Files.readString(pkg.resolve("DyperSites.aj")).contains("class DyperSites"));
        assertTrue(Files.readString(out.resolve("aop.xml")).contains("<include within=\"com.acme.cli.Tally\"/>"));
        assertEquals(SITES, Files.readAllLines(out.resolve("sites.tsv")));
        assertTrue(Files.isRegularFile(compiled.resolve(out.relativize(pkg)).resolve("DyperPlain1.class")));
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

    /**
     * Warnings have a bound (issue 20, item 8: a model of 663,656 FORs that matched nothing printed as many lines):
     * the first 10 of each kind, then one line counting the rest at the first of them; the same in generate, weave
     * and run.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"generate", "weave", "run"})
    void warningsOfOneKindAreCappedAndTheRestCounted(String command) throws IOException {
        Path m = write("many-" + command + ".xml", manyUnmatched());
        Result r = withModel(command, m, "many-out-");
        assertEquals(ExitCode.OK, r.code(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains(": warning: ")).toList();
        assertEquals(capped(m), warnings, r.err());
    }

    /** The same with the CLI's own JVM on the second JDK: {@code dyper generate} prints the same capped lines. */
    @Test
    void warningsAreCappedTheSameWhenTheCliRunsOnJdk25() throws Exception {
        Path m = write("many-jdk25.xml", manyUnmatched());
        Processes.Result r = Processes.run(List.of(Jdk.JDK25.java().toString(), "-Dstderr.encoding=UTF-8", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "generate", "--model", m.toString(),
                "--in", classes.toString(), "--out", dir.resolve("many-out-jdk25").toString()), Duration.ofSeconds(120));
        assertEquals(ExitCode.OK, r.exit(), r.err());
        assertEquals(capped(m), r.err().lines().filter(l -> l.contains(": warning: ")).toList(), r.err());
    }

    /**
     * Memory in a small multiple of the model (issue 20, item 8: a model's whole XML tree and one string per line
     * were kept; a 58 MB model needed more than 512 MB of heap): a 2.1 MB model of 25,000 FORs that match nothing is
     * read, checked and generated in a 16 MB heap, the CLI's own needs included.
     */
    @Test
    void aBigModelIsReadInASmallMultipleOfItsSize() throws Exception {
        StringBuilder xml = new StringBuilder("<MODEL NAME='big'>\n");
        for (int i = 0; i < 25_000; i++) {
            xml.append("  <FOR CLASS='com.nowhere.C").append(i).append("' METHOD='m'><PATCH WHAT='ENTER' MODE='COUNT'/>"
                    + "</FOR>\n");
        }
        Path m = write("big.xml", xml.append("  <FOR CLASS='com.acme.cli.Tally' METHOD='add'><PATCH WHAT='ENTER' "
                + "MODE='COUNT'/></FOR>\n</MODEL>\n").toString());
        Processes.Result r = Processes.run(List.of(Processes.currentJava().toString(), "-Xmx16m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-Dstderr.encoding=UTF-8", "-Dsun.stderr.encoding=UTF-8", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "generate", "--model", m.toString(), "--in",
                classes.toString(), "--out", dir.resolve("big-out").toString()), Duration.ofSeconds(120));
        assertEquals(ExitCode.OK, r.exit(), r.err());
        assertEquals(List.of("dyper: " + m + ":2:3: warning: FOR: FOR CLASS='com.nowhere.C0' METHOD='m' matches no "
                + "method in the woven code (2 class(es) scanned)", "dyper: " + m + ":12:3: warning: FOR: … and "
                + "24,990 more FORs that match no method in the woven code (the first here; only the first 10 are "
                + "listed)"), r.err().lines().filter(l -> l.contains(": warning: ")).toList().subList(0, 11).stream()
                .filter(l -> l.contains(":2:3:") || l.contains(":12:3:")).toList(), r.err());
    }

    /** 1,000 FORs that match no method, and 25 CALL patches that match no call, beside one that works. */
    private static String manyUnmatched() {
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
        return xml.toString();
    }

    /** The warnings {@link #manyUnmatched} gets: the first 10 of each kind, then one line counting the rest. */
    private static List<String> capped(Path m) {
        String callFor = "  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>";
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
        return expected;
    }

    /**
     * Errors have a bound too: the first 100 are listed, then one error counts the rest at the first of them, and the
     * last line says how many there were in all.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"generate", "weave", "run"})
    void errorsPastTheFirstHundredAreCounted(String command) throws IOException {
        StringBuilder xml = new StringBuilder("<MODEL NAME='bad'>\n");
        String head = "  <FOR CLASS='com.acme.cli.Tally' METHOD='add'><PATCH WHAT='ENTER' MODE='NO";
        for (int i = 0; i < 250; i++) {
            xml.append(head).append(i).append("'/></FOR>\n");
        }
        Path m = write("bad-" + command + ".xml", xml.append("</MODEL>\n").toString());
        Result r = withModel(command, m, "bad-out-");
        assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
        List<String> errors = r.errLines().stream().filter(l -> l.startsWith("dyper: error: ")).toList();
        assertEquals(101, errors.size(), r.err());
        int column = head.indexOf("<PATCH") + 1;
        assertTrue(errors.get(99).startsWith("dyper: error: " + m + ":101:" + column + ": PATCH: unknown MODE 'NO99'"),
                errors.get(99));
        assertEquals("dyper: error: " + m + ":102:" + column + ": PATCH: … and 150 more errors (the first here; only"
                + " the first 100 are listed)", errors.get(100));
        assertEquals("dyper: 250 problem(s); nothing was written", r.errLines().get(r.errLines().size() - 1));
    }

    /** {@code dyper generate}, {@code weave} or {@code run} (of the fixture's App) with the model {@code m}. */
    private Result withModel(String command, Path m, String outName) {
        Path out = dir.resolve(outName + command + (command.equals("weave") ? ".jar" : ""));
        return switch (command) {
            case "generate" -> dyper("generate", "--model", m.toString(), "--in", "{classes}", "--out", out.toString());
            case "weave" -> dyper("weave", "--model", m.toString(), "--in", "{classes}", "--out", out.toString());
            default -> dyper("run", "--model", m.toString(), "--cache", out.toString(), "--report", "none", "--",
                    "-cp", classes.toString(), "com.acme.cli.App");
        };
    }
}
