package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.cli.Main;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.trace.TraceFacts;
import org.dyper.samples.trace.TraceRounds;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kinds switched while the program runs, through {@code dyper ctl PID events} and {@code jfr dump}: a kind switched
 * off records nothing after the switch, and on again records again, exactly.
 */
class TraceControlEndToEndTest {
    private static final Duration LINE = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    private Run ctl(String... args) {
        List<String> all = new ArrayList<>(List.of("ctl", "--dir", dir.toString()));
        all.addAll(List.of(args));
        return E2e.dyper(all.toArray(String[]::new));
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void aKindSwitchedOffThroughCtlRecordsNothingUntilSwitchedOn(Jdk jdk) throws Exception {
        Path jfr = dir.resolve("rounds.jfr");
        Path early = dir.resolve("early.jfr");
        List<String> cmd = List.of(Processes.currentJava().toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--model", E2e.MODELS.resolve("trace.xml").toString(), "--report", "none",
                "--cache", dir.resolve("cache").toString(), "--jfr", jfr.toString(), "--monitor", "dir=" + dir, "--",
                "-cp", E2e.appClasses().toString(), TraceRounds.class.getName());
        try (Running t = MonitorEndToEndTest.start(cmd, jdk.home().toString())) {
            assertEquals("ready", t.line(0, LINE), t::stderr);
            Run who = ctl("who");
            assertEquals(0, who.exit(), who.err());
            String pid = who.out().trim().split("\\s+")[0];
            long sum = (long) TraceFacts.ROUND_CALLS * (TraceFacts.ROUND_CALLS - 1);

            t.send("round");
            assertEquals("round 1 done " + sum, t.line(1, LINE));
            Run dump = ctl(pid, "jfr", "dump", early.toString());
            assertEquals(0, dump.exit(), dump.err());
            String said = "<JFR ACTION=\"DUMP\" FILE=\"" + early + "\" REPOSITORY=\"" + dir.resolve("rounds.jfr.chunks")
                    + "/";
            assertTrue(dump.out().startsWith(said) && dump.out().endsWith("\"/>\n"), "the chunks' owner-only folder: "
                    + dump.out());

            Run off = ctl(pid, "events", "method=off");
            assertEquals(0, off.exit(), off.err());
            assertEquals("false", enabled(off, "method"), off.out());
            t.send("round");
            assertEquals("round 2 done " + sum, t.line(2, LINE));

            Run on = ctl(pid, "events", "method=on", "user=off");
            assertEquals(0, on.exit(), on.err());
            assertEquals("true", enabled(on, "method"), on.out());
            assertEquals("false", enabled(on, "user"), on.out());
            assertEquals("true", enabled(on, "figures"), on.out());
            t.send("round");
            assertEquals("round 3 done " + sum, t.line(3, LINE));

            Run bad = ctl(pid, "events", "heap=on");
            assertEquals(new Run(2, "", "dyper: error: ctl: events 'heap=on': unknown kind 'heap'; kinds: method, "
                    + "call, allocation, field, user, figures\n"), bad);
            assertEquals(0, t.stop(LINE), t::stderr);
        }
        assertEquals(TraceFacts.ROUND_CALLS, fast(early), "round 1 in the dump made after it");
        assertEquals(2 * TraceFacts.ROUND_CALLS, fast(jfr), "rounds 1 and 3; none while method was off");
        List<RecordedEvent> user = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("dyper.UserEvent")).toList();
        assertEquals(2, user.size(), "the phases of rounds 1 and 2; user was off in round 3");
    }

    /** ENABLED of kind {@code name} in the EVENTS reply ctl printed. */
    private static String enabled(Run reply, String name) throws Exception {
        return XmlReports.children(XmlReports.parse(reply.out()), "KIND").stream()
                .filter(k -> k.getAttribute("NAME").equals(name)).findFirst().orElseThrow().getAttribute("ENABLED");
    }

    private static long fast(Path file) throws Exception {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dyper.MethodTrace"))
                .filter(e -> e.getString("method").equals(TraceFacts.FAST)).count();
    }
}
