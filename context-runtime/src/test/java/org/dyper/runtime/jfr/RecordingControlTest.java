package org.dyper.runtime.jfr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Sites;
import org.dyper.runtime.Timing;
import org.dyper.runtime.Tracing;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/** Dyper's recording in this JVM: kinds switched while it runs, the figures against the XML report, bad settings. */
class RecordingControlTest {
    @TempDir
    Path dir;

    @BeforeAll
    static void telemetry() {
        Telemetry.start();
        assertTrue(Telemetry.available(), Telemetry::firstFailure);
    }

    @AfterEach
    void stop() {
        if (Telemetry.recordingFile() != null) {
            Telemetry.stopRecording();
        }
        Telemetry.set("method=on");
        Telemetry.set("method.threshold=0ns");
        Telemetry.set("user=on");
    }

    private static void calls(int id, int n) {
        for (int i = 0; i < n; i++) {
            Tracing.exit(id, Tracing.enter(id));
        }
    }

    @Test
    void aKindSwitchedOffRecordsNothingAfterTheSwitch() throws Exception {
        int id = Sites.register("METHOD", "planted.Switch", "work", "");
        Path file = dir.resolve("switch.jfr");
        Telemetry.startRecording(file.toString(), null);
        calls(id, 25);
        Dyper.userEvent("before");
        Telemetry.set("method=off");
        calls(id, 40);
        Dyper.userEvent("after");
        Telemetry.set("user=off");
        Dyper.userEvent("not recorded");
        Telemetry.set("method=on");
        calls(id, 7);
        Telemetry.stopRecording();

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        assertEquals(25 + 7, PostMortemTest.named(events, "dyper.MethodTrace").stream()
                .filter(e -> e.getInt("siteId") == id).count());
        assertEquals(List.of("before", "after"), PostMortemTest.sorted(PostMortemTest.named(events,
                "dyper.UserEvent")).stream().map(e -> e.getString("message")).toList());
    }

    @Test
    void theThresholdKeepsOnlySlowerCalls() throws Exception {
        int id = Sites.register("METHOD", "planted.Threshold", "work", "");
        Path file = dir.resolve("threshold.jfr");
        Telemetry.set("method.threshold=30ms");
        Telemetry.startRecording(file.toString(), null);
        calls(id, 100);
        for (int i = 0; i < 2; i++) {
            Object c = Tracing.enter(id);
            Thread.sleep(60); // planted: slower than the threshold
            Tracing.exit(id, c);
        }
        Telemetry.stopRecording();
        assertEquals(2, PostMortemTest.named(RecordingFile.readAllEvents(file), "dyper.MethodTrace").stream()
                .filter(e -> e.getInt("siteId") == id).count());
    }

    @Test
    void theFiguresEqualTheXmlReport() throws Exception {
        int timed = Sites.register("METHOD", "planted.Figures", "timed", "");
        int counted = Sites.register("METHOD", "planted.Figures", "counted", "");
        int locking = Sites.register("METHOD", "planted.Figures", "locking", "");
        int allocating = Sites.register("METHOD", "planted.Figures", "allocating", "");
        int type = Sites.register("TYPE", "planted.Figures$Item[]", "", "");
        for (int i = 0; i < 1000; i++) {
            Timing.exit(timed, Timing.enter(timed) - (i % 7) * 1000);
            Counting.count(counted);
        }
        Object lock = new Object();
        for (int i = 0; i < 3; i++) {
            long requested = org.dyper.runtime.Locks.request(locking, lock);
            synchronized (lock) {
                org.dyper.runtime.Locks.acquired(locking, lock, requested);
                org.dyper.runtime.Locks.released(locking, lock);
            }
        }
        for (int length : new int[] {4, 9, 2}) {
            org.dyper.runtime.Allocations.array(allocating, type, length);
        }
        Path file = dir.resolve("figures.jfr");
        Telemetry.startRecording(file.toString(), null);
        Element report = XmlReports.parse(Dyper.xmlReport());
        Telemetry.stopRecording();

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        RecordedEvent timing = last(events, "dyper.Timing", timed);
        Element row = site(report, "TIMING", timed);
        assertEquals(Long.parseLong(row.getAttribute("COUNT")), timing.getLong("invocations"));
        assertEquals(1000, timing.getLong("invocations"));
        assertEquals(Long.parseLong(row.getAttribute("TOTAL_NS")), timing.getLong("total"));
        assertEquals(Long.parseLong(row.getAttribute("MIN_NS")), timing.getLong("minimum"));
        assertEquals(Long.parseLong(row.getAttribute("MAX_NS")), timing.getLong("maximum"));
        assertEquals(Long.parseLong(row.getAttribute("MEAN_NS")), timing.getLong("average"));
        StringBuilder buckets = new StringBuilder();
        List<Element> bs = XmlReports.children(row, "BUCKET");
        for (Element b : bs) {
            buckets.append(buckets.length() == 0 ? "" : " ").append(b.getAttribute("UPPER_NS")).append(':')
                    .append(b.getAttribute("COUNT"));
        }
        assertEquals(buckets.toString(), timing.getString("histogram"));
        assertEquals("planted.Figures.timed()", timing.getString("method"));
        RecordedEvent count = last(events, "dyper.Count", counted);
        assertEquals(1000, count.getLong("count"));
        assertEquals(Long.parseLong(site(report, "COUNTS", counted).getAttribute("COUNT")), count.getLong("count"));
        assertEquals("COUNTS", count.getString("section"));

        RecordedEvent lockSite = last(events, "dyper.Lock", locking);
        Element lockRow = site(report, "LOCKS", locking);
        assertEquals(3, lockSite.getLong("acquisitions"));
        assertEquals("SITE", lockSite.getString("section"));
        assertEquals("planted.Figures.locking()", lockSite.getString("name"));
        for (String[] f : new String[][] {{"ACQUISITIONS", "acquisitions"}, {"CONTENDED", "contended"},
                {"WAIT_NS", "waitTotal"}, {"MAX_WAIT_NS", "maximumWait"}, {"HOLD_NS", "holdTotal"},
                {"MAX_HOLD_NS", "maximumHold"}}) {
            assertEquals(Long.parseLong(lockRow.getAttribute(f[0])), lockSite.getLong(f[1]), f[1]);
        }
        RecordedEvent lockClass = PostMortemTest.named(events, "dyper.Lock").stream()
                .filter(e -> e.getString("section").equals("LOCK_CLASS") && e.getString("name")
                        .equals("java.lang.Object")).reduce((a, b) -> b).orElseThrow();
        assertEquals(0, lockClass.getInt("siteId"));
        assertTrue(lockClass.getLong("acquisitions") >= 3, lockClass::toString);

        RecordedEvent allocSite = last(events, "dyper.Allocation", allocating);
        Element allocRow = site(report, "ALLOCATIONS", allocating);
        assertEquals(List.of(3L, 3L, 15L, 9L), List.of(allocSite.getLong("count"), allocSite.getLong("arrays"),
                allocSite.getLong("totalLength"), allocSite.getLong("maximumLength")));
        assertEquals(List.of(Long.parseLong(allocRow.getAttribute("COUNT")), Long.parseLong(allocRow
                .getAttribute("ARRAYS")), Long.parseLong(allocRow.getAttribute("TOTAL_LENGTH")), Long.parseLong(allocRow
                .getAttribute("MAX_LENGTH"))), List.of(allocSite.getLong("count"), allocSite.getLong("arrays"),
                allocSite.getLong("totalLength"), allocSite.getLong("maximumLength")));
        RecordedEvent allocType = last(events, "dyper.Allocation", type);
        assertEquals(List.of("TYPE", "planted.Figures$Item[]", "3", "15"), List.of(allocType.getString("section"),
                allocType.getString("name"), Long.toString(allocType.getLong("count")),
                Long.toString(allocType.getLong("totalLength"))));
    }

