package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.gentest.Recorder;
import org.example.fixture.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plain way ({@link PlainCalls}): which methods take it, that methods with the same patches share one wrapper,
 * and that the woven code sees exactly the events AspectJ advice sees, for every value an ENTER patch can take. Each
 * case is generated, woven (ajc's lint on) and run twice: the plain way, and with it turned off (all advice).
 */
class PlainCallsTest {
    private static final String T = "org.example.fixture.Target";

    /** Name, FORs, the plain wrappers and the AspectJ aspects expected, and the exact events either way. */
    static Stream<Arguments> cases() {
        return Stream.of(
                c("ENTER METHODID", fr("add", p("ENTER", "ID")), 1, 0,
                        "id Target.add(int,int)", "id Target.add(int,int)", "id Target.add(int,int)"),
                c("constructor ENTER, after super()", fr("new", p("ENTER", "ID")), 1, 0,
                        "id Target.<init>(java.lang.String)"),
                c("ENTER ARG", fr("scale", p("ENTER", "VALUE_ARG1")), 1, 0, "value Target.scale(long) 5"),
                c("THIS of an instance method", fr("scale", p("ENTER", "SELF")), 1, 0, "self Target"),
                c("THIS of a static method is null", fr("twice", p("ENTER", "SELF")), 1, 0, "self null", "self null"),
                c("instance FIELD", fr("add", p("ENTER", "FIELD_COUNTER")), 1, 0, "value Target.add(int,int) 7",
                        "value Target.add(int,int) 8", "value Target.add(int,int) 9"),
                c("static FIELD", fr("twice", p("ENTER", "FIELD_TOTAL")), 1, 0, "value Target.twice(int) 40",
                        "value Target.twice(int) 40"),
                c("CLASSID", fr("scale", p("ENTER", "CLASS_ID")), 1, 0, "id Target"),
                c("CONDITION ARG", fr("fail", p("ENTER", "ID_IF_ARG13")), 1, 0, "id Target.fail(int)"),
                c("a throwing hook does not stop the next one", fr("scale", p("ENTER", "BOOM"), p("ENTER", "ID")), 1,
                        0, "id Target.scale(long)"),
                c("methods with the same patches share one wrapper", fr("add", p("ENTER", "ID"))
                        + fr("twice", p("ENTER", "ID")), 1, 0, "id Target.twice(int)", "id Target.twice(int)",
                        "id Target.add(int,int)", "id Target.add(int,int)", "id Target.add(int,int)"),
                c("different patches, different wrappers", fr("add", p("ENTER", "ID"))
                        + fr("twice", p("ENTER", "NUMBER")), 2, 0, "number 42", "number 42",
                        "id Target.add(int,int)", "id Target.add(int,int)", "id Target.add(int,int)"),
                c("ENTER with EXIT stays advice", fr("scale", p("ENTER", "ID"), p("EXIT", "NUMBER")), 0, 1,
                        "id Target.scale(long)", "number 42"),
                c("a context stays advice", fr("fail", p("ENTER", "START"), p("EXIT", "STOP")), 0, 1,
                        "stop Target.fail(int) true", "stop Target.fail(int) true"),
                c("one method plain, one advice", fr("add", p("ENTER", "ID")) + fr("fail", p("EXIT", "ID")), 1, 1,
                        "id Target.add(int,int)", "id Target.add(int,int)", "id Target.add(int,int)",
                        "id Target.fail(int)", "id Target.fail(int)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plainCallsSeeExactlyWhatAdviceSees(String name, String fors, int wrappers, int aspects,
            List<String> expected, @TempDir Path dir) throws Exception {
        Result plain = weaveAndRun(fors, dir.resolve("plain"), true);
        assertEquals(wrappers, plain.code.aspects().values().stream()
                .mapToInt(a -> a.split("public static void p\\$", -1).length - 1).sum(), "shared wrappers");
        assertEquals(aspects, count(plain.code, Generator.ASPECT_NAME), "AspectJ aspects");
        assertEquals(sorted(expected), sorted(plain.events), "plain way");

        Result advice = weaveAndRun(fors, dir.resolve("advice"), false);
        assertEquals(0, count(advice.code, Generator.PLAIN_ASPECT_NAME), "no plain wrappers when turned off");
        assertEquals(sorted(expected), sorted(advice.events), "AspectJ advice");
        assertEquals(advice.events, plain.events, "the same events in the same order");
        assertEquals(advice.code.adviceCount(), plain.code.adviceCount(), "a plain method counts as one advice");
        assertEquals(advice.code.siteTable(), plain.code.siteTable(), "the same site ids");
    }

    /** Every method of the fixture's class, one FOR: one wrapper, one call per method, no ajc weaving. */
    @Test
    void aBroadModelSharesOneWrapperAndWeavesNoClassWithAjc(@TempDir Path dir) throws Exception {
        String fors = "<FOR CLASS='" + T + "' METHOD='*'>" + p("ENTER", "ID") + "</FOR>";
        Result plain = weaveAndRun(fors, dir.resolve("plain"), true);
        Result advice = weaveAndRun(fors, dir.resolve("advice"), false);
        BytecodePlan.ClassPlan target = plain.code.bytecode().classes().get(T);
        int calls = target.methods().values().stream().mapToInt(List::size).sum();
        assertEquals(advice.code.adviceCount(), calls, "one call per method AspectJ advised");
        assertEquals(List.of("p$1"), target.methods().values().stream().flatMap(List::stream)
                .map(BytecodePlan.Insertion::name).distinct().toList());
        assertEquals(Map.of(), plain.code.advised(), "no class for ajc to weave");
        assertEquals(advice.events, plain.events);
    }

    private record Result(GeneratedCode code, List<String> events) {}

    private static Result weaveAndRun(String fors, Path dir, boolean plainWay) throws Exception {
        Files.createDirectories(dir);
        String modes = Files.readString(Path.of(PlainCallsTest.class.getResource("/gen/recorder-modes.xml").toURI()));
        Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'>" + fors + "</MODEL>");
        GeneratedCode code;
        if (plainWay) {
            code = Weaver.generate(in);
        } else {
            System.setProperty(PlainCalls.PROPERTY, "false");
            try {
                code = Weaver.generate(in);
            } finally {
                System.clearProperty(PlainCalls.PROPERTY);
            }
        }
        Path jar = dir.resolve("woven.jar");
        // lint on: advice that matches nothing would be reported here
        assertEquals(List.of(), Weaver.weaveBinary(code, in.targets().get(0), jar, in.classpath()),
                () -> "ajc's warnings; generated:\n" + String.join("\n", code.aspects().values()));
        Recorder.take();
        String result = Woven.runScript(jar);
        List<String> events = Recorder.take();
        assertEquals(Target.script(), result, "weaving changed the program's result");
        return new Result(code, events);
    }

    private static int count(GeneratedCode code, String aspectName) {
        return (int) code.aspects().keySet().stream().filter(a -> a.substring(a.lastIndexOf('.') + 1)
                .matches(aspectName + "\\d+")).count();
    }

    private static List<String> sorted(List<String> events) {
        return events.stream().sorted().toList();
    }

    private static Arguments c(String name, String fors, int wrappers, int aspects, String... events) {
        return Arguments.of(name, fors, wrappers, aspects, Arrays.asList(events));
    }

    private static String fr(String method, String... patches) {
        return "<FOR CLASS='" + T + "' METHOD='" + method + "'>" + String.join("", patches) + "</FOR>";
    }

    private static String p(String what, String mode) {
        return "<PATCH WHAT='" + what + "' MODE='" + mode + "'/>";
    }
}
