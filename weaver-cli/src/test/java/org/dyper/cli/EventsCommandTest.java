package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.jfr.Telemetry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code dyper events}: lines and JSON of a recording made here, kinds, a version it cannot read, bad input. */
class EventsCommandTest extends CliFixture {
    static Path recording;

    @BeforeAll
    static void record() throws Exception {
        Telemetry.start();
        recording = dir.resolve("user.jfr");
        Telemetry.startRecording(recording.toString(), null);
        Dyper.userEvent("first");
        Dyper.userEvent("a \"quoted\"\nline");
        Telemetry.stopRecording();
        Files.createDirectories(dir.resolve("empty"));
        for (String jvm : List.of("a_1", "b_2")) {
            Files.createDirectories(dir.resolve("two").resolve(jvm));
            Files.copy(recording, dir.resolve("two").resolve(jvm).resolve("c.jfr"));
        }
    }

    @Test
    void printsTheUserEventsInOrderAsLinesAndJson() {
        Result lines = dyper("events", recording.toString(), "--kind", "user");
        assertEquals(0, lines.code(), lines.err());
        List<String> out = lines.out().lines().map(l -> l.substring(l.indexOf("  "))).toList();
        assertEquals(List.of("  dyper.UserEvent  thread=main  message=first  siteId=0  sequence=1",
                "  dyper.UserEvent  thread=main  message=a \"quoted\"\\nline  siteId=0  sequence=2"), out);

        Result json = dyper("events", recording.toString(), "--kind", "user", "--json");
        assertEquals(0, json.code(), json.err());
        List<String> rows = json.out().lines().toList();
        assertEquals("[", rows.get(0));
        assertEquals("]", rows.get(3));
        assertEquals("\"durationNs\": 0, \"thread\": \"main\", \"message\": \"first\", \"siteId\": 0, \"sequence\": 1},",
                rows.get(1).substring(rows.get(1).indexOf("\"durationNs\"")));
        assertEquals("\"message\": \"a \\\"quoted\\\"\\nline\", \"siteId\": 0, \"sequence\": 2}",
                rows.get(2).substring(rows.get(2).indexOf("\"message\"")));
        assertTrue(rows.get(1).startsWith("  {\"type\": \"dyper.UserEvent\", \"startTime\": \"20"), rows.get(1));
    }

    @Test
    void everyDyperTypeWithoutAKindTheVersionFirst() {
        Result all = dyper("events", recording.toString());
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().lines().findFirst().orElseThrow().contains("  dyper.Version  thread=main  version=1.0.2  "
                + "major=1  median=0  minor=2"), all.out());
    }

    /** A dyper.Version of a major this Dyper does not know, as a newer Dyper would write it. */
    @Name("dyper.Version")
    static final class FutureVersion extends jdk.jfr.Event {
        String version = "2.0.0";
        int major = 2;
        int median;
        int minor;
    }

    @Test
    void refusesAVersionItCannotRead() throws Exception {
        Path future = dir.resolve("future.jfr");
        try (Recording r = new Recording()) {
            r.enable(FutureVersion.class);
            r.start();
            new FutureVersion().commit();
            r.stop();
            r.dump(future);
        }
        assertEquals(new Result(ExitCode.INVALID_INPUT, "", "dyper: error: " + future + ": Dyper events of version "
                + "2.0.0, which this Dyper (1.0.2) cannot read\n"), dyper("events", future.toString()));
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new String[] {"events"}, 2, "dyper: error: events: give one recording: dyper events FILE.jfr"),
                Arguments.of(new String[] {"events", "{dir}/x.jfr", "--kind", "heap"}, 2,
                        "dyper: error: events: --kind heap: kinds are method, call, allocation, field, user, figures"),
                Arguments.of(new String[] {"events", "{dir}/missing.jfr"}, 5,
                        "dyper: error: {dir}/missing.jfr: no such file"),
                Arguments.of(new String[] {"events", "{model}"}, 3, "dyper: error: {model}: not a readable JFR recording"),
                Arguments.of(new String[] {"events", "recover", "{dir}/empty"}, 2, "dyper: error: events: recover: give "
                        + "the chunk folder and the file to write: dyper events recover DIR -o FILE.jfr"),
                Arguments.of(new String[] {"events", "{dir}/x.jfr", "-o", "{dir}/y.jfr"}, 2,
                        "dyper: error: events: -o is for dyper events recover DIR -o FILE.jfr"),
                Arguments.of(new String[] {"events", "recover", "{dir}/nowhere", "-o", "{dir}/r.jfr"}, 5,
                        "dyper: error: {dir}/nowhere: no such folder (give the JFR repository folder, e.g. FILE.chunks "
                                + "of dyper run --jfr FILE)"),
                Arguments.of(new String[] {"events", "recover", "{dir}/empty", "-o", "{dir}/r.jfr"}, 3,
                        "dyper: error: {dir}/empty: no JFR chunks (*.jfr) in it or in its subfolders; a JVM that "
                                + "ended normally removes its chunks"),
                Arguments.of(new String[] {"events", "recover", "{dir}/two", "-o", "{dir}/r.jfr"}, 3,
                        "dyper: error: {dir}/two: chunks of 2 JVMs; name one folder: {dir}/two/a_1, {dir}/two/b_2"));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("failures")
    void badInputIsOneLineAndAnExitCode(String[] args, int code, String message) {
        Result r = dyper(args);
        assertEquals(code, r.code(), r.err());
        String expected = message.replace("{dir}", dir.toString()).replace("{model}", model.toString());
        assertTrue(r.err().startsWith(expected), r.err());
        assertEquals(1, r.errLines().size(), r.err());
        assertEquals("", r.out());
        assertTrue(Files.exists(recording));
        assertTrue(!Files.exists(dir.resolve("r.jfr")), "nothing written");
    }
}
