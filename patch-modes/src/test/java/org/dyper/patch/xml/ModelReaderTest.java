package org.dyper.patch.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;

import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Update;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ModelReaderTest {
    private static final String ALL_WHATS = "ENTER, EXIT, BLOCK_START, SYNC_TEST, SYNC_ENTER, SYNC_EXIT, STATIC_ACCESS, "
            + "FIELD_ACCESS, STATIC_WRITE, FIELD_WRITE, OBJECT_ALLOC, ARRAY_ALLOC, BASE_ARRAY_ALLOC, CALL";

    /** A model whose FOR (at 2:3) holds {@code body} lines, line i+3 at column 5. */
    static String model(String forAttributes, String... body) {
        StringBuilder s = new StringBuilder("<MODEL NAME='m'>\n  <FOR " + forAttributes + ">\n");
        for (String line : body) {
            s.append("    ").append(line).append('\n');
        }
        return s.append("  </FOR>\n</MODEL>\n").toString();
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("wrong root", "<DYPATCH/>",
                        List.of("model.xml:1:1: DYPATCH: the root element of a model file must be MODEL")),
                arguments("MODEL without NAME", "<MODEL/>",
                        List.of("model.xml:1:1: MODEL: missing attribute NAME")),
                arguments("bad model NAME", "<MODEL NAME='2 fast'/>",
                        List.of("model.xml:1:1: MODEL: NAME='2 fast' is not a valid model name (a letter or '_', then letters, digits, '_', '-' or '.')")),
                arguments("unknown attribute on MODEL", "<MODEL NAME='m' INSERT='true'/>",
                        List.of("model.xml:1:1: MODEL: unknown attribute INSERT (allowed: NAME)")),
                arguments("unknown element in MODEL", "<MODEL NAME='m'>\n  <PATCH WHAT='ENTER' MODE='COUNT'/>\n</MODEL>",
                        List.of("model.xml:2:3: PATCH: unknown element in MODEL (allowed: FOR)")),
                arguments("FOR without CLASS and METHOD", model("UPDATE='NEW'"),
                        List.of("model.xml:2:3: FOR: missing attribute CLASS", "model.xml:2:3: FOR: missing attribute METHOD")),
                arguments("bad class pattern", model("CLASS='org..x.*' METHOD='run'", "<PATCH WHAT='ENTER' MODE='COUNT'/>"),
                        List.of("model.xml:2:3: FOR: CLASS='org..x.*' is not a Java class name or pattern (identifiers separated by '.'; '*' matches any characters)")),
                arguments("class name with '/'", model("CLASS='org/x/Bank' METHOD='run'", "<PATCH WHAT='ENTER' MODE='COUNT'/>"),
                        List.of("model.xml:2:3: FOR: CLASS='org/x/Bank' is not a Java class name or pattern (identifiers separated by '.'; '*' matches any characters)")),
                arguments("bad method pattern", model("CLASS='org.x.Bank' METHOD='run(int'", "<PATCH WHAT='ENTER' MODE='COUNT'/>"),
                        List.of("model.xml:2:3: FOR: METHOD='run(int' is not a method name or pattern (an identifier, new or <init> for constructors; '*' matches any characters), optionally with a parameter list such as (int,java.lang.String) or (String,*)")),
                arguments("bad parameter list", model("CLASS='org.x.Bank' METHOD='run(int,,long)'", "<PATCH WHAT='ENTER' MODE='COUNT'/>"),
                        List.of("model.xml:2:3: FOR: METHOD='run(int,,long)' is not a method name or pattern (an identifier, new or <init> for constructors; '*' matches any characters), optionally with a parameter list such as (int,java.lang.String) or (String,*)")),
                arguments("WHEN CLASS not a type", model("CLASS='*' METHOD='*'", "<PATCH WHAT='ARRAY_ALLOC' MODE='COUNT'>", "  <WHEN CASE='CLASS' ARG='int[]x'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: ARG='int[]x' is not a Java class name or pattern, or an array type such as int[] or java.lang.String[][] as CASE='CLASS' needs")),
                arguments("bad UPDATE", model("CLASS='*' METHOD='*' UPDATE='REPLACE'", "<PATCH WHAT='ENTER' MODE='COUNT'/>"),
                        List.of("model.xml:2:3: FOR: UPDATE='REPLACE' is not one of NEW, ADD")),
                arguments("FOR that does nothing", model("CLASS='*' METHOD='*'"),
                        List.of("model.xml:2:3: FOR: a FOR with UPDATE='ADD' and no PATCH does nothing;"
                                + " add a PATCH, or write UPDATE='NEW' to clear the patches of these methods")),
                arguments("unknown element in FOR", model("CLASS='*' METHOD='*'", "<WHEN CASE='FIELD' ARG='x'/>"),
                        List.of("model.xml:3:5: WHEN: unknown element in FOR (allowed: PATCH)")),
                arguments("bad WHAT", model("CLASS='*' METHOD='*'", "<PATCH WHAT='RETURN' MODE='COUNT'/>"),
                        List.of("model.xml:3:5: PATCH: WHAT='RETURN' is not one of " + ALL_WHATS)),
                arguments("PATCH without WHAT and MODE", model("CLASS='*' METHOD='*'", "<PATCH/>"),
                        List.of("model.xml:3:5: PATCH: missing attribute WHAT", "model.xml:3:5: PATCH: missing attribute MODE")),
                arguments("bad MODE name", model("CLASS='*' METHOD='*'", "<PATCH WHAT='ENTER' MODE='count calls'/>"),
                        List.of("model.xml:3:5: PATCH: MODE='count calls' is not a valid mode name (a letter or '_', then letters, digits, '_', '-' or '.')")),
                arguments("bad WHEN CASE", model("CLASS='*' METHOD='*'", "<PATCH WHAT='CALL' MODE='COUNT_CALLS'>", "  <WHEN CASE='LINE' ARG='12'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: CASE='LINE' is not one of FIELD, BLOCK, CLASS, METHOD")),
                arguments("WHEN without ARG", model("CLASS='*' METHOD='*'", "<PATCH WHAT='CALL' MODE='COUNT_CALLS'>", "  <WHEN CASE='METHOD'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: missing attribute ARG")),
                arguments("WHEN BLOCK not a number", model("CLASS='*' METHOD='*'", "<PATCH WHAT='BLOCK_START' MODE='COUNT'>", "  <WHEN CASE='BLOCK' ARG='first'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: ARG='first' is not an instruction number (0 or more) as CASE='BLOCK' needs")),
                arguments("WHEN METHOD not a name", model("CLASS='*' METHOD='*'", "<PATCH WHAT='CALL' MODE='COUNT_CALLS'>", "  <WHEN CASE='METHOD' ARG='run()'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: ARG='run()' is not a method name or pattern, optionally qualified (Type.method) as CASE='METHOD' needs")),
                arguments("WHEN FIELD not a name", model("CLASS='*' METHOD='*'", "<PATCH WHAT='FIELD_ACCESS' MODE='COUNT'>", "  <WHEN CASE='FIELD' ARG='a..b'/>", "</PATCH>"),
                        List.of("model.xml:4:7: WHEN: ARG='a..b' is not a field name or pattern, optionally qualified (Type.field) as CASE='FIELD' needs")),
                arguments("raw <init>", "<MODEL NAME='m'>\n  <FOR CLASS='*' METHOD='<init>'/>\n</MODEL>",
                        List.of("model.xml:2:26: XML: not well-formed: The value of attribute \"METHOD\" associated with an element type"
                                + " \"FOR\" must not contain the '<' character. (in XML, write <init> as &lt;init&gt;)")),
                arguments("child of WHEN", model("CLASS='*' METHOD='*'", "<PATCH WHAT='CALL' MODE='COUNT_CALLS'>", "  <WHEN CASE='METHOD' ARG='run'><WHEN CASE='FIELD' ARG='x'/></WHEN>", "</PATCH>"),
                        List.of("model.xml:4:37: WHEN: unknown element; WHEN has no child elements")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejectsWithExactMessages(String rule, String xml, List<String> expected) {
        assertEquals(expected, Problems.ofModel(xml));
    }

    @Test
    void reportsEveryProblemOfAFileAtOnce() {
        String xml = """
                <MODEL NAME='m'>
                  <FOR CLASS='org.x.*' METHOD='transfer' UPDATE='new'>
                    <PATCH WHAT='ENTRY' MODE='TIME_ENTER'/>
                    <PATCH WHAT='EXIT'/>
                  </FOR>
                  <FOR CLASS='org.x.Bank' METHOD='1run'>
                    <PATCH WHAT='CALL' MODE='COUNT_CALLS'><WHEN CASE='CALLEE' ARG='x'/></PATCH>
                  </FOR>
                  <for CLASS='*' METHOD='*'/>
                </MODEL>""";
        assertEquals(List.of(
                "model.xml:3:5: PATCH: WHAT='ENTRY' is not one of " + ALL_WHATS,
                "model.xml:4:5: PATCH: missing attribute MODE",
                "model.xml:6:3: FOR: METHOD='1run' is not a method name or pattern "
                        + "(an identifier, new or <init> for constructors; '*' matches any characters), optionally with a parameter list such as (int,java.lang.String) or (String,*)",
                "model.xml:7:43: WHEN: CASE='CALLEE' is not one of FIELD, BLOCK, CLASS, METHOD",
                "model.xml:9:3: for: unknown element; element names are upper case: FOR"), Problems.ofModel(xml));
    }

    @Test
    void readsEveryPartWithItsLocation() throws Exception {
        Model model = Problems.model("""
                <MODEL NAME='bank-timing'>
                  <FOR CLASS='org.x.Bank' METHOD='transfer'>
                    <PATCH WHAT='ENTER' MODE='TIME_ENTER'/>
                    <PATCH WHAT='exit' MODE='TIME_EXIT'/>
                  </FOR>
                  <FOR CLASS='org.x.*Service' METHOD='&lt;init&gt;' UPDATE='new'>
                    <PATCH WHAT='CALL' MODE='COUNT_CALLS'>
                      <WHEN CASE='METHOD' ARG='get*'/>
                      <WHEN CASE='class' ARG='java.util.*'/>
                      <WHEN CASE='METHOD' ARG='org.x.*.&lt;init&gt;'/>
                      <WHEN CASE='FIELD' ARG='*.balance'/>
                    </PATCH>
                  </FOR>
                  <FOR CLASS='*' METHOD='*' UPDATE='NEW'/>
                  <FOR CLASS='org.x.Index' METHOD='forceMerge(int, boolean)'>
                    <PATCH WHAT='ARRAY_ALLOC' MODE='COUNT'><WHEN CASE='CLASS' ARG='java.lang.String[][]'/></PATCH>
                  </FOR>
                  <FOR CLASS='org.x.Map' METHOD='put(String,*)' UPDATE='NEW'/>
                  <FOR CLASS='org.x.Log' METHOD='format(java.lang.String,Object...)' UPDATE='NEW'/>
                </MODEL>
                """);
        Model expected = new Model("bank-timing", List.of(
                new ForSpec("org.x.Bank", "transfer", Update.ADD, List.of(
                        new Patch(What.ENTER, "TIME_ENTER", List.of(), at(3, 5)),
                        new Patch(What.EXIT, "TIME_EXIT", List.of(), at(4, 5))), at(2, 3)),
                new ForSpec("org.x.*Service", "<init>", Update.NEW, List.of(
                        new Patch(What.CALL, "COUNT_CALLS", List.of(
                                new When(WhenCase.METHOD, "get*", at(8, 7)),
                                new When(WhenCase.CLASS, "java.util.*", at(9, 7)),
                                new When(WhenCase.METHOD, "org.x.*.<init>", at(10, 7)),
                                new When(WhenCase.FIELD, "*.balance", at(11, 7))), at(7, 5))), at(6, 3)),
                new ForSpec("*", "*", Update.NEW, List.of(), at(14, 3)),
                new ForSpec("org.x.Index", "forceMerge(int, boolean)", Update.ADD, List.of(
                        new Patch(What.ARRAY_ALLOC, "COUNT", List.of(
                                new When(WhenCase.CLASS, "java.lang.String[][]", at(16, 44))), at(16, 5))), at(15, 3)),
                new ForSpec("org.x.Map", "put(String,*)", Update.NEW, List.of(), at(18, 3)),
                new ForSpec("org.x.Log", "format(java.lang.String,Object...)", Update.NEW, List.of(), at(19, 3))),
                at(1, 1));
        assertEquals(expected, model);
    }

    private static Location at(int line, int column) {
        return new Location("model.xml", line, column);
    }
}
