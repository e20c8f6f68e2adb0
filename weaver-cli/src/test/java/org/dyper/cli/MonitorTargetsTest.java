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

    /**
     * A JVM whose class path is on another machine: its loaded classes the patterns select are fetched, and the
     * result says the class path is not here (ctl --nats ask warns so, FleetAsking.notHere).
     */
    @org.junit.jupiter.api.Test
    void aClassPathNotOnThisMachineIsSaidAndTheLoadedClassesAreFetched(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) throws Exception {
        byte[] bytes = {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE};
        MonitorTargets.Found found = MonitorTargets.fetch((command, data) -> {
            assertEquals("CLASSMODEL", command);
            String binary = data != null && data.contains("BINARY='true'") ? "<BINARY>"
                    + java.util.Base64.getEncoder().encodeToString(bytes) + "</BINARY>" : "";
            return "<DYPER_REPLY ID='1'><CLASSMODEL><CLASSPATH>/nowhere/on/this/machine/app.jar</CLASSPATH>"
                    + "<CLASS NAME='com.acme.Shop'>" + binary + "</CLASS><CLASS NAME='org.other.X'/></CLASSMODEL>"
                    + "</DYPER_REPLY>";
        }, List.of("com.acme*"), dir);
        assertEquals(List.of(false, 1, List.of(dir)), List.of(found.classPathHere(), found.fetched(),
                found.targets().roots()));
        org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, java.nio.file.Files.readAllBytes(
                dir.resolve("com/acme/Shop.class")), "the loaded class's bytes, as the JVM gave them");
        assertEquals("the class path of JVM h_1_2 is not on this machine: the questions were compiled against the 1 "
                + "class(es) it has loaded under 'com.acme' (fetched through its monitor); callers elsewhere, and "
                + "classes not loaded yet, are not seen", FleetAsking.notHere("JVM h_1_2", 1, "com.acme"));
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
