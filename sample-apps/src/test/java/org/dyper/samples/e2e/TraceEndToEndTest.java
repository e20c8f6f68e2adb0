package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.e2e.E2e.Way;
import org.dyper.samples.trace.TraceApp;
import org.dyper.samples.trace.TraceFacts;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/**
 * The trace modes woven every way on JDK 17 and 25, recorded with {@code --jfr} / {@code -Ddyper.jfr}: exactly the
 * calls slower than the threshold, with their argument and return value, the EVENT patches' user events in order, and
 * the timing figures equal to the XML report's; {@code dyper events} prints them.
 */
class TraceEndToEndTest {
    @TempDir
    static Path shared;
    @TempDir
    Path dir;

    private static final String THRESHOLD = "-Ddyper.events=method.threshold=" + TraceFacts.THRESHOLD_MS
            + "ms,call.threshold=" + TraceFacts.THRESHOLD_MS + "ms";

    static Run run(Way way, Jdk jdk, Path jfr, Path xml) throws Exception {
        Path model = E2e.MODELS.resolve("trace.xml");
        if (way != Way.BINARY) {
            List<String> args = new ArrayList<>(List.of("run", "--model", model.toString()));
            if (way == Way.WEAVER_AGENT) {
                args.add("--weaver-agent");
            }
            args.addAll(List.of("--report", "none", "--xml", xml.toString(), "--jfr", jfr.toString(), "--cache",
                    shared.resolve("cache").toString(), "--", THRESHOLD, "-cp", E2e.appClasses().toString(),
                    TraceApp.class.getName()));
            return E2e.dyperProcess(jdk.home(), args);
        }
        Path jar = shared.resolve("trace-woven.jar");
        synchronized (TraceEndToEndTest.class) {
            if (!Files.exists(jar)) {
                Run weave = E2e.dyper("weave", "--model", model.toString(), "--in", E2e.appClasses().toString(),
                        "--out", jar.toString());
                assertEquals(0, weave.exit(), weave.err());
            }
        }
        String runtime = E2e.dyper("classpath").out().trim();
        return E2e.exec(List.of(jdk.java().toString(), "-Ddyper.report=none", "-Ddyper.report.xml=" + xml,
                "-Ddyper.jfr=" + jfr, THRESHOLD, "-cp", jar + File.pathSeparator + runtime,
                TraceApp.class.getName()), Map.of());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource(E2e.WAYS_AND_JDKS)
    void tracesExactlyTheSlowCallsAndThePhasesInOrder(Way way, Jdk jdk) throws Exception {
        Path jfr = dir.resolve("trace.jfr");
        Path xml = dir.resolve("report.xml");
        Run r = run(way, jdk, jfr, xml);
        assertEquals(0, r.exit(), r.err());
        assertEquals(TraceFacts.OUTPUT, r.outLines());

        List<RecordedEvent> events = new ArrayList<>(RecordingFile.readAllEvents(jfr));
        events.sort(Comparator.comparing(RecordedEvent::getStartTime));
        List<RecordedEvent> traces = named(events, "dyper.MethodTrace");
        assertEquals(TraceFacts.SLOW_CALLS, traces.size(), "calls slower than the threshold");
        List<Long> arguments = new ArrayList<>();
        List<Long> returned = new ArrayList<>();
        for (RecordedEvent t : traces) {
            assertEquals(TraceFacts.SLOW, t.getString("method"));
            assertEquals(1, t.getInt("depth"));
            arguments.add(t.getLong("argument"));
            returned.add(t.getLong("returnValue"));
        }
        assertEquals(List.of(1L, 2L, 3L, 4L), arguments);
        assertEquals(List.of(3L, 6L, 9L, 12L), returned);
        List<RecordedEvent> calls = named(events, "dyper.CallTrace");
        assertEquals(TraceFacts.SLOW_CALLS, calls.size(), "calls of slow from main; the fast ones under the threshold");
        for (RecordedEvent c : calls) {
            assertEquals(TraceFacts.MAIN, c.getString("caller"));
            assertEquals(TraceFacts.SLOW, c.getString("callee"));
            assertTrue(c.getDuration().toMillis() >= TraceFacts.THRESHOLD_MS, c::toString);
        }
        List<String> allocations = named(events, "dyper.AllocationTrace").stream().map(e -> e.getString("site") + " "
                + e.getString("objectClass") + " " + e.getInt("arrayLength")).toList();
        List<String> expected = new ArrayList<>(List.of(TraceFacts.ITEMS_METHOD + " long[] " + TraceFacts.ITEMS));
        for (int i = 0; i < TraceFacts.ITEMS; i++) {
            expected.add(TraceFacts.ITEMS_METHOD + " org.dyper.samples.trace.Work$Item -1");
        }
        assertEquals(expected, allocations);
        List<String> writes = named(events, "dyper.FieldWriteTrace").stream().map(e -> e.getString("site") + " "
                + e.getString("field") + " " + e.getLong("oldValue") + "->" + e.getLong("newValue") + " "
                + e.getBoolean("locked")).toList();
        List<String> expectedWrites = new ArrayList<>();
        for (int i = 0; i < TraceFacts.ITEMS; i++) {
            expectedWrites.add("org.dyper.samples.trace.Work$Item.set(long) org.dyper.samples.trace.Work$Item.value 0->"
                    + 10 * i + " false");
        }
        assertEquals(expectedWrites, writes);
        assertReferenceWrites(events);
        assertEquals("0", XmlReports.section(XmlReports.parse(xml), "FAILURES").getAttribute("TOTAL"),
                "no hook failed: Work.Item's planted hashCode and toString were never called");
        assertEquals(TraceFacts.PHASES, named(events, "dyper.UserEvent").stream().map(e -> e.getString("message"))
                .toList());

        List<RecordedEvent> timing = named(events, "dyper.Timing").stream()
                .filter(e -> e.getString("method").equals(TraceFacts.TIMED)).toList();
        assertTrue(!timing.isEmpty(), "dyper.Timing of " + TraceFacts.TIMED);
        RecordedEvent last = timing.get(timing.size() - 1);
        Element row = XmlReports.section(XmlReports.parse(xml), "TIMING");
        Element site = XmlReports.children(row, "SITE").stream()
                .filter(s -> s.getAttribute("NAME").equals(TraceFacts.TIMED)).findFirst().orElseThrow();
        assertEquals(TraceFacts.TIMED_CALLS, last.getLong("invocations"));
        assertEquals(Long.parseLong(site.getAttribute("COUNT")), last.getLong("invocations"));
        assertEquals(Long.parseLong(site.getAttribute("TOTAL_NS")), last.getLong("total"));
        assertEquals(Long.parseLong(site.getAttribute("MIN_NS")), last.getLong("minimum"));
        assertEquals(Long.parseLong(site.getAttribute("MAX_NS")), last.getLong("maximum"));

        Run user = E2e.dyper("events", jfr.toString(), "--kind", "user");
        assertEquals(0, user.exit(), user.err());
        List<String> lines = user.outLines();
        assertEquals(3, lines.size(), user.out());
        for (int i = 0; i < 3; i++) {
            assertTrue(lines.get(i).contains("  dyper.UserEvent  thread=main  message=" + TraceFacts.PHASES.get(i)
                    + "  siteId="), lines.get(i));
        }
    }

    /**
     * TRACE_FIELD_WRITE_REF: item i's {@code next = item i-1} (null for the first) and {@code Work.last = item i}, each
     * object named by class and identity hash, so the writes chain: the owner of link write i is the new value of
     * static write i and of link write i+1, and the old value of static write i+1.
     */
    private static void assertReferenceWrites(List<RecordedEvent> events) {
        String item = "org.dyper.samples.trace.Work$Item";
        List<RecordedEvent> refs = named(events, "dyper.ReferenceWriteTrace");
        List<RecordedEvent> links = refs.stream().filter(e -> e.getString("field").equals(item + ".next")).toList();
        List<RecordedEvent> lasts = refs.stream().filter(e -> e.getString("field").equals(
                "org.dyper.samples.trace.Work.last")).toList();
        assertEquals(2 * TraceFacts.ITEMS, refs.size(), "one write of next and one of last per item: " + refs);
        assertEquals(TraceFacts.ITEMS, links.size());
        assertEquals(TraceFacts.ITEMS, lasts.size());
        for (int i = 0; i < TraceFacts.ITEMS; i++) {
            RecordedEvent link = links.get(i);
            RecordedEvent last = lasts.get(i);
            assertEquals(item + ".link(" + item + ")", link.getString("site"));
            assertEquals(TraceFacts.ITEMS_METHOD, last.getString("site"));
            assertEquals(item, link.getString("ownerClass"));
            assertTrue(link.getInt("ownerIdentity") != 0);
            assertEquals(null, last.getString("ownerClass"), "a static field has no owner");
            assertEquals(0, last.getInt("ownerIdentity"));
            assertEquals(null, link.getString("oldClass"), "a new item's next");
            assertEquals(0, link.getInt("oldIdentity"));
            assertEquals(item, last.getString("newClass"));
            assertEquals(link.getInt("ownerIdentity"), last.getInt("newIdentity"), "Work.last = this item");
            int previous = i == 0 ? 0 : links.get(i - 1).getInt("ownerIdentity");
            assertEquals(i == 0 ? null : item, link.getString("newClass"));
            assertEquals(previous, link.getInt("newIdentity"), "next = the item before");
            assertEquals(i == 0 ? null : item, last.getString("oldClass"));
            assertEquals(previous, last.getInt("oldIdentity"), "Work.last replaced the item before");
            assertEquals(false, link.getBoolean("locked"));
        }
    }

    static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }
}
