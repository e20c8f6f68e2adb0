package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code dyper events recover} after SIGKILL, on JDK 17 and 25: a planted program ({@link NumberedEvents}) records
 * numbered user events with {@code -Ddyper.jfr} into an owner-only chunk folder it names, is killed, and the recovered
 * file holds exactly the events 1..K in order (no gap), K up to the last flush before the kill; the JDK's {@code jfr}
 * tool reads it too. The lag between the kill and the last recovered event is printed (docs/events.md quotes it).
 */
class RecoverTest extends CliFixture {
    private static final Duration LIMIT = Duration.ofSeconds(120);
    /** About 3 s of events at 10 ms: two or three of JFR's once-a-second flushes. */
    private static final int KILL_AFTER = 300;

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void afterSigkillTheChunksGiveTheEventsUpToTheLastFlush(Jdk jdk) throws Exception {
        Path file = dir.resolve("killed-" + jdk + ".jfr");
        Path chunks = dir.resolve(file.getFileName() + ".chunks");
        List<String> cmd = List.of(jdk.java().toString(), "-Ddyper.report=none", "-Ddyper.jfr=" + file, "-cp",
                System.getProperty("java.class.path"), NumberedEvents.class.getName());
        List<String> printed;
        String err;
        try (Running r = Processes.start(cmd)) {
            r.line(KILL_AFTER, LIMIT);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(chunks)));
            Processes.signal(r.pid(), "KILL");
            assertEquals(137, r.awaitExit(LIMIT), r::stderr);
            printed = r.lines();
            err = r.stderr();
        }
        String said = "dyper: telemetry: recording to " + file + "; until it is written its chunks are in " + chunks
                + "/";
        assertTrue(err.lines().anyMatch(l -> l.startsWith(said) && l.endsWith(" -o " + file + ")")), err);
        assertEquals(0, Files.size(file), "SIGKILL leaves the recording empty (JFR creates it at the start)");

        Path out = dir.resolve("recovered-" + jdk + ".jfr");
        Result rec = dyper("events", "recover", chunks.toString(), "-o", out.toString());
        assertEquals(0, rec.code(), rec.err());
        assertTrue(rec.out().contains("(was being written: cut at its last flush)"), rec.out());

        List<RecordedEvent> user = new ArrayList<>(RecordingFile.readAllEvents(out).stream()
                .filter(e -> e.getEventType().getName().equals("dyper.UserEvent")).toList());
        user.sort(Comparator.comparingLong(e -> e.getLong("sequence")));
        int k = user.size();
        assertTrue(k >= 1 && k <= printed.size(), k + " recovered of " + printed.size() + " printed");
        for (int i = 0; i < k; i++) {
            assertEquals("n " + (i + 1), user.get(i).getString("message"));
            assertEquals(i + 1, user.get(i).getLong("sequence"));
        }
        long lastPrinted = Long.parseLong(printed.get(printed.size() - 1).split(" ")[1]);
        long lastRecovered = Long.parseLong(printed.get(k - 1).split(" ")[1]);
        System.out.println("RecoverTest " + jdk + ": recovered " + k + " of " + printed.size() + " events; the last "
                + "recovered was made " + (lastPrinted - lastRecovered) + " ms before the last one before the kill");
        java.util.regex.Matcher summaryLine = java.util.regex.Pattern.compile("(?m)^(\\d+) events \\((\\d+) of Dyper's\\), the "
                + "last ending at 20\\S+Z$").matcher(rec.out());
        assertTrue(summaryLine.find(), rec.out());
        assertTrue(Long.parseLong(summaryLine.group(2)) >= k + 1, "the user events and the version: " + rec.out());

        Processes.Result summary = Processes.run(List.of(jdk.home().resolve("bin/jfr").toString(), "summary",
                out.toString()), LIMIT);
        assertEquals(0, summary.exit(), summary::describe);
        assertTrue(summary.out().lines().anyMatch(l -> l.trim().matches("dyper\\.UserEvent\\s+" + k + "\\s+\\d+")),
                summary.out());
    }
}
