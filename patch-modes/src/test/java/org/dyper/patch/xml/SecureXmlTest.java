package org.dyper.patch.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Both readers refuse anything a DOCTYPE could smuggle in, and report broken XML as one located problem. */
class SecureXmlTest {
    @TempDir
    static Path dir;

    static Stream<Arguments> doctypes() throws Exception {
        Path secret = dir.resolve("secret.txt");
        Files.writeString(secret, "secret");
        String laughs = """
                <?xml version="1.0"?>
                <!DOCTYPE lolz [
                 <!ENTITY lol "lol">
                 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
                 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
                ]>
                <%s NAME="&lol3;"/>
                """;
        String external = """
                <?xml version="1.0"?>
                <!DOCTYPE x [ <!ENTITY xxe SYSTEM "%s"> ]>
                <%s NAME="&xxe;"/>
                """;
        String parameter = """
                <?xml version="1.0"?>
                <!DOCTYPE x [ <!ENTITY %% p SYSTEM "%s"> %%p; ]>
                <%s NAME='x'/>
                """;
        String externalDtd = "<?xml version='1.0'?>\n<!DOCTYPE %s SYSTEM \"%s\">\n<%s NAME='x'/>";
        String uri = secret.toUri().toString();
        return Stream.of(
                arguments("billion laughs", laughs.formatted("DYPATCH_MODE"), laughs.formatted("MODEL")),
                arguments("external entity", external.formatted(uri, "DYPATCH_MODE"), external.formatted(uri, "MODEL")),
                arguments("parameter entity", parameter.formatted(uri, "DYPATCH_MODE"), parameter.formatted(uri, "MODEL")),
                arguments("external DTD", externalDtd.formatted("DYPATCH_MODE", uri, "DYPATCH_MODE"),
                        externalDtd.formatted("MODEL", uri, "MODEL")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("doctypes")
    void rejectsEveryDoctype(String attack, String modeXml, String modelXml) {
        assertEquals(List.of("modes.xml:2:10: DOCTYPE: DTDs and entities are not allowed in Dyper XML"), Problems.ofModes(modeXml));
        assertEquals(List.of("model.xml:2:10: DOCTYPE: DTDs and entities are not allowed in Dyper XML"), Problems.ofModel(modelXml));
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                arguments("unclosed element", "<DYPATCH>\n  <DYPATCH_MODE NAME='M'>\n</DYPATCH>", "modes.xml:3:3: XML: not well-formed: "),
                arguments("unquoted attribute", "<DYPATCH>\n  <DYPATCH_MODE NAME=M/>\n</DYPATCH>", "modes.xml:2:22: XML: not well-formed: "),
                arguments("undeclared entity", "<DYPATCH_MODE NAME='&x;'/>", "modes.xml:1:24: XML: not well-formed: "),
                arguments("empty file", "", "modes.xml:1:1: XML: not well-formed: "),
                arguments("text after the root", "<DYPATCH/>\n<DYPATCH/>", "modes.xml:2:2: XML: not well-formed: "),
                arguments("a DOCTYPE inside a comment, and an unrelated mistake", "<!-- no <!DOCTYPE x> here -->\n"
                        + "<DYPATCH>\n  <DYPATCH_MODE NAME='M'>\n</DYPATCH>", "modes.xml:4:3: XML: not well-formed: "));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void reportsMalformedXmlOnceWithTheParserPosition(String what, String xml, String prefix) {
        List<String> problems = Problems.ofModes(xml);
        assertEquals(1, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith(prefix) && problems.get(0).length() > prefix.length(), problems.get(0));
    }

    @Test
    void reportsAMissingFile() {
        Path missing = dir.resolve("missing.xml");
        List<String> problems = Problems.messages(org.junit.jupiter.api.Assertions.assertThrows(
                org.dyper.patch.model.InvalidInputException.class, () -> ModelReader.read(missing)));
        assertEquals(List.of(missing + ":0:0: FILE: cannot read: NoSuchFileException: " + missing), problems);
    }

    @Test
    void locatesStartTagsSpanningLinesAndHoldingGreaterThan() throws Exception {
        var set = Problems.modes("""
                <DYPATCH>
                  <DYPATCH_MODE NAME='M' DESCRIPTION='a -> b'
                      CONTEXT='long'><CODE TYPE='CALL' CLASS='a.B' METHOD='m'
                    SIGNATURE='(I)J'><ARG TYPE='METHODID'/><RETURN TYPE='CONTEXT'/></CODE></DYPATCH_MODE>
                </DYPATCH>""");
        assertEquals("modes.xml:2:3", set.modes().get(0).at().toString());
        assertEquals("modes.xml:3:22", set.modes().get(0).codes().get(0).at().toString());
        assertEquals("modes.xml:4:22", set.modes().get(0).codes().get(0).args().get(0).at().toString());
    }
}
