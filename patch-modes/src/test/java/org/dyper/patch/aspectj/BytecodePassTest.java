package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.patch.gentest.Recorder;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.launch.LaunchCache;
import org.dyper.patch.launch.LaunchOptions;
import org.dyper.patch.build.Weaver;
import org.example.blocks.Loops;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bytecode pass (BLOCK_START, WHEN BLOCK, LOCAL, INSNO, BLOCKID, REFBLOCKID, CONDITION LOCAL): generate, patch,
 * weave the fixture {@link Loops} with ajc, run it, and compare the exact events; the same model at load time in a
 * child JVM (JDK 17 and 25) gives the same events. Block ids are named through the generated site table
 * ({@code block N (line L)}), so the test does not depend on how the runtime names BLOCK sites.
 *
 * <p>{@code Loops.sum(int)} compiles to 21 instructions in 7 blocks, starting at instructions 0 (entry), 4 (loop
 * test), 7 (loop body: the if), 11 (then), 16 (else), 17 (i++) and 19 (return); sum(5) runs them 1, 6, 5, 3, 2, 5
 * and 1 times.
 */
class BytecodePassTest {
    private static final String L = "org.example.blocks.Loops";
    private static final String R = "org.dyper.patch.gentest.Recorder";

    private static final String MODES = "<DYPATCH>\n"
            + mode("INSNO", "number", "(int)", "", "<ARG TYPE='INSNO'/>")
            + mode("BLOCKS", "raw", "(int,int)", "", "<ARG TYPE='BLOCKID'/><ARG TYPE='REFBLOCKID'/>")
            + mode("INSNO_RET", "raw", "(int,int)", "", "<ARG TYPE='INSNO'/><ARG TYPE='RETURN'/>")
            + mode("LOCAL_2", "value", "(int,long)", "", "<ARG TYPE='METHODID'/><ARG TYPE='LOCAL' VALUE='2'/>")
            + mode("LOCAL_TOTAL", "value", "(int,long)", "", "<ARG TYPE='METHODID'/><ARG TYPE='LOCAL' VALUE='total'/>")
            + mode("LOCAL_TOTAL_RET", "change", "(int,long,long)", "",
                    "<ARG TYPE='METHODID'/><ARG TYPE='LOCAL' VALUE='total'/><ARG TYPE='RETURN'/>")
            + mode("INSNO_IF_I2", "number", "(int)", "<CONDITION TYPE='LOCAL' LVALUE='i' RVALUE='2'/>",
                    "<ARG TYPE='INSNO'/>")
            + mode("INSNO_IF_SLOT3_IS_3", "number", "(int)", "<CONDITION TYPE='LOCAL' LVALUE='3' RVALUE='3'/>",
                    "<ARG TYPE='INSNO'/>")
            + mode("SELF", "self", "(java.lang.Object)", "", "<ARG TYPE='THIS'/>")
            + mode("ARG1", "value", "(int,long)", "", "<ARG TYPE='METHODID'/><ARG TYPE='ARG' VALUE='1'/>")
            + mode("FIELD_SEEN", "value", "(int,long)", "", "<ARG TYPE='METHODID'/><ARG TYPE='FIELD' VALUE='seen'/>")
            + mode("ID", "id", "(int)", "", "<ARG TYPE='METHODID'/>")
            + mode("SELF_AT", "selfAt", "(java.lang.Object,int)", "", "<ARG TYPE='THIS'/><ARG TYPE='INSNO'/>")
            + "</DYPATCH>\n";

