package org.dyper.runtime.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code -Ddyper.jfr=FILE} in a planted program ({@link TracedMain}) on JDK 17 and 25: however it ends (a return,
 * System.exit, an uncaught exception, OutOfMemoryError, SIGTERM), the file is complete and readable, with exactly the
 * traced calls above the threshold, the user events in order, the version, and the JDK's own thread events; and where
 * JFR cannot be used the program runs on, saying why once.
 */
class PostMortemTest {
    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    enum Ending { RETURN, EXIT, THROW, OOM, SIGTERM }

    static List<Arguments> endings() {
        List<Arguments> all = new ArrayList<>();
        for (Jdk jdk : Jdk.values()) {
            for (Ending e : Ending.values()) {
                all.add(Arguments.of(jdk, e));
            }
        }
        return all;
    }

    static List<String> java(Jdk jdk, String... options) {
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString(), "-Xmx64m", "-Ddyper.report=none"));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), TracedMain.class.getName()));
        return cmd;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("endings")
    void everyEndingLeavesACompleteRecording(Jdk jdk, Ending ending) throws Exception {
        Path file = dir.resolve("run.jfr");
        List<String> cmd = java(jdk, "-Ddyper.jfr=" + file, "-Ddyper.events=method.threshold=20ms");
        int exit;
        String out;
        if (ending == Ending.SIGTERM) {
            cmd.add("wait");
            try (Running r = Processes.start(cmd)) {
                assertEquals("traced", r.line(0, LIMIT), r::stderr);
                Processes.signal(r.pid(), "TERM");
                exit = r.awaitExit(LIMIT);
                out = r.stdout();
            }
        } else {
            if (ending != Ending.RETURN) {
                cmd.add(ending.name().toLowerCase());
            }
            Processes.Result r = Processes.run(cmd, LIMIT);
            exit = r.exit();
            out = r.out();
        }
        assertEquals(switch (ending) {
            case RETURN -> 0;
            case EXIT -> 3;
            case THROW, OOM -> 1;
            case SIGTERM -> 143;
        }, exit, out);
        assertTrue(out.startsWith("traced\nresult 42\n"), out);
        assertTrue(!dir.resolve("run.jfr.chunks").toFile().exists(), "the chunk folder is removed at the end");

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> traces = named(events, "dyper.MethodTrace");
        assertEquals(TracedMain.SLOW, traces.size(), "calls slower than the 20 ms threshold");
        for (RecordedEvent t : traces) {
            assertEquals("planted.Work.slow()", t.getString("method"));
            assertEquals(1, t.getInt("depth"));
            assertTrue(t.getDuration().toMillis() >= 20, t::toString);
            assertEquals("main", t.getThread().getJavaName());
        }
        List<String> messages = new ArrayList<>();
        List<Long> sequence = new ArrayList<>();
        for (RecordedEvent u : sorted(named(events, "dyper.UserEvent"))) {
            messages.add(u.getString("message"));
            sequence.add(u.getLong("sequence"));
        }
        assertEquals(List.of("first", "second", "third"), messages);
        assertEquals(List.of(1L, 2L, 3L), sequence);
        List<RecordedEvent> versions = named(events, "dyper.Version");
        assertTrue(!versions.isEmpty(), "a dyper.Version event");
        assertEquals(DyperEvents.VERSION, versions.get(0).getString("version"));
        assertTrue(!named(events, "jdk.ThreadStart").isEmpty(), "the JDK's own events (default settings)");
        if (ending == Ending.OOM) {
            assertTrue(!named(events, "jdk.GarbageCollection").isEmpty(), "the GCs before the OutOfMemoryError");
        }
    }

    static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    static List<RecordedEvent> sorted(List<RecordedEvent> events) {
        return events.stream().sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime)
                .thenComparingLong(e -> e.getLong("sequence"))).toList();
    }

    static List<Arguments> withoutJfr() {
        List<Arguments> all = new ArrayList<>();
        for (Jdk jdk : Jdk.values()) {
            all.add(Arguments.of(jdk, "--limit-modules=java.base", "java.lang.ClassNotFoundException: "
                    + "jdk.jfr.FlightRecorder"));
            all.add(Arguments.of(jdk, "-XX:-FlightRecorder", "java.lang.IllegalStateException: the flight recorder is "
                    + "not available in this JVM (-XX:-FlightRecorder?)"));
        }
        return all;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("withoutJfr")
    void withoutJfrTheProgramRunsOnAndSaysWhyOnce(Jdk jdk, String option, String reason) throws Exception {
        Path file = dir.resolve("none.jfr");
        Processes.Result r = Processes.run(java(jdk, option, "-Ddyper.jfr=" + file), LIMIT);
        assertEquals(0, r.exit(), r::describe);
        assertEquals(List.of("traced", "result 42"), r.outLines());
        List<String> said = r.err().lines().filter(l -> l.startsWith("dyper:")).toList();
        assertEquals(List.of("dyper: telemetry: JFR is not usable here: " + reason), said);
        assertTrue(!file.toFile().exists());
    }

}
