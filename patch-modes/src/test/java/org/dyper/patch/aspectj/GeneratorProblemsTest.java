package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Problem;
import org.dyper.patch.build.Weaver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the generator refuses, and what it warns about, with the exact text a user reads. Every element starts a
 * line of its own at column 1, so the positions are easy to check.
 */
class GeneratorProblemsTest {
    private static final String R = "org.dyper.patch.gentest.Recorder";
    private static final String T = "org.example.fixture.Target";

    static Stream<Arguments> errors() {
        return Stream.of(
                e("unknown mode", forMethod("add", "<PATCH WHAT='ENTER' MODE='NOPE'/>"), mode("M", null, "id", "(int)",
                        "<ARG TYPE='METHODID'/>"),
                        "model.xml:3:1: PATCH: unknown MODE 'NOPE': not in the mode library nor in the given mode files "
                                + "(known: ALLOC, ALLOC_ARRAY, BLOCK_COUNT, COUNT, COUNT_CALLS, EVENT, FIELD_WATCH, FIELD_WATCH_REF, LOCK_ENTER, "
                                + "LOCK_EXIT, LOCK_TEST, M, RECORD_ARG1, RECORD_RETURN, RECORD_RETURN_REF, "
                                + "SAMPLE_ENTER, SAMPLE_EXIT, TIME_ENTER, TIME_EXIT, TRACE_ALLOC, TRACE_ALLOC_ARRAY, TRACE_CALL, TRACE_CALL_END, TRACE_ENTER, TRACE_ENTER_ARG1, TRACE_EXIT, "
                                + "TRACE_EXIT_RETURN, TRACE_FIELD_WRITE, TRACE_FIELD_WRITE_REF)"),
                e("RETURN at ENTER", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='RETURN'/>"),
                        "modes.xml:5:1: ARG: TYPE='RETURN' has no value at WHAT='ENTER' (use it at EXIT or CALL) "
                                + "(PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("REFMETHODID outside CALL", forMethod("add", "<PATCH WHAT='EXIT' MODE='M'/>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='REFMETHODID'/>"),
                        "modes.xml:4:1: ARG: TYPE='REFMETHODID' names the called method, constructor or field and "
                                + "applies to WHAT='CALL', 'OBJECT_ALLOC' and the field WHATs only, not WHAT='EXIT' "
                                + "(PATCH WHAT='EXIT' MODE='M' at model.xml:3:1)"),
                e("CONTEXT that no patch sets", forMethod("add", "<PATCH WHAT='EXIT' MODE='M'/>"),
                        mode("M", "long", "stop", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='CONTEXT'/>"),
                        "modes.xml:3:1: CODE: uses CONTEXT but no earlier patch of the same invocation sets it with "
                                + "<RETURN TYPE='CONTEXT'/> (an ENTER patch for EXIT, an earlier CALL patch for CALL) "
                                + "(PATCH WHAT='EXIT' MODE='M' at model.xml:3:1)"),
                e("SIGNATURE that matches no method", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,int)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='INTEGER' VALUE='1'/>"),
                        "modes.xml:3:1: CODE: SIGNATURE '(int,int)' does not match any method " + R + ".value (found: "
                                + "value(int,long))"),
                e("mode class not found", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        "<DYPATCH>\n<DYPATCH_MODE NAME='M'>\n<CODE TYPE='CALL' CLASS='com.nope.Missing' METHOD='m' "
                                + "SIGNATURE='()'>\n</CODE>\n</DYPATCH_MODE>\n</DYPATCH>\n",
                        "modes.xml:3:1: CODE: class com.nope.Missing not found: put the jar or folder that holds it on "
                                + "the class path (--classpath)"),
                e("WHEN BLOCK that is not an instruction number", forMethod("add",
                                "<PATCH WHAT='BLOCK_START' MODE='M'>\n<WHEN CASE='BLOCK' ARG='x'/>\n</PATCH>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                        "model.xml:4:1: WHEN: ARG='x' is not an instruction number (0 or more) as CASE='BLOCK' needs"),
                e("RETURN at a monitor acquisition", forMethod("locked", "<PATCH WHAT='SYNC_ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='RETURN'/>"),
                        "modes.xml:5:1: ARG: TYPE='RETURN' has no value at WHAT='SYNC_ENTER' (it is the value returned "
                                + "at EXIT and CALL, read at a field read, and allocated at an allocation) (PATCH "
                                + "WHAT='SYNC_ENTER' MODE='M' at model.xml:3:1)"),
                e("TARGET outside CALL and fields", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "ref", "(int,java.lang.Object)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='TARGET'/>"),
                        "modes.xml:5:1: ARG: TYPE='TARGET' is the object a called method runs on or whose field is "
                                + "accessed; it applies to WHAT='CALL' and the field WHATs only, not WHAT='ENTER' "
                                + "(PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("EXCEPTION outside EXIT and CALL", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "ref", "(int,java.lang.Object)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='EXCEPTION'/>"),
                        "modes.xml:5:1: ARG: TYPE='EXCEPTION' is the exception that ends a method or a call; it "
                                + "applies to WHAT='EXIT' and 'CALL' only, not WHAT='ENTER' "
                                + "(PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("WHEN FIELD on an allocation", forMethod("script", "<PATCH WHAT='OBJECT_ALLOC' MODE='M'>\n"
                                + "<WHEN CASE='FIELD' ARG='counter'/>\n</PATCH>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                        "model.xml:4:1: WHEN: CASE='FIELD' selects a field and applies to WHAT='FIELD_ACCESS', "
                                + "'STATIC_ACCESS', 'FIELD_WRITE' and 'STATIC_WRITE' only, not WHAT='OBJECT_ALLOC'"),
                e("LOCAL with a name the debug information does not have", forMethod("add",
                                "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='LOCAL' VALUE='nope'/>"),
                        "modes.xml:5:1: ARG: TYPE='LOCAL' VALUE='nope': " + T + ".add(int,int) has no local variable "
                                + "named 'nope' in its debug information (compile it with -g, or give the slot number) "
                                + "(PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("WHEN METHOD outside CALL", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'>\n"
                                + "<WHEN CASE='METHOD' ARG='twice'/>\n</PATCH>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                        "model.xml:4:1: WHEN: CASE='METHOD' selects called methods and applies to WHAT='CALL' only, not "
                                + "WHAT='ENTER'"),
                e("null to a primitive parameter", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='NULL'/>"),
                        "modes.xml:4:1: ARG: TYPE='NULL' is null but the mode method's parameter is int "
                                + "(PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("a value that would need boxing", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "ref", "(int,java.lang.Object)", "<ARG TYPE='METHODID'/>\n"
                                + "<ARG TYPE='INTEGER' VALUE='5'/>"),
                        "modes.xml:5:1: ARG: ARG TYPE='INTEGER' is a int but the mode method takes a java.lang.Object "
                                + "(Dyper never boxes) (PATCH WHAT='ENTER' MODE='M' at model.xml:3:1)"),
                e("a non-static mode method on a primitive context", forMethod("risky",
                                "<PATCH WHAT='ENTER' MODE='S'/>\n<PATCH WHAT='EXIT' MODE='C'/>"),
                        "<DYPATCH>\n<DYPATCH_MODE NAME='S' CONTEXT='long'>\n<CODE TYPE='CALL' CLASS='" + R
                                + "' METHOD='start' SIGNATURE='(int)'>\n<ARG TYPE='METHODID'/>\n<RETURN TYPE='CONTEXT'/>\n"
                                + "</CODE>\n</DYPATCH_MODE>\n<DYPATCH_MODE NAME='C' CONTEXT='long'>\n<CODE TYPE='CALL' "
                                + "CLASS='" + R + "' METHOD='close' SIGNATURE='(long)'>\n<ARG TYPE='RETURN'/>\n</CODE>\n"
                                + "</DYPATCH_MODE>\n</DYPATCH>\n",
                        "modes.xml:9:1: CODE: " + R + ".close is not static, so it is called on the context, but "
                                + "CONTEXT='long' is a primitive type (PATCH WHAT='EXIT' MODE='C' at model.xml:4:1)"),
                e("all problems at once", forMethod("add", "<PATCH WHAT='BLOCK_START' MODE='M'>\n"
                                + "<WHEN CASE='BLOCK' ARG='1'/>\n</PATCH>\n<PATCH WHAT='ENTER' MODE='GONE'/>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                        // the bytecode pass checks blocks while it generates, after every PATCH has been checked
                        "model.xml:6:1: PATCH: unknown MODE 'GONE': not in the mode library nor in the given mode files "
                                + "(known: ALLOC, ALLOC_ARRAY, BLOCK_COUNT, COUNT, COUNT_CALLS, EVENT, FIELD_WATCH, FIELD_WATCH_REF, LOCK_ENTER, "
                                + "LOCK_EXIT, LOCK_TEST, M, RECORD_ARG1, RECORD_RETURN, RECORD_RETURN_REF, "
                                + "SAMPLE_ENTER, SAMPLE_EXIT, TIME_ENTER, TIME_EXIT, TRACE_ALLOC, TRACE_ALLOC_ARRAY, TRACE_CALL, TRACE_CALL_END, TRACE_ENTER, TRACE_ENTER_ARG1, TRACE_EXIT, "
                                + "TRACE_EXIT_RETURN, TRACE_FIELD_WRITE, TRACE_FIELD_WRITE_REF)",
                        "model.xml:4:1: WHEN: CASE='BLOCK' ARG='1': instruction 1 of " + T + ".add(int,int) does not "
                                + "start a basic block (blocks start at instructions 0)"));
    }

    /** A patch that cannot apply anywhere it was asked for is an error, whatever the reason. */
    static Stream<Arguments> appliesNowhere() {
        String nowhere = "model.xml:3:1: PATCH: WHAT='ENTER' MODE='M' applies nowhere it was asked for: skipped at 1 "
                + "method(s) because ";
        return Stream.of(
                e("a field the class does not have", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='FIELD' VALUE='nope'/>"),
                        nowhere + "its class has no field 'nope': " + T + ".add(int,int)"),
                e("an ARG past the last parameter", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='ARG' VALUE='3'/>"),
                        nowhere + "ARG 3 is past the 2 parameter(s): " + T + ".add(int,int)"),
                e("an instance field in static code", forMethod("twice", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "value", "(int,long)", "<ARG TYPE='METHODID'/>\n<ARG TYPE='FIELD' VALUE='counter'/>"),
                        nowhere + "instance field 'counter' is not visible in static code: " + T + ".twice(int)"),
                e("a reference compared with an int", forMethod("greet", "<PATCH WHAT='ENTER' MODE='M'/>"),
                        mode("M", null, "id", "(int)", "<CONDITION TYPE='ARG' LVALUE='1' RVALUE='3'/>\n"
                                + "<ARG TYPE='METHODID'/>"),
                        nowhere + "CONDITION compares a reference (java.lang.String) with the number 3: " + T
                                + ".greet(java.lang.String)"),
                e("warnings come with the errors", forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>\n<PATCH "
                                + "WHAT='SYNC_ENTER' MODE='M'/>\n<PATCH WHAT='ENTER' MODE='GONE'/>"),
                        mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                        "model.xml:5:1: PATCH: unknown MODE 'GONE': not in the mode library nor in the given mode files "
                                + "(known: ALLOC, ALLOC_ARRAY, BLOCK_COUNT, COUNT, COUNT_CALLS, EVENT, FIELD_WATCH, "
                                + "FIELD_WATCH_REF, LOCK_ENTER, LOCK_EXIT, LOCK_TEST, M, RECORD_ARG1, RECORD_RETURN, "
                                + "RECORD_RETURN_REF, SAMPLE_ENTER, SAMPLE_EXIT, TIME_ENTER, TIME_EXIT, TRACE_ALLOC, TRACE_ALLOC_ARRAY, TRACE_CALL, TRACE_CALL_END, TRACE_ENTER, TRACE_ENTER_ARG1, "
                                + "TRACE_EXIT, TRACE_EXIT_RETURN, TRACE_FIELD_WRITE, TRACE_FIELD_WRITE_REF)",
                        "model.xml:4:1: warning: PATCH: WHAT='SYNC_ENTER' MODE='M' matches no join point in the 1 "
                                + "method(s) its FOR selects (" + T + ".add(int,int)): none of them is synchronized or "
                                + "has a synchronized block"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"errors", "appliesNowhere"})
    void refusedWithExactMessages(String name, String model, String modes, List<String> expected, @TempDir Path dir)
            throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, modes, model);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Weaver.generate(in));
        assertEquals(expected, e.problems().stream().map(p -> relative(p, dir)).toList());
    }

    @Test
    void forThatMatchesNothingIsAWarning(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                forMethod("nothing", "<PATCH WHAT='ENTER' MODE='M'/>"));
        GeneratedCode code = Weaver.generate(in);
        assertEquals(List.of("model.xml:2:1: warning: FOR: FOR CLASS='" + T + "' METHOD='nothing' matches no method in "
                + "the woven code (18 class(es) scanned)"), code.warnings().stream().map(p -> relative(p, dir)).toList());
        assertEquals(0, code.adviceCount());
    }

    @Test
    void excludedClassesAreNeverPatched(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                forMethod("add", "<PATCH WHAT='ENTER' MODE='M'/>"));
        assertEquals(1, Weaver.generate(in.withPatterns(List.of("org.example.*"), List.of())).adviceCount());
        GeneratedCode excluded = Weaver.generate(in.withPatterns(List.of(), List.of("org.example.fixture.*")));
        assertEquals(0, excluded.adviceCount());
        assertEquals(List.of("model.xml:2:1: warning: FOR: FOR CLASS='" + T + "' METHOD='add' matches no method in "
                + "the woven code (0 class(es) scanned)"), excluded.warnings().stream().map(p -> relative(p, dir))
                .toList());
        assertEquals(0, Weaver.generate(in.withPatterns(List.of("com.acme.*"), List.of())).adviceCount());
    }

    /** A PATCH whose WHAT or WHEN matches no join point in the methods its FOR selects. */
    static Stream<Arguments> matchesNothing() {
        String none = "model.xml:3:1: warning: PATCH: ";
        return Stream.of(
                Arguments.of("a misspelt called method", forMethod("calls", "<PATCH WHAT='CALL' MODE='M'>\n"
                        + "<WHEN CASE='METHOD' ARG='helpr'/>\n</PATCH>"), none + "WHAT='CALL' MODE='M' matches no join "
                        + "point in the 1 method(s) its FOR selects (" + T + ".calls()): none of them makes a call that "
                        + "WHEN CASE='METHOD' ARG='helpr' selects (calls of constructors, super calls and invokedynamic "
                        + "are not CALL join points)"),
                Arguments.of("a misspelt field", forMethod("locked", "<PATCH WHAT='FIELD_ACCESS' MODE='M'>\n"
                        + "<WHEN CASE='FIELD' ARG='countr'/>\n</PATCH>"), none + "WHAT='FIELD_ACCESS' MODE='M' matches no "
                        + "join point in the 1 method(s) its FOR selects (" + T + ".locked(int)): none of them reads an "
                        + "instance field that WHEN CASE='FIELD' ARG='countr' selects"),
                Arguments.of("SYNC_TEST where nothing is synchronized", forMethod("a*", "<PATCH WHAT='SYNC_TEST' "
                        + "MODE='M'/>"), none + "WHAT='SYNC_TEST' MODE='M' matches no join point in the 1 method(s) its "
                        + "FOR selects (" + T + ".add(int,int)): none of them is synchronized or has a synchronized "
                        + "block"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("matchesNothing")
    void aPatchThatMatchesNothingIsAWarning(String name, String model, String warning, @TempDir Path dir)
            throws Exception {
        GeneratedCode code = Weaver.generate(Woven.inputs(dir, mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                model));
        assertEquals(List.of(warning), code.warnings().stream().map(p -> relative(p, dir)).toList());
        assertEquals(0, code.adviceCount());
    }

    /** Allocations of two anonymous classes in one method that AspectJ cannot tell apart are skipped, with a warning. */
    @Test
    void anonymousClassesAspectJCannotTellApartAreSkippedWithAWarning(@TempDir Path dir) throws Exception {
        String base = "org.example.fixture.Base";
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                "<MODEL NAME='t'>\n<FOR CLASS='" + base + "' METHOD='*'>\n<PATCH WHAT='OBJECT_ALLOC' MODE='M'/>\n"
                        + "</FOR>\n</MODEL>\n");
        GeneratedCode code = Weaver.generate(in);
        assertEquals(List.of("model.xml:3:1: warning: PATCH: WHAT='OBJECT_ALLOC' MODE='M' skipped at 2 join point(s) "
                + "because AspectJ can name " + base + "$2 and " + base + "$3 only alike (as any class nested in their "
                + "outer class), and the method uses both the same way: " + base + ".twoRunnables() -> new " + base
                + "$2, " + base + ".twoRunnables() -> new " + base + "$3"), code.warnings().stream()
                .map(p -> relative(p, dir)).toList());
    }

    /**
     * AspectJ types {@code new T[1][n][]} (T a class) like {@code new T[1][n]}: in a method that makes both no pointcut
     * tells them apart, so the patch is skipped at both with a warning, before ajc runs; elsewhere both are woven.
     */
    @Test
    void arraysAspectJTypesAlikeInOneMethodAreSkippedWithAWarning(@TempDir Path dir) throws Exception {
        String ak = "org.example.fixture.ArrayKinds";
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "id", "(int)", "<ARG TYPE='METHODID'/>"),
                "<MODEL NAME='t'>\n<FOR CLASS='" + ak + "' METHOD='*'>\n<PATCH WHAT='ARRAY_ALLOC' MODE='M'/>\n"
                        + "</FOR>\n</MODEL>\n");
        GeneratedCode code = Weaver.generate(in);
        String reason = "AspectJ names new " + ak + "$Nested[a][b]...[] (a multianewarray of a class that leaves "
                + "dimensions out) like new " + ak + "$Nested[][] with as many lengths, and the method makes both";
        assertEquals(List.of("model.xml:3:1: warning: PATCH: WHAT='ARRAY_ALLOC' MODE='M' skipped at 2 join point(s) "
                + "because " + reason + ": " + ak + ".clash(int) -> new " + ak + "$Nested[][], " + ak
                + ".clash(int) -> new " + ak + "$Nested[][][]"), code.warnings().stream().map(p -> relative(p, dir))
                .toList());
        assertEquals(List.of(), Weaver.weaveBinary(code, in.targets().get(0), dir.resolve("woven.jar"),
                in.classpath()), "ajc's lint: every other allocation is woven");
    }

    @Test
    void argPastTheLengthsAnAllocationGivesIsSkippedThereWithAWarning(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "value", "(int,long)",
                "<ARG TYPE='METHODID'/>\n<ARG TYPE='ARG' VALUE='2'/>"), forMethod("*", "<PATCH WHAT='ARRAY_ALLOC' "
                + "MODE='M'/>"));
        GeneratedCode code = Weaver.generate(in);
        assertEquals(List.of("model.xml:3:1: warning: PATCH: WHAT='ARRAY_ALLOC' MODE='M' skipped at 1 join point(s) "
                + "because ARG 2 is past the 1 length(s) the allocation gives: " + T + ".objects(int) -> new "
                + "java.lang.Object[]"), code.warnings().stream().map(p -> relative(p, dir)).toList());
        assertEquals(1, code.adviceCount());
    }

    @Test
    void returnOfVoidMethodsIsSkippedWithAWarning(@TempDir Path dir) throws Exception {
        Weaver.Inputs in = Woven.inputs(dir, mode("M", null, "value", "(int,long)",
                "<ARG TYPE='METHODID'/>\n<ARG TYPE='RETURN'/>"), forMethod("*i*", "<PATCH WHAT='EXIT' MODE='M'/>"));
        GeneratedCode code = Weaver.generate(in);
        // *i* matches fail(int) and lockedFail(int) (void), risky(int), twice(int) and script() (String), not the
        // constructor
        assertEquals(List.of("model.xml:3:1: warning: PATCH: WHAT='EXIT' MODE='M' skipped at 2 method(s) because "
                + "RETURN has no value where the method returns void: " + T + ".fail(int), " + T + ".lockedFail(int)",
                "model.xml:3:1: warning: PATCH: WHAT='EXIT' MODE='M' skipped at 1 method(s) because ARG TYPE='RETURN' "
                + "is a java.lang.String but the mode method takes a long (Dyper never boxes): " + T + ".script()"),
                code.warnings().stream().map(p -> relative(p, dir)).toList());
        assertEquals(2, code.adviceCount());
    }

    private static String relative(Problem p, Path dir) {
        return p.toString().replace(dir.resolve("x").toString().replace("x", ""), "");
    }

    private static Arguments e(String name, String model, String modes, String... messages) {
        return Arguments.of(name, model, modes, Arrays.asList(messages));
    }

    private static String forMethod(String method, String patches) {
        return "<MODEL NAME='t'>\n<FOR CLASS='" + T + "' METHOD='" + method + "'>\n" + patches + "\n</FOR>\n</MODEL>\n";
    }

    /** A one-mode file: DYPATCH on line 1, DYPATCH_MODE on 2, CODE on 3, its children from line 4. */
    private static String mode(String name, String context, String method, String signature, String children) {
        return "<DYPATCH>\n<DYPATCH_MODE NAME='" + name + "'" + (context == null ? "" : " CONTEXT='" + context + "'")
                + ">\n<CODE TYPE='CALL' CLASS='" + R + "' METHOD='" + method + "' SIGNATURE='" + signature + "'>\n"
                + children + "\n</CODE>\n</DYPATCH_MODE>\n</DYPATCH>\n";
    }
}