    static Stream<Arguments> cases() {
        return Stream.of(
                c("BLOCK_START: every block of a loop with an if/else, in execution order",
                        fr("sum", p("BLOCK_START", "INSNO")),
                        "number 0", "number 4",
                        "number 7", "number 11", "number 17", "number 4",
                        "number 7", "number 16", "number 17", "number 4",
                        "number 7", "number 11", "number 17", "number 4",
                        "number 7", "number 16", "number 17", "number 4",
                        "number 7", "number 11", "number 17", "number 4",
                        "number 19"),
                c("WHEN BLOCK narrows BLOCK_START to one block", fr("sum", pw("BLOCK_START", "INSNO", "16")),
                        "number 16", "number 16"),
                c("LOCAL by slot number", fr("sum", p("EXIT", "LOCAL_2")), "value Loops.sum(int) 4"),
                c("LOCAL by name", fr("sum", p("EXIT", "LOCAL_TOTAL")), "value Loops.sum(int) 4"),
                c("LOCAL with RETURN at EXIT", fr("sum", p("EXIT", "LOCAL_TOTAL_RET")), "change Loops.sum(int) 4 -> 4"),
                c("INSNO at CALL: two calls of the same method", fr("calls", pm("CALL", "INSNO", "twice")),
                        "number 1", "number 4"),
                c("INSNO and RETURN at CALL (after the call)", fr("calls", pm("CALL", "INSNO_RET", "twice")),
                        "raw 1 6", "raw 4 12"),
                c("BLOCKID and REFBLOCKID: jump target, fall-through successor, none after a return",
                        fr("sum", pw("BLOCK_START", "BLOCKS", "7"), pw("BLOCK_START", "BLOCKS", "0"),
                                pw("BLOCK_START", "BLOCKS", "19")),
                        "blocks Loops.sum(int) block 0 (line 11) -> Loops.sum(int) block 1 (line 12)",
                        "blocks Loops.sum(int) block 2 (line 13) -> Loops.sum(int) block 4 (line 16)",
                        "blocks Loops.sum(int) block 2 (line 13) -> Loops.sum(int) block 4 (line 16)",
                        "blocks Loops.sum(int) block 2 (line 13) -> Loops.sum(int) block 4 (line 16)",
                        "blocks Loops.sum(int) block 2 (line 13) -> Loops.sum(int) block 4 (line 16)",
                        "blocks Loops.sum(int) block 2 (line 13) -> Loops.sum(int) block 4 (line 16)",
                        "blocks Loops.sum(int) block 6 (line 19) -> none"),
                c("CONDITION LOCAL by name", fr("sum", pw("BLOCK_START", "INSNO_IF_I2", "11")), "number 11"),
                c("CONDITION LOCAL by slot", fr("sum", pw("BLOCK_START", "INSNO_IF_SLOT3_IS_3", "16")), "number 16"),
                c("THIS, ARG and a private FIELD in a wrapper", fr("calls", pw("BLOCK_START", "SELF", "0"),
                        pw("BLOCK_START", "ARG1", "0"), pw("BLOCK_START", "FIELD_SEEN", "0")),
                        "self Loops", "value Loops.calls(int) 3", "value Loops.calls(int) 3"),
                c("AspectJ advice and the bytecode pass in one method", fr("sum", p("ENTER", "ID"),
                        pw("BLOCK_START", "INSNO", "19")), "id Loops.sum(int)", "number 19"),
                // the documented order where AspectJ advice and the bytecode pass meet at one join point: the bytecode
                // pass's calls are in the method body, inside AspectJ's execution advice and outside its call advice
                c("at ENTER AspectJ's patches run first, whatever the model's order", fr("sum", p("ENTER", "INSNO"),
                        p("ENTER", "ID")), "id Loops.sum(int)", "number 0"),
                c("at EXIT the bytecode pass's patches run first, whatever the model's order", fr("sum",
                        p("EXIT", "ID"), p("EXIT", "LOCAL_2")), "value Loops.sum(int) 4", "id Loops.sum(int)"),
                c("before a CALL the bytecode pass's patches run first, whatever the model's order", fr("calls",
                        pm("CALL", "ID", "twice"), pm("CALL", "INSNO", "twice")), "number 1", "id Loops.calls(int)",
                        "number 4", "id Loops.calls(int)"),
                // Loops(): 0 aload_0, 1 invokespecial Object.<init>, 2 aload_0, 3 iconst_3, 4 putfield seen, 5 return
                c("constructor ENTER of the bytecode pass runs once super() returned, like AspectJ's: THIS is usable",
                        fr("new", p("ENTER", "SELF_AT"), p("ENTER", "SELF")), "self Loops", "self Loops at 2"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void binaryWeavingSeesExactlyTheseEvents(String name, String fors, List<String> expected, @TempDir Path dir)
            throws Exception {
        Weaver.Inputs in = inputs(dir, MODES, "<MODEL NAME='test'>" + fors + "</MODEL>");
        GeneratedCode code = Weaver.generate(in);
        List<String> events = runBinary(code, in, dir);
        assertEquals(expected, events, () -> "generated:\n" + String.join("\n", code.aspects().values())
                + "\nsites:\n" + code.siteTable());
    }

    /** The BLOCK lines of the site table name the class, method, parameters, block and line. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = "site table")
    void blockSitesAreInTheSiteTable(String name, @TempDir Path dir) throws Exception {
        Weaver.Inputs in = inputs(dir, MODES, "<MODEL NAME='test'>" + fr("sum", p("BLOCK_START", "BLOCKS"))
                + "</MODEL>");
        GeneratedCode code = Weaver.generate(in);
        List<String> blocks = code.siteTable().lines().filter(l -> l.contains("\tBLOCK\t"))
                .map(l -> l.substring(l.indexOf('\t') + 1)).sorted().toList();
        assertEquals(List.of("BLOCK\t" + L + "\tsum\tint\t0\t11", "BLOCK\t" + L + "\tsum\tint\t1\t12",
                "BLOCK\t" + L + "\tsum\tint\t2\t13", "BLOCK\t" + L + "\tsum\tint\t3\t14",
                "BLOCK\t" + L + "\tsum\tint\t4\t16", "BLOCK\t" + L + "\tsum\tint\t5\t12",
                "BLOCK\t" + L + "\tsum\tint\t6\t19"), blocks);
    }

    static Stream<Arguments> problems() {
        return Stream.of(
                e("LOCAL with a name the debug information does not have", fr("sum", "<PATCH WHAT='EXIT' MODE='M'/>"),
                        "<ARG TYPE='METHODID'/>\n<ARG TYPE='LOCAL' VALUE='nope'/>",
                        "modes.xml:5:1: ARG: TYPE='LOCAL' VALUE='nope': " + L + ".sum(int) has no local variable named "
                                + "'nope' in its debug information (compile it with -g, or give the slot number) "
                                + "(PATCH WHAT='EXIT' MODE='M' at model.xml:3:1)"),
                e("LOCAL slot that holds nothing there", fr("sum", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        "<ARG TYPE='METHODID'/>\n<ARG TYPE='LOCAL' VALUE='3'/>",
                        "modes.xml:5:1: ARG: TYPE='LOCAL' VALUE='3': slot 3 of " + L + ".sum(int) holds no initialised "
                                + "value at instruction 0 (PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("WHEN BLOCK at an instruction that starts no block", fr("sum", "<PATCH WHAT='BLOCK_START' MODE='M'>\n"
                                + "<WHEN CASE='BLOCK' ARG='5'/>\n</PATCH>"), "<ARG TYPE='METHODID'/>\n",
                        "model.xml:4:1: WHEN: CASE='BLOCK' ARG='5': instruction 5 of " + L + ".sum(int) does not start "
                                + "a basic block (blocks start at instructions 0, 4, 7, 11, 16, 17, 19)"),
                e("WHEN BLOCK on a field write", fr("sum", "<PATCH WHAT='FIELD_WRITE' MODE='M'>\n"
                                + "<WHEN CASE='BLOCK' ARG='0'/>\n</PATCH>"), "<ARG TYPE='METHODID'/>\n",
                        "model.xml:4:1: WHEN: CASE='BLOCK' selects a basic block and applies to WHAT='BLOCK_START', "
                                + "'CALL' and 'EXIT' only, not WHAT='FIELD_WRITE'"),
                e("INSNO at a WHAT the bytecode pass does not handle yet", fr("calls",
                                "<PATCH WHAT='FIELD_ACCESS' MODE='M'/>"), "<ARG TYPE='INSNO'/>\n",
                        "model.xml:3:1: PATCH: WHAT='FIELD_ACCESS' cannot use ARG TYPE='LOCAL', 'INSNO', 'BLOCKID', "
                                + "'REFBLOCKID' or CONDITION TYPE='LOCAL' yet: the bytecode pass applies patches at "
                                + "WHAT='BLOCK_START', 'ENTER', 'EXIT' and 'CALL' only"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("problems")
    void refusedWithExactMessages(String name, String model, String args, List<String> expected, @TempDir Path dir)
            throws Exception {
        String modes = "<DYPATCH>\n<DYPATCH_MODE NAME='M'>\n<CODE TYPE='CALL' CLASS='" + R + "' METHOD='"
                + (args.contains("LOCAL") ? "value' SIGNATURE='(int,long)'" : "id' SIGNATURE='(int)'") + ">\n"
                + args + "</CODE>\n</DYPATCH_MODE>\n</DYPATCH>\n";
        Weaver.Inputs in = inputs(dir, modes, "<MODEL NAME='test'>\n" + model + "\n</MODEL>\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Weaver.generate(in));
        assertEquals(expected, e.problems().stream().map(p -> p.toString().replace(dir + "/", "")).toList());
    }

    /** One model with BLOCK_START, CALL with INSNO and RETURN, EXIT with a named LOCAL and RETURN. */
    private static final String LTW_MODEL = "<MODEL NAME='ltw'>" + fr("sum", p("BLOCK_START", "INSNO"),
            p("EXIT", "LOCAL_TOTAL_RET")) + fr("calls", pm("CALL", "INSNO_RET", "twice"), pw("BLOCK_START", "SELF", "0"))
            + "</MODEL>";

    static Stream<Arguments> launches() {
        return Stream.of(17, 25).flatMap(jdk -> Stream.of(LaunchOptions.Weaving.values()).map(w -> Arguments.of(jdk, w)));
    }

    /**
     * {@code dyper run}'s two ways: woven ahead (the replace agent serves the woven classes, no AspectJ weaver) and
     * the AspectJ weaver agent (the replace agent serves the bytecode pass's classes, which the weaver then weaves).
     */
    @ParameterizedTest(name = "launch on JDK {0}, {1}")
    @MethodSource("launches")
    void loadTimeWeavingSeesTheSameEventsAsBinaryWeaving(int jdk, LaunchOptions.Weaving weaving, @TempDir Path dir)
            throws Exception {
        Path java = Jdk.of(Integer.toString(jdk)).java();
        Weaver.Inputs in = inputs(dir, MODES, LTW_MODEL);
        GeneratedCode code = Weaver.generate(in);
        List<String> binary = runBinary(code, in, dir);
        LaunchCache.Prepared prepared = LaunchCache.prepare(in, dir.resolve("cache"), weaving);
        List<String> cmd = LaunchOptions.of(java, List.of("-cp", in.targets().get(0) + File.pathSeparator
                + Woven.TEST_CLASSES, "org.dyper.patch.gentest.BlocksMain")).withMonitor(false, null)
                .withReport(new LaunchOptions.Report("none", null)).command(prepared.aspects());
        assertTrue(cmd.get(1).startsWith("-javaagent:") && cmd.get(1).contains("=replace="),
                "the replace agent comes first: " + cmd);
        assertEquals(weaving == LaunchOptions.Weaving.AGENT, cmd.stream().anyMatch(a -> a.contains("aspectjweaver")),
                () -> "the AspectJ weaver agent only when asked for: " + cmd);
        Processes.Result run = Processes.run(cmd, Duration.ofSeconds(120));
        String out = run.out();
        String err = run.err();
        assertEquals(0, run.exit(), run::describe);
        List<String> lines = new ArrayList<>(out.lines().toList());
        assertEquals(Loops.script(), lines.remove(0), "weaving changed the program's result");
        lines = name(lines, code.siteTable());
        assertEquals(binary, lines, () -> "stderr:\n" + err);
        assertEquals(List.of("number 0", "number 4", "number 7", "number 11", "number 17", "number 4", "number 7",
                "number 16", "number 17", "number 4", "number 7", "number 11", "number 17", "number 4", "number 7",
                "number 16", "number 17", "number 4", "number 7", "number 11", "number 17", "number 4", "number 19",
                "change Loops.sum(int) 4 -> 4", "self Loops", "raw 1 6", "raw 4 12"), lines);
        assertTrue(err.lines().noneMatch(l -> l.startsWith("dyper:")), () -> "stderr:\n" + err);
    }

    /** The library's BLOCK_COUNT mode: sum(5) runs its 7 blocks 1, 6, 5, 3, 2, 5 and 1 times. */
    @org.junit.jupiter.api.Test
    void blockCountModeCountsEveryBlock(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = inputs(dir, MODES, "<MODEL NAME='test'>" + fr("sum", p("BLOCK_START", "BLOCK_COUNT"))
                + "</MODEL>");
        org.dyper.runtime.Dyper.reset();
        runBinary(Weaver.generate(in), in, dir);
        Map<Integer, Long> counts = new java.util.TreeMap<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("NAME='" + java.util.regex.Pattern.quote(L)
                + "\\.sum\\(int\\) block (\\d+) \\(line \\d+\\)' COUNT='(\\d+)'")
                .matcher(org.dyper.runtime.Dyper.xmlReport());
        while (m.find()) {
            counts.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
        }
        assertEquals(Map.of(0, 1L, 1, 6L, 2, 5L, 3, 3L, 4, 2L, 5, 5L, 6, 1L), counts,
                org.dyper.runtime.Dyper.xmlReport());
    }

    // ---------------------------------------------------------------- harness

    private static List<String> runBinary(GeneratedCode code, Weaver.Inputs in, Path dir) throws Exception {
        Path jar = dir.resolve("woven.jar");
        assertEquals(List.of(), Weaver.weaveBinary(code, in.targets().get(0), jar, in.classpath()),
                "ajc's warnings (lint: advice that matched nothing)");
        Recorder.take();
        String result;
        try (URLClassLoader loader = new ChildFirst(new URL[] {jar.toUri().toURL()},
                BytecodePassTest.class.getClassLoader())) {
            Class<?> target = Class.forName(L, true, loader);
            result = (String) target.getMethod("script").invoke(null);
        }
        assertEquals(Loops.script(), result, "weaving changed the program's result");
        return name(Recorder.take(), code.siteTable());
    }

    /**
     * "raw a b" of BLOCKID/REFBLOCKID events as "blocks <block a> -> <block b>", named by the runtime's site table
     * (ids are relative to the generation's offset there; {@code table}, the generated one, says which are blocks).
     */
    private static List<String> name(List<String> events, String table) {
        boolean hasBlocks = table.contains("\tBLOCK\t");
        return events.stream().map(raw -> {
            String e = raw.replace("org.example.blocks.", "");
            String[] f = e.split(" ");
            if (hasBlocks && f.length == 3 && f[0].equals("raw") && isBlock(Integer.parseInt(f[1]))) {
                int ref = Integer.parseInt(f[2]);
                return "blocks " + block(Integer.parseInt(f[1])) + " -> " + (ref == 0 ? "none" : block(ref));
            }
            return e;
        }).toList();
    }

    private static boolean isBlock(int id) {
        return org.dyper.runtime.Sites.name(id).contains(") block ");
    }

    private static String block(int id) {
        return org.dyper.runtime.Sites.name(id).replace("org.example.blocks.", "");
    }

    private static Weaver.Inputs inputs(Path dir, String modes, String model) throws IOException {
        Path modeFile = dir.resolve("modes.xml");
        Path modelFile = dir.resolve("model.xml");
        Files.writeString(modeFile, modes);
        Files.writeString(modelFile, model);
        Path out = dir.resolve("blocks-classes");
        Path dest = out.resolve("org/example/blocks");
        Files.createDirectories(dest);
        try (Stream<Path> files = Files.list(Woven.TEST_CLASSES.resolve("org/example/blocks"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dest.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return new Weaver.Inputs(List.of(modelFile), List.of(modeFile), List.of(out), List.of(Woven.TEST_CLASSES));
    }

    private static String mode(String name, String method, String signature, String conditions, String args) {
        return "<DYPATCH_MODE NAME='" + name + "'><CODE TYPE='CALL' CLASS='" + R + "' METHOD='" + method
                + "' SIGNATURE='" + signature + "'>" + conditions + args + "</CODE></DYPATCH_MODE>\n";
    }

    private static Arguments c(String name, String fors, String... events) {
        return Arguments.of(name, fors, Arrays.asList(events));
    }

    private static Arguments e(String name, String model, String args, String... expected) {
        return Arguments.of(name, model, args, Arrays.asList(expected));
    }

    private static String fr(String method, String... patches) {
        return "<FOR CLASS='" + L + "' METHOD='" + method + "'>\n" + String.join("\n", patches) + "</FOR>";
    }

    private static String p(String what, String mode) {
        return "<PATCH WHAT='" + what + "' MODE='" + mode + "'/>";
    }

    private static String pw(String what, String mode, String block) {
        return "<PATCH WHAT='" + what + "' MODE='" + mode + "'><WHEN CASE='BLOCK' ARG='" + block + "'/></PATCH>";
    }

    private static String pm(String what, String mode, String callee) {
        return "<PATCH WHAT='" + what + "' MODE='" + mode + "'><WHEN CASE='METHOD' ARG='" + callee + "'/></PATCH>";
    }

    private static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.example.blocks.") || name.startsWith("org.dyper.generated.")) {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    return c != null ? c : findClass(name);
                }
            }
            return super.loadClass(name, resolve);
        }
    }
}
