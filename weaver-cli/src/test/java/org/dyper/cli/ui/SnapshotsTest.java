package org.dyper.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.runtime.monitor.MonitorReply;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** Windows as differences of the monitor's cumulative stacks, and exact figures added up per method. */
class SnapshotsTest {
    /** A MONITOR_REPORT with the CPU view's paths (all threads, and thread 7 holding the same). */
    static Element report(Map<String, Long> paths) throws Exception {
        StringBuilder x = new StringBuilder("<MONITOR_REPORT><STACKS SOURCE='JFR'><VIEW NAME='CPU' UNIT='SAMPLES'>");
        paths.forEach((p, w) -> x.append("<PATH WEIGHT='").append(w).append("'>").append(p).append("</PATH>"));
        x.append("<THREAD ID='7' NAME='worker'>");
        paths.forEach((p, w) -> x.append("<PATH WEIGHT='").append(w).append("'>").append(p).append("</PATH>"));
        return MonitorReply.parse(x.append("</THREAD></VIEW></STACKS></MONITOR_REPORT>").toString());
    }

    @Test
    void aWindowIsTheNewestLessTheSnapshotAtItsStart() throws Exception {
        Snapshots s = new Snapshots();
        s.add(report(Map.of("a;b", 10L)), 1_000);
        assertEquals(new Snapshots.Window(s.latest().views().get("CPU"), Map.of("a;b", 10L), -1,
                "since the start: the window fills as the page refreshes"), s.window("CPU", "", 10_000));
        s.add(report(Map.of("a;b", 30L, "a;c", 5L)), 11_000);
        s.add(report(Map.of("a;b", 70L, "a;c", 5L, "a;d", 1L)), 21_000);
        assertEquals(Map.of("a;b", 40L, "a;d", 1L), s.window("CPU", "", 10_000).paths(), "the last 10 s");
        assertEquals(10_000, s.window("CPU", "", 10_000).coveredMillis());
        assertEquals(Map.of("a;b", 40L, "a;d", 1L), s.window("CPU", "7", 10_000).paths(), "one thread's");
        assertEquals(Map.of("a;b", 20L, "a;c", 5L), s.window("CPU", "", 10_000, 10_000).paths(), "the 10 s before");
        assertEquals(Map.of("a;b", 60L, "a;c", 5L, "a;d", 1L), s.window("CPU", "", 60_000).paths(),
                "a minute: all the UI watched");
        assertEquals("the UI has watched this process for 20 s of the window", s.window("CPU", "", 60_000).note());
        assertEquals(Map.of("a;b", 70L, "a;c", 5L, "a;d", 1L), s.window("CPU", "", -1).paths(), "since the start");
        assertNull(s.window("CPU", "", 10_000, 20_000), "no history that far back");
        assertNull(s.window("LOCK", "", 10_000), "a view without events");
        s.add(report(Map.of("a;b", 3L)), 31_000);
        assertEquals(new Snapshots.Window(s.latest().views().get("CPU"), Map.of("a;b", 3L), -1,
                "the monitor's stacks were cleared: since then"), s.window("CPU", "", 10_000));
    }

