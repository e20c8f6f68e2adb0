package org.dyper.runtime.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonTextTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "plain            | abc                  | `\"abc\"`",
        "quote, backslash | `a\"b\\c`             | `\"a\\\"b\\\\c\"`",
        "html             | </script>&           | `\"\\u003c/script\\u003e\\u0026\"`",
        "controls         | `a\u0001b`           | `\"a\\u0001b\"`",
        "line separator   | `a\u2028b\u2029`     | `\"a\\u2028b\\u2029\"`",
        "non-ASCII kept   | héllo                | `\"héllo\"`",
    })
    void quotesSoThatTheTextCanSitInAScriptElement(String what, String in, String out) {
        assertEquals(out, JsonText.quote(new StringBuilder(), in).toString(), what);
    }

    @org.junit.jupiter.api.Test
    void nullAndWhitespaceEscapes() {
        assertEquals("null", JsonText.quote(new StringBuilder(), null).toString());
        assertEquals("\"a\\nb\\rc\\td\"", JsonText.quote(new StringBuilder(), "a\nb\rc\td").toString());
    }
}