    @Test
    void theFiguresComeEveryPeriodWhileTheProgramRuns() throws Exception {
        int counted = Sites.register("METHOD", "planted.Periodic", "counted", "");
        Telemetry.set("figures.period=200ms");
        Path file = dir.resolve("periodic.jfr");
        Telemetry.startRecording(file.toString(), null);
        // a stream sees the events as they are flushed, without the chunk rotation a dump would cause (each chunk's
        // end emits the figures too); its own 1 h period leaves the recording's 200 ms in force
        java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (jdk.jfr.consumer.RecordingStream stream = new jdk.jfr.consumer.RecordingStream()) {
            stream.enable("dyper.Count").withPeriod(java.time.Duration.ofHours(1));
            stream.onEvent("dyper.Count", e -> {
                if (e.getInt("siteId") == counted) {
                    seen.add(e.getLong("count"));
                }
            });
            stream.startAsync();
            for (long round = 1; round <= 3; round++) {
                Counting.count(counted);
                long want = round;
                org.dyper.testsupport.Await.until("a dyper.Count of " + want + " for the site",
                        () -> seen.contains(want), org.dyper.testsupport.Await.MINUTE);
            }
        } finally {
            Telemetry.stopRecording();
            Telemetry.set("figures.period=10s");
        }
        List<Long> counts = PostMortemTest.named(RecordingFile.readAllEvents(file), "dyper.Count").stream()
                .filter(e -> e.getInt("siteId") == counted).map(e -> e.getLong("count")).distinct().toList();
        assertEquals(List.of(1L, 2L, 3L), counts, "the figures as they grew, each period");
    }

    private static RecordedEvent last(List<RecordedEvent> events, String name, int id) {
        List<RecordedEvent> of = PostMortemTest.named(events, name).stream().filter(e -> e.getInt("siteId") == id)
                .toList();
        assertTrue(!of.isEmpty(), "no " + name + " for site " + id);
        return of.get(of.size() - 1);
    }

    private static Element site(Element report, String section, int id) {
        for (Element s : XmlReports.children(XmlReports.children(report, section).get(0), "SITE")) {
            if (s.getAttribute("ID").equals(Integer.toString(id))) {
                return s;
            }
        }
        throw new AssertionError("no " + section + " row for " + id);
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("method", "'method': expected KIND=on|off, KIND.threshold=DURATION or KIND.period=DURATION"),
                Arguments.of("heap=on", "'heap=on': unknown kind 'heap'; kinds: method, call, allocation, field, user, figures"),
                Arguments.of("method=maybe", "'method=maybe': method is on or off, not 'maybe'"),
                Arguments.of("method.threshold=10 parsecs", "'method.threshold=10 parsecs': '10 parsecs' is not a "
                        + "duration (e.g. 10ms, 5s, 0)"),
                Arguments.of("user.colour=red", "'user.colour=red': unknown setting 'colour'; settings: threshold, "
                        + "period"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badSettingsAreRefusedNamingThePart(String part, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> Telemetry.set(part)).getMessage());
    }

    @Test
    void oneDyperRecordingAtATime() throws Exception {
        Telemetry.startRecording(dir.resolve("a.jfr").toString(), null);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Telemetry.startRecording(dir.resolve("b.jfr").toString(), null));
        assertTrue(e.getMessage().startsWith("a Dyper recording is already running (to "), e.getMessage());
        Telemetry.stopRecording();
        assertEquals("no Dyper recording is running (start one with jfr start FILE, or -Ddyper.jfr=FILE)",
                assertThrows(IllegalStateException.class, Telemetry::stopRecording).getMessage());
    }
}