    @Test
    void windowsBetweenMarksAreKeptBeyondTheHistory() throws Exception {
        Snapshots s = new Snapshots();
        s.add(report(Map.of("a;b", 10L)), 1_000);
        assertEquals(new Snapshots.Mark(1, "before", s.latest()), s.mark("before"));
        s.add(report(Map.of("a;b", 30L, "a;c", 5L)), 61_000);
        assertEquals("mark 2", s.mark("").label(), "a blank label becomes the mark's number");
        s.add(report(Map.of("a;b", 31L, "a;c", 45L, "a;d", 2L)), 301_000);
        s.mark("after");
        s.add(report(Map.of("a;b", 31L, "a;c", 50L, "a;d", 2L)), 400_000);
        assertEquals(Map.of("a;b", 20L, "a;c", 5L), s.between("CPU", "", 1, 2).paths(), "from mark 1 to mark 2");
        assertEquals(60_000, s.between("CPU", "", 1, 2).coveredMillis());
        assertEquals(Map.of("a;b", 1L, "a;c", 40L, "a;d", 2L), s.between("CPU", "", 2, 3).paths(),
                "mark 1's snapshot left the history long ago; the marks keep theirs");
        assertEquals(Map.of("a;c", 5L), s.between("CPU", "", 3, 0).paths(), "from mark 3 to now");
        assertEquals(Map.of("a;b", 21L, "a;c", 45L, "a;d", 2L), s.between("CPU", "7", 1, 3).paths(), "one thread's");
        assertEquals(new Snapshots.Window(new Snapshots.View("LOCK", "", "", Map.of(), Map.of()), Map.of(), 60_000,
                "no LOCK events by the window's end"), s.between("LOCK", "", 1, 2));
        assertEquals(List.of(1, 2, 3), s.marks().stream().map(Snapshots.Mark::id).toList());
        assertEquals(true, s.unmark(2));
        assertEquals(false, s.unmark(2), "gone already");
        assertNull(s.markOf(2));
        for (int i = 2; i < Snapshots.MAX_MARKS; i++) {
            s.mark("m" + i);
        }
        assertNull(s.mark("one too many"));
        assertEquals(Snapshots.MAX_MARKS, s.marks().size());
        assertEquals(17, s.marks().get(Snapshots.MAX_MARKS - 1).id(), "numbers are never given twice");
        s.add(report(Map.of("a;b", 4L)), 401_000);
        assertEquals(new Snapshots.Window(s.latest().views().get("CPU"), Map.of("a;b", 4L), -1,
                "the monitor's stacks were cleared: since then"), s.between("CPU", "", 3, 0));
    }

    @Test
    void exactFiguresAddUpOverloadsAndModelVersions() throws Exception {
        Element r = MonitorReply.parse("<MONITOR_REPORT><INSTRUMENTATION><DYPER_REPORT><CALLS>"
                + "<SITE ID='3' NAME='p.C.g(int)' COUNT='8'/><SITE ID='9' NAME='p.C.g(int)' COUNT='4'/></CALLS><TIMING>"
                + "<SITE ID='1' NAME='p.C.f(int)' COUNT='3' TOTAL_NS='300' MIN_NS='50' MAX_NS='150' MEAN_NS='100'>"
                + "<BUCKET UPPER_NS='64' COUNT='1'/><BUCKET UPPER_NS='256' COUNT='2'/></SITE>"
                + "<SITE ID='7' NAME='p.C.f(long)' COUNT='1' TOTAL_NS='1000' MIN_NS='1000' MAX_NS='1000' MEAN_NS='1000'>"
                + "<BUCKET UPPER_NS='1024' COUNT='1'/></SITE>"
                + "</TIMING></DYPER_REPORT></INSTRUMENTATION></MONITOR_REPORT>");
        Map<String, Object> x = Exact.of(r, Set.of("p.C.f", "p.D.h"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> methods = (List<Map<String, Object>>) x.get("methods");
        Map<String, Object> f = methods.get(0);
        assertEquals("p.C.f", f.get("method"));
        assertEquals(List.of("p.C.f(int)", "p.C.f(long)"), f.get("signatures"));
        assertEquals(4L, f.get("calls"));
        assertEquals(1300L, f.get("totalNs"));
        assertEquals(325L, f.get("meanNs"));
        assertEquals(50L, f.get("minNs"));
        assertEquals(1000L, f.get("maxNs"));
        assertEquals(256L, f.get("p50Ns"), "the 2nd of 4 calls is in the bucket below 256 ns");
        assertEquals(1024L, f.get("p99Ns"));
        assertEquals(List.of(List.of(64L, 1L), List.of(256L, 2L), List.of(1024L, 1L)), f.get("histogram"));
        assertEquals(Map.of("method", "p.D.h", "calls", 0L), Map.of("method", methods.get(1).get("method"), "calls",
                methods.get(1).get("calls")), "measured, not called yet");
        assertEquals(List.of(Map.of("name", "p.C.g(int)", "count", 12L)), x.get("calls"));
    }
}
