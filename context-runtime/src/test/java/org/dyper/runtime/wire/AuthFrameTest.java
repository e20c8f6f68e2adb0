package org.dyper.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The fixed shape of the first message, checked without an XML parser. */
class AuthFrameTest {
    private static AuthFrame.Offer parse(String s) {
        return AuthFrame.parse(s.getBytes(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> offers() {
        return Stream.of(
                Arguments.of("<DYPER AUTH='abc'/>", "abc", false),
                Arguments.of("<DYPER AUTH=\"abc\"/>", "abc", false),
                Arguments.of("<DYPER AUTH='abc' PUSH='true'/>", "abc", true),
                Arguments.of("<DYPER PUSH='t' AUTH='abc' />", "abc", true),
                Arguments.of(" <DYPER  AUTH = 'abc'\n PUSH='false'/>\n", "abc", false),
                Arguments.of("<DYPER AUTH=''/>", "", false));
    }

    @ParameterizedTest
    @MethodSource("offers")
    void offers(String frame, String token, boolean push) {
        AuthFrame.Offer o = parse(frame);
        assertEquals(token, o.token());
        assertEquals(push, o.push());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "<DYPER COMMAND='PING'/>",
        "<DYPER/>",
        "<DYPER AUTH='a' AUTH='b'/>",
        "<DYPER AUTH='a' PUSH='maybe'/>",
        "<DYPER AUTH='a' PID='1'/>",
        "<DYPER AUTH='a'>",
        "<DYPER AUTH='a'></DYPER>",
        "<DYPERAUTH='a'/>",
        "<DYPER AUTH='a'PUSH='true'/>",
        "<DYPER AUTH='a&amp;'/>",
        "<DYPER AUTH='a/>",
        "<DYPER AUTH=a/>",
        "<?xml version='1.0'?><DYPER AUTH='a'/>",
        "<!DOCTYPE d><DYPER AUTH='a'/>",
        "<DYPER AUTH='a'/> x",
        "<DYPER AUTH='\u00e9'/>",
        "",
    })
    void refused(String frame) {
        assertNull(parse(frame));
    }

    @org.junit.jupiter.api.Test
    void atMost256Bytes() {
        String pad = " ".repeat(256 - "<DYPER AUTH='a'/>".length());
        assertEquals("a", parse("<DYPER AUTH='a'/>" + pad).token());
        assertNull(parse("<DYPER AUTH='a'/>" + pad + " "));
    }
}
