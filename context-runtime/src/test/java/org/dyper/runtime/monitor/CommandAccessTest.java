package org.dyper.runtime.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The list of commands answered only on the control subject: complete, and read as the NATS subjects need it. */
class CommandAccessTest {
    /** Every command the monitor's switch answers, read from its source, is in the list, and nothing else is. */
    @Test
    void everyCommandOfTheMonitorIsClassified() throws Exception {
        String source = Files.readString(Path.of("src/main/java/org/dyper/runtime/monitor/internal/commands/"
                + "Commands.java"));
        Set<String> answered = new TreeSet<>();
        Matcher m = Pattern.compile("case \"([A-Z]+)\" ->").matcher(source);
        while (m.find()) {
            answered.add(m.group(1));
        }
        // CLASSMODEL is answered before the switch (its reply is streamed)
        assertTrue(source.contains("equalsIgnoreCase(\"CLASSMODEL\")"));
        answered.add("CLASSMODEL");
        assertEquals(answered, new TreeSet<>(CommandAccess.COMMANDS.keySet()));
    }

    @ParameterizedTest(name = "{0} with data {1}: control only {2}")
    @CsvSource({
        "REPORT, false, false", "report, true, false", "SHOWSTACK, false, false", "GET, true, false",
        "WHORU, false, false", "INSTRUMENTED, false, false", "CLASSMODEL, true, true", "CLASSMODEL, false, true", "PING, false, false",
        "EVENTS, false, false", "EVENTS, true, true", "SET, true, true", "INSTRUMENT, true, true",
        "AGENT, true, true", "CLEAR, false, true", "SETDETAIL, true, true", "USETHREAD, true, true",
        "CLASSES, true, true", "JFR, true, true", "HEAPDUMP, false, true", "WHATIF, true, true", "NOSUCHCOMMAND, false, true"})
    void controlOnly(String command, boolean data, boolean controlOnly) {
        assertEquals(controlOnly, CommandAccess.controlOnly(command, data));
    }

    @Test
    void noCommandIsAChangeOfNothing() {
        assertTrue(CommandAccess.controlOnly(null, false));
        assertFalse(CommandAccess.controlOnly(" who ", false));
    }
}
