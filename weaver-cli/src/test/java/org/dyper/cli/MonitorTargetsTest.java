package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The CLASSMODEL prefix {@code dyper ctl instrument} asks for: a prefix of the binary name of every class the FOR
 * patterns select (nested classes are {@code $} in binary names and may be spelled with dots), as long as it can be.
 */
class MonitorTargetsTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(List.of("bench.gen.C*"), "bench.gen", List.of("bench.gen.C0", "bench.gen.C12")),
                Arguments.of(List.of("com.acme.Outer.Inner"), "com.acme", List.of("com.acme.Outer$Inner")),
                Arguments.of(List.of("com.acme.Outer$Inner"), "com.acme", List.of("com.acme.Outer$Inner")),
                Arguments.of(List.of("com.acme.*"), "com", List.of("com.acme.A", "com.acme$B")),
                Arguments.of(List.of("org.a.X", "org.b.Y*"), "org.", List.of("org.a.X", "org.b.Y1")),
                Arguments.of(List.of("org.a.X", "com.b.Y"), "", List.of("org.a.X", "com.b.Y")),
                Arguments.of(List.of("*"), "", List.of("a.B")),
                Arguments.of(List.of("*.Hot"), "", List.of("a.Hot")),
                Arguments.of(List.of("Main"), "", List.of("Main")),
                Arguments.of(List.of("org.Acme.util.X"), "org", List.of("org.Acme.util.X")));
    }

    @ParameterizedTest(name = "{0} -> ''{1}''")
    @MethodSource("cases")
    void thePrefixIsAsLongAsEveryClassTheyMaySelectAllows(List<String> patterns, String prefix, List<String> selected) {
        assertEquals(prefix, MonitorTargets.prefix(patterns));
        for (String binary : selected) {
            assertTrue(binary.startsWith(prefix), binary);
        }
    }
}
