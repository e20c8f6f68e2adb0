package org.dyper.patch.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.List;
import java.util.stream.Stream;

import org.dyper.patch.model.Arg;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.Condition;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.ExternalMode;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.ModeSet;
import org.dyper.patch.model.Signature;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ModeReaderTest {
    private static final String ALL_ARG_TYPES = "THIS, INTEGER, CURTHREAD, FIELD, RETURN, LOCAL, INSNO, BLOCKID, "
            + "METHODID, CLASSID, REFMETHODID, REFCLASSID, REFBLOCKID, ARG, CONTEXT, NULL, TARGET, EXCEPTION";

    /**
     * A mode file with one mode M (at 2:3, with {@code modeAttributes} added) holding one CODE (at 3:5) with
     * {@code signature}; {@code body} lines go inside the CODE, line i+4 at column 7.
     */
    static String file(String modeAttributes, String signature, String... body) {
        StringBuilder s = new StringBuilder("<DYPATCH>\n  <DYPATCH_MODE NAME='M'" + modeAttributes + ">\n"
                + "    <CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='" + signature + "'>\n");
        for (String line : body) {
            s.append("      ").append(line).append('\n');
        }
        return s.append("    </CODE>\n  </DYPATCH_MODE>\n</DYPATCH>\n").toString();
    }

    static Stream<Arguments> rejected() {
        return Stream.of(
                arguments("wrong root element", "<MODEL NAME='x'/>",
                        List.of("modes.xml:1:1: MODEL: the root element of a mode file must be DYPATCH, DYPATCH_MODE or DYPATCH_EXTERNAL")),
                arguments("attribute on DYPATCH", "<DYPATCH PID='1'/>",
                        List.of("modes.xml:1:1: DYPATCH: unknown attribute PID; DYPATCH takes no attributes")),
                arguments("unknown element in DYPATCH", "<DYPATCH>\n  <MODE NAME='M'/>\n</DYPATCH>",
                        List.of("modes.xml:2:3: MODE: unknown element in DYPATCH (allowed: DYPATCH_MODE, DYPATCH_EXTERNAL)")),
                arguments("element name in lower case", "<DYPATCH>\n  <dypatch_mode NAME='M'/>\n</DYPATCH>",
                        List.of("modes.xml:2:3: dypatch_mode: unknown element; element names are upper case: DYPATCH_MODE")),
                arguments("element in a namespace", "<DYPATCH xmlns:x='urn:x'>\n  <x:DYPATCH_MODE NAME='M'/>\n</DYPATCH>",
                        List.of("modes.xml:2:3: x:DYPATCH_MODE: unknown element; Dyper elements have no namespace")),
                arguments("unknown element in CODE", file("", "(int)", "<ARG TYPE='METHODID'/>", "<CALL/>"),
                        List.of("modes.xml:5:7: CALL: unknown element in CODE (allowed: CONDITION, ARG, RETURN)")),
                arguments("child of ARG", file("", "(int)", "<ARG TYPE='METHODID'><ARG TYPE='THIS'/></ARG>"),
                        List.of("modes.xml:4:28: ARG: unknown element; ARG has no child elements")),
                arguments("unknown attribute", file("", "(int)", "<ARG TYPE='METHODID' NAME='id'/>"),
                        List.of("modes.xml:4:7: ARG: unknown attribute NAME (allowed: TYPE, VALUE)")),
                arguments("attribute name in lower case", "<DYPATCH_MODE name='M'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>",
                        List.of("modes.xml:1:1: DYPATCH_MODE: unknown attribute name; attribute names are upper case: NAME",
                                "modes.xml:1:1: DYPATCH_MODE: missing attribute NAME")),
                arguments("text inside an element", file("", "(int)", "<ARG TYPE='METHODID'/> id"),
                        List.of("modes.xml:4:30: CODE: text is not allowed here: 'id'")),
                arguments("mode without NAME", "<DYPATCH>\n  <DYPATCH_MODE><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>\n</DYPATCH>",
                        List.of("modes.xml:2:3: DYPATCH_MODE: missing attribute NAME")),
                arguments("empty NAME", "<DYPATCH_MODE NAME=' '><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>",
                        List.of("modes.xml:1:1: DYPATCH_MODE: attribute NAME is empty")),
                arguments("bad mode name", "<DYPATCH_MODE NAME='my mode'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>",
                        List.of("modes.xml:1:1: DYPATCH_MODE: NAME='my mode' is not a valid mode name (a letter or '_', then letters, digits, '_', '-' or '.')")),
                arguments("bad CONTEXT", file(" CONTEXT='java.util.'", "(int)", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:2:3: DYPATCH_MODE: CONTEXT='java.util.' is not a Java class name or primitive type")),
                arguments("empty DESCRIPTION", file(" DESCRIPTION=''", "(int)", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:2:3: DYPATCH_MODE: attribute DESCRIPTION is empty; leave it out instead")),
                arguments("mode without CODE", "<DYPATCH>\n  <DYPATCH_MODE NAME='M'/>\n</DYPATCH>",
                        List.of("modes.xml:2:3: DYPATCH_MODE: a mode needs at least one CODE")),
                arguments("INSTRUCTION", "<DYPATCH_MODE NAME='M'>\n  <INSTRUCTION/>\n</DYPATCH_MODE>",
                        List.of("modes.xml:2:3: INSTRUCTION: not supported; only CODE TYPE='CALL' is supported")),
                arguments("CODE TYPE other than CALL", "<DYPATCH_MODE NAME='M'>\n  <CODE TYPE='JUMP' CLASS='a.B' METHOD='m' SIGNATURE='()'/>\n</DYPATCH_MODE>",
                        List.of("modes.xml:2:3: CODE: TYPE='JUMP' is not supported; only TYPE='CALL' is")),
                arguments("CODE without attributes", "<DYPATCH_MODE NAME='M'>\n  <CODE/>\n</DYPATCH_MODE>",
                        List.of("modes.xml:2:3: CODE: missing attribute TYPE",
                                "modes.xml:2:3: CODE: missing attribute CLASS",
                                "modes.xml:2:3: CODE: missing attribute METHOD",
                                "modes.xml:2:3: CODE: missing attribute SIGNATURE")),
                arguments("bad CLASS and METHOD", "<DYPATCH_MODE NAME='M'>\n  <CODE TYPE='CALL' CLASS='org..Counting' METHOD='&lt;init&gt;' SIGNATURE='()'/>\n</DYPATCH_MODE>",
                        List.of("modes.xml:2:3: CODE: CLASS='org..Counting' is not a Java class name",
                                "modes.xml:2:3: CODE: METHOD='<init>' is not a Java method name")),
                arguments("bad SIGNATURE", file("", "(int, Foo)", "<ARG TYPE='METHODID'/>", "<ARG TYPE='THIS'/>"),
                        List.of("modes.xml:3:5: CODE: SIGNATURE='(int, Foo)' is not valid: type 'Foo' must be fully qualified;"
                                + " only primitive types and java.lang types may be written without a package")),
                arguments("bad JVM descriptor", file("", "(IQ)V", "<ARG TYPE='METHODID'/>", "<ARG TYPE='THIS'/>"),
                        List.of("modes.xml:3:5: CODE: SIGNATURE='(IQ)V' is not valid: unexpected 'Q' at position 2"
                                + " of the JVM descriptor (expected one of B C D F I J S Z L [ or ))")),
                arguments("fewer ARGs than parameters", file("", "(int, long)", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:3:5: CODE: SIGNATURE='(int, long)' has 2 parameters but the CODE has 1 ARG")),
                arguments("more ARGs than parameters", file("", "(I)V", "<ARG TYPE='METHODID'/>", "<ARG TYPE='THIS'/>"),
                        List.of("modes.xml:3:5: CODE: SIGNATURE='(I)V' has 1 parameter but the CODE has 2 ARGs")),
                arguments("bad ARG TYPE", file("", "(int)", "<ARG TYPE='COUNTER'/>"),
                        List.of("modes.xml:4:7: ARG: TYPE='COUNTER' is not one of " + ALL_ARG_TYPES)),
                arguments("ARG without TYPE", file("", "(int)", "<ARG/>"),
                        List.of("modes.xml:4:7: ARG: missing attribute TYPE")),
                arguments("INTEGER without VALUE", file("", "(int)", "<ARG TYPE='INTEGER'/>"),
                        List.of("modes.xml:4:7: ARG: TYPE='INTEGER' needs a VALUE (an int)")),
                arguments("INTEGER not a number", file("", "(int)", "<ARG TYPE='INTEGER' VALUE='ten'/>"),
                        List.of("modes.xml:4:7: ARG: VALUE='ten' is not an int as TYPE='INTEGER' needs")),
                arguments("INTEGER too large", file("", "(int)", "<ARG TYPE='INTEGER' VALUE='2147483648'/>"),
                        List.of("modes.xml:4:7: ARG: VALUE='2147483648' is not an int as TYPE='INTEGER' needs")),
                arguments("FIELD not a name", file("", "(int)", "<ARG TYPE='FIELD' VALUE='1st'/>"),
                        List.of("modes.xml:4:7: ARG: VALUE='1st' is not a field name as TYPE='FIELD' needs")),
                arguments("FIELD with an empty VALUE", file("", "(int)", "<ARG TYPE='FIELD' VALUE=''/>"),
                        List.of("modes.xml:4:7: ARG: TYPE='FIELD' needs a VALUE (a field name)")),
                arguments("LOCAL negative", file("", "(int)", "<ARG TYPE='LOCAL' VALUE='-1'/>"),
                        List.of("modes.xml:4:7: ARG: VALUE='-1' is not a local variable number or name as TYPE='LOCAL' needs")),
                arguments("ARG number zero", file("", "(int)", "<ARG TYPE='ARG' VALUE='0'/>"),
                        List.of("modes.xml:4:7: ARG: VALUE='0' is not an argument number (1 or more) as TYPE='ARG' needs")),
                arguments("ARG without number", file("", "(int)", "<ARG TYPE='ARG'/>"),
                        List.of("modes.xml:4:7: ARG: TYPE='ARG' needs a VALUE (an argument number (1 or more))")),
                arguments("VALUE where none is taken", file("", "(int)", "<ARG TYPE='METHODID' VALUE='3'/>"),
                        List.of("modes.xml:4:7: ARG: TYPE='METHODID' takes no VALUE (found VALUE='3')")),
                arguments("bad CONDITION TYPE", file("", "(int)", "<CONDITION TYPE='THIS'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: TYPE='THIS' is not one of CONTEXT, FIELD, RETURN, LOCAL, ARG")),
                arguments("FIELD CONDITION without values", file("", "(int)", "<CONDITION TYPE='FIELD'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: TYPE='FIELD' needs an LVALUE (a field name)",
                                "modes.xml:4:7: CONDITION: TYPE='FIELD' needs an RVALUE (an int, NULL or NONNULL)")),
                arguments("CONTEXT CONDITION with values", file(" CONTEXT='long'", "(int)", "<CONDITION TYPE='CONTEXT' LVALUE='x' RVALUE='0'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: TYPE='CONTEXT' takes no LVALUE (found LVALUE='x')",
                                "modes.xml:4:7: CONDITION: TYPE='CONTEXT' takes no RVALUE (found RVALUE='0')")),
                arguments("RETURN CONDITION with LVALUE", file("", "(int)", "<CONDITION TYPE='RETURN' LVALUE='x' RVALUE='NULL'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: TYPE='RETURN' takes no LVALUE (found LVALUE='x')")),
                arguments("ARG CONDITION not a number", file("", "(int)", "<CONDITION TYPE='ARG' LVALUE='first' RVALUE='NONNULL'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: LVALUE='first' is not an argument number (1 or more) as TYPE='ARG' needs")),
                arguments("RVALUE not an int, NULL or NONNULL", file("", "(int)", "<CONDITION TYPE='LOCAL' LVALUE='2' RVALUE='maybe'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:4:7: CONDITION: RVALUE='maybe' is not an int, NULL or NONNULL")),
                arguments("RETURN TYPE other than CONTEXT", file(" CONTEXT='long'", "long (int)", "<ARG TYPE='METHODID'/>", "<RETURN TYPE='VALUE'/>"),
                        List.of("modes.xml:5:7: RETURN: TYPE='VALUE' is not supported; only TYPE='CONTEXT' is")),
                arguments("RETURN TYPE other than CONTEXT in a mode without CONTEXT: one error, not a second about a context",
                        file("", "(I)V", "<ARG TYPE='METHODID'/>", "<RETURN TYPE='VALUE'/>"),
                        List.of("modes.xml:5:7: RETURN: TYPE='VALUE' is not supported; only TYPE='CONTEXT' is")),
                arguments("two RETURNs", file(" CONTEXT='long'", "long (int)", "<ARG TYPE='METHODID'/>", "<RETURN TYPE='CONTEXT'/>", "<RETURN TYPE='CONTEXT'/>"),
                        List.of("modes.xml:6:7: RETURN: a CODE may hold only one RETURN; the first is at modes.xml:5:7")),
                arguments("RETURN from a void method", file(" CONTEXT='long'", "(I)V", "<ARG TYPE='METHODID'/>", "<RETURN TYPE='CONTEXT'/>"),
                        List.of("modes.xml:3:5: CODE: RETURN TYPE='CONTEXT' at modes.xml:5:7 needs a method that returns a value,"
                                + " but SIGNATURE='(I)V' returns void")),
                arguments("ARG CONTEXT without CONTEXT attribute", file("", "(int, long)", "<ARG TYPE='METHODID'/>", "<ARG TYPE='CONTEXT'/>"),
                        List.of("modes.xml:2:3: DYPATCH_MODE: mode 'M' uses the context (ARG TYPE='CONTEXT' at modes.xml:5:7)"
                                + " but has no CONTEXT attribute giving its type")),
                arguments("CONDITION CONTEXT without CONTEXT attribute", file("", "(int)", "<CONDITION TYPE='CONTEXT'/>", "<ARG TYPE='METHODID'/>"),
                        List.of("modes.xml:2:3: DYPATCH_MODE: mode 'M' uses the context (CONDITION TYPE='CONTEXT' at modes.xml:4:7)"
                                + " but has no CONTEXT attribute giving its type")),
                arguments("RETURN CONTEXT without CONTEXT attribute", file("", "long (int)", "<ARG TYPE='METHODID'/>", "<RETURN TYPE='CONTEXT'/>"),
                        List.of("modes.xml:2:3: DYPATCH_MODE: mode 'M' uses the context (RETURN TYPE='CONTEXT' at modes.xml:5:7)"
                                + " but has no CONTEXT attribute giving its type")),
                arguments("duplicate mode", """
                        <DYPATCH>
                          <DYPATCH_MODE NAME='M'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>
                          <DYPATCH_MODE NAME='M'><CODE TYPE='CALL' CLASS='a.B' METHOD='n' SIGNATURE='()'/></DYPATCH_MODE>
                        </DYPATCH>""",
                        List.of("modes.xml:3:3: DYPATCH_MODE: duplicate mode NAME='M'; first defined at modes.xml:2:3")),
                arguments("external with the name of a mode", """
                        <DYPATCH>
                          <DYPATCH_MODE NAME='M'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>
                          <DYPATCH_EXTERNAL NAME='M' CLASS='a.Patcher'/>
                        </DYPATCH>""",
                        List.of("modes.xml:3:3: DYPATCH_EXTERNAL: duplicate mode NAME='M'; first defined at modes.xml:2:3")),
                arguments("external without CLASS", "<DYPATCH>\n  <DYPATCH_EXTERNAL NAME='X' JAR=''/>\n</DYPATCH>",
                        List.of("modes.xml:2:3: DYPATCH_EXTERNAL: missing attribute CLASS",
                                "modes.xml:2:3: DYPATCH_EXTERNAL: attribute JAR is empty; leave it out instead")),
                arguments("external with bad CLASS and a child", "<DYPATCH_EXTERNAL NAME='X' CLASS='a/b/C'>\n  <CODE/>\n</DYPATCH_EXTERNAL>",
                        List.of("modes.xml:2:3: CODE: unknown element; DYPATCH_EXTERNAL has no child elements",
                                "modes.xml:1:1: DYPATCH_EXTERNAL: CLASS='a/b/C' is not a Java class name")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejected")
    void rejectsWithExactMessages(String rule, String xml, List<String> expected) {
        assertEquals(expected, Problems.ofModes(xml));
    }

    @Test
    void reportsEveryProblemOfAFileAtOnce() {
        String xml = """
                <DYPATCH>
                  <DYPATCH_MODE NAME='A' COLOR='red'>
                    <CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='(int,long)'>
                      <ARG TYPE='METHODID'/>
                      <ARG TYPE='CONTEXT'/>
                      <ARG TYPE='INTEGER' VALUE='x'/>
                    </CODE>
                  </DYPATCH_MODE>
                  <DYPATCH_MODE NAME='A'>
                    <CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='(Foo)'>
                      <ARG TYPE='SELF'/>
                    </CODE>
                    <INSTRUCTION/>
                  </DYPATCH_MODE>
                  <DYPATCH_EXTERNAL NAME='E'/>
                </DYPATCH>""";
        assertEquals(List.of(
                "modes.xml:2:3: DYPATCH_MODE: unknown attribute COLOR (allowed: NAME, CONTEXT, DESCRIPTION)",
                "modes.xml:6:7: ARG: VALUE='x' is not an int as TYPE='INTEGER' needs",
                "modes.xml:3:5: CODE: SIGNATURE='(int,long)' has 2 parameters but the CODE has 3 ARGs",
                "modes.xml:2:3: DYPATCH_MODE: mode 'A' uses the context (ARG TYPE='CONTEXT' at modes.xml:5:7)"
                        + " but has no CONTEXT attribute giving its type",
                "modes.xml:9:3: DYPATCH_MODE: duplicate mode NAME='A'; first defined at modes.xml:2:3",
                "modes.xml:10:5: CODE: SIGNATURE='(Foo)' is not valid: type 'Foo' must be fully qualified;"
                        + " only primitive types and java.lang types may be written without a package",
                "modes.xml:11:7: ARG: TYPE='SELF' is not one of " + ALL_ARG_TYPES,
                "modes.xml:13:5: INSTRUCTION: not supported; only CODE TYPE='CALL' is supported",
                "modes.xml:15:3: DYPATCH_EXTERNAL: missing attribute CLASS"), Problems.ofModes(xml));
    }

    @Test
    void readsEveryPartWithItsLocation() throws Exception {
        ModeSet set = Problems.modes("""
                <?xml version='1.0' encoding='UTF-8'?>
                <DYPATCH xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xsi:noNamespaceSchemaLocation='dypatch-modes.xsd'>
                  <!-- comments are fine -->
                  <DYPATCH_MODE NAME='GUARDED' CONTEXT='org.x.Ctx' DESCRIPTION='a
                      test mode'>
                    <CODE TYPE='call'
                          CLASS='org.x.Ctx' METHOD='hit' SIGNATURE='(int, java.lang.Object, long, Thread, int)'>
                      <CONDITION TYPE='field' LVALUE='ready' RVALUE='nonnull'/>
                      <CONDITION TYPE='ARG' LVALUE='2' RVALUE='-5'/>
                      <ARG TYPE='METHODID'/>
                      <ARG TYPE='this'/>
                      <ARG TYPE='LOCAL' VALUE='3'/>
                      <ARG TYPE='CurThread'/>
                      <ARG TYPE='INTEGER' VALUE='-7'/>
                    </CODE>
                    <CODE TYPE='CALL' CLASS='org.x.Ctx' METHOD='start' SIGNATURE='(I)Lorg/x/Ctx;'>
                      <ARG TYPE='CLASSID'/>
                      <RETURN TYPE='context'/>
                    </CODE>
                  </DYPATCH_MODE>
                  <DYPATCH_EXTERNAL NAME='EXT' CLASS='org.x.Patcher' JAR='lib/patcher.jar'/>
                </DYPATCH>
                """);
        Location mode = new Location("modes.xml", 4, 3);
        Code hit = new Code("CALL", "org.x.Ctx", "hit",
                new Signature(List.of("int", "java.lang.Object", "long", "java.lang.Thread", "int"), null,
                        "(int, java.lang.Object, long, Thread, int)"),
                List.of(new Condition(ConditionType.FIELD, "ready", "NONNULL", new Location("modes.xml", 8, 7)),
                        new Condition(ConditionType.ARG, "2", "-5", new Location("modes.xml", 9, 7))),
                List.of(new Arg(ArgType.METHODID, null, new Location("modes.xml", 10, 7)),
                        new Arg(ArgType.THIS, null, new Location("modes.xml", 11, 7)),
                        new Arg(ArgType.LOCAL, "3", new Location("modes.xml", 12, 7)),
                        new Arg(ArgType.CURTHREAD, null, new Location("modes.xml", 13, 7)),
                        new Arg(ArgType.INTEGER, "-7", new Location("modes.xml", 14, 7))),
                false, new Location("modes.xml", 6, 5));
        Code start = new Code("CALL", "org.x.Ctx", "start",
                new Signature(List.of("int"), "org.x.Ctx", "(I)Lorg/x/Ctx;"), List.of(),
                List.of(new Arg(ArgType.CLASSID, null, new Location("modes.xml", 17, 7))),
                true, new Location("modes.xml", 16, 5));
        assertEquals(new ModeSet(List.of(new Mode("GUARDED", "org.x.Ctx", List.of(hit, start), mode)),
                        List.of(new ExternalMode("EXT", "org.x.Patcher", "lib/patcher.jar", new Location("modes.xml", 21, 3)))),
                set);
    }

    @Test
    void keepsTheDescription() throws Exception {
        ModeFile file = ModeReader.readFile("d.xml", new java.io.ByteArrayInputStream(
                "<DYPATCH_MODE NAME='M' DESCRIPTION='  counts\n   things '><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>"
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(java.util.Optional.of("counts things"), file.description("M"));
    }

    static Stream<Arguments> singleRoots() {
        return Stream.of(
                arguments("<DYPATCH_MODE NAME='ONE'><CODE TYPE='CALL' CLASS='a.B' METHOD='m' SIGNATURE='()'/></DYPATCH_MODE>", 1, 0),
                arguments("<DYPATCH_EXTERNAL NAME='ONE' CLASS='a.B'/>", 0, 1),
                arguments("<DYPATCH/>", 0, 0));
    }

    @ParameterizedTest
    @MethodSource("singleRoots")
    void acceptsEachRootForm(String xml, int modes, int externals) throws Exception {
        ModeSet set = Problems.modes(xml);
        assertEquals(modes, set.modes().size());
        assertEquals(externals, set.externals().size());
    }
}
