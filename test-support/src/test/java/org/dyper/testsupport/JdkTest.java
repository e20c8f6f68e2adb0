package org.dyper.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class JdkTest {
    @Test
    void thePropertyWinsThenTheEnvironmentThenTheDefault() {
        assertEquals("/p", Jdk.jdk25Home("/p", "/e"));
        assertEquals("/e", Jdk.jdk25Home(null, "/e"));
        assertEquals("/e", Jdk.jdk25Home("  ", "/e"), "a blank property is not set");
        assertEquals(Jdk.DEFAULT_JDK25, Jdk.jdk25Home(null, ""));
        assertEquals(Jdk.DEFAULT_JDK25, Jdk.jdk25Home(null, null));
    }

    @Test
    void theRunningJdkIsJdk17AndFeaturesNameJdks() throws Exception {
        assertEquals(Runtime.version().feature(), Jdk.JDK17.feature());
        assertEquals(Jdk.JDK25, Jdk.of("25"));
        assertEquals(Jdk.JDK17, Jdk.of("17"));
        assertThrows(IllegalArgumentException.class, () -> Jdk.of("21"));
    }
}
