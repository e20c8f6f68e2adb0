package org.dyper.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.cli.fleet.Fleet;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * {@link FleetReport} and {@link ExactMerge} on three JVMs' REPORT replies with known figures (two answered, one did
 * not): every merged figure is the sum (or the minimum, maximum, mean) of the JVMs', each JVM keeps its own, the
 * stacks add up path by path with one tree per JVM, and the page reads it as any report.
 */
class FleetReportTest {
    private static final Fleet.Member A = new Fleet.Member("101", "h1", 101, "acme.Main", 1_000, "17.0.9");
    private static final Fleet.Member B = new Fleet.Member("202", "h1", 202, "acme.Main", 2_000, "25");
    private static final Fleet.Member C = new Fleet.Member("303", "h2", 303, "acme.Main", 3_000, "17.0.9");

    private static String reply(long pid, String exact, String stacks) {
        return reply(pid, exact, "", stacks);
    }

    private static String reply(long pid, String exact, String patches, String stacks) {
        return "<DYPER_REPLY ID='" + pid + "'><MONITOR_REPORT VERSION='1' PID='" + pid + "' TIME='9000' START='"
                + pid * 10 + "' MAIN='acme.Main' MONITOR='true' CHECKTIME='10'><INSTRUMENTATION EXACT='true' "
                + "ACTIVE='true'><DYPER_REPORT VERSION='1' PID='" + pid + "' TIME='9000'>" + exact
                + "</DYPER_REPORT></INSTRUMENTATION>" + patches + "<CPU EXACT='false' SOURCE='JFR' EVENT='jdk.ExecutionSample' "
                + "SAMPLES='" + pid + "' TICKS='1' ESTIMATED_NS='" + pid * 10 + "' SYSTEM_ONLY='0' IO_SAMPLES='0' "
                + "IO_NS='0' DYPER_SAMPLES='0' MONITOR_SAMPLES='0' MONITOR_NS='0' MONITOR_CPU_NS='5'><THREADS>"
                + "<THREAD ID='1' NAME='main' SAMPLES='3' RUNNABLE='3' CPU_NS='7' CPU_EXACT='true'/></THREADS>"
                + "<PACKAGES><PACKAGE NAME='acme' SELF='2' TOTAL='3' IO='0' SELF_NS='20' TOTAL_NS='30' IO_NS='0'/>"
                + "</PACKAGES><CLASSES/><METHODS/><LINES/></CPU>" + stacks + "</MONITOR_REPORT></DYPER_REPLY>";
    }

    private static final String EXACT_A = "<COUNTS><SITE ID='3' NAME='acme.C.c()' COUNT='10'/></COUNTS>"
            + "<CALLS/><TIMING><SITE ID='1' NAME='acme.W.w()' COUNT='3' TOTAL_NS='30' MIN_NS='5' MAX_NS='15' "
            + "MEAN_NS='10'><BUCKET UPPER_NS='8' COUNT='1'/><BUCKET UPPER_NS='16' COUNT='2'/></SITE></TIMING>"
            + "<VALUES><SITE ID='4' NAME='acme.V.v(long)' COUNT='0' SUM='0' MIN='0' MAX='0' NULLS='3' NONNULLS='0'/>"
            + "</VALUES><FAILURES TOTAL='1'><SITE ID='1' NAME='acme.W.w()' COUNT='1' FIRST='boom'/></FAILURES>";
    private static final String EXACT_B = "<COUNTS><SITE ID='7' NAME='acme.C.c()' COUNT='20'/>"
            + "<SITE ID='8' NAME='acme.D.d()' COUNT='5'/></COUNTS><CALLS/><TIMING><SITE ID='1' NAME='acme.W.w()' "
            + "COUNT='7' TOTAL_NS='70' MIN_NS='2' MAX_NS='20' MEAN_NS='10'><BUCKET UPPER_NS='4' COUNT='1'/>"
            + "<BUCKET UPPER_NS='16' COUNT='6'/></SITE></TIMING><VALUES><SITE ID='4' NAME='acme.V.v(long)' COUNT='2' "
            + "SUM='-9' MIN='-7' MAX='-2' NULLS='0' NONNULLS='1'/></VALUES><FAILURES TOTAL='0'/>";
    private static final String STACKS_A = "<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='4' "
            + "NODE_LIMIT='100' DROPPED='0'><VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='8' EVENTS='8' "
            + "OMITTED_PATHS='0' OMITTED_WEIGHT='0' DROPPED='0' DROPPED_WEIGHT='0' THREAD_DROPPED='0' "
            + "THREADS_OMITTED='0'><PATH WEIGHT='5'>a.A.a;a.B.b</PATH><PATH WEIGHT='3'>a.A.a;a.C.c</PATH>"
            + "<THREAD ID='1' NAME='main' TOTAL='8' OMITTED_PATHS='0' OMITTED_WEIGHT='0'><PATH WEIGHT='8'>a.A.a"
            + "</PATH></THREAD></VIEW></STACKS>";
    private static final String STACKS_B = "<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='3' "
            + "NODE_LIMIT='100' DROPPED='2'><VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='6' EVENTS='9' "
            + "OMITTED_PATHS='1' OMITTED_WEIGHT='1' DROPPED='0' DROPPED_WEIGHT='0' THREAD_DROPPED='0' "
            + "THREADS_OMITTED='0'><PATH WEIGHT='2'>a.A.a;a.B.b</PATH><PATH WEIGHT='4'>d.D.d</PATH></VIEW>"
            + "<VIEW NAME='ALLOC' UNIT='BYTES' SOURCE='JFR' TOTAL='64' EVENTS='1' OMITTED_PATHS='0' "
            + "OMITTED_WEIGHT='0' DROPPED='0' DROPPED_WEIGHT='0' THREAD_DROPPED='0' THREADS_OMITTED='0'>"
            + "<PATH WEIGHT='64'>d.D.d;[alloc int[]]</PATH></VIEW></STACKS>";

    /** A fleet that names members as LocalFleet does; nothing is sent. */
    private static final Fleet FLEET = new Fleet() {
        @Override
        public List<Member> who(Duration deadline) {
            return List.of(A, B, C);
        }

        @Override
        public List<Answer> send(List<Member> members, String message, boolean control, Duration deadline) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String describe() {
            return "registry /tmp/r";
        }

        @Override
        public String describe(Member m) {
            return "process " + m.pid() + " (" + m.mainClass() + ")";
        }

        @Override
        public void close() {
        }
    };

    /** JVM 1 was patched at run time (two models: one in, one taken out); JVM 2 reports woven code only. */
    private static final String PATCHES_A = "<PATCHES WARM='1'><MODEL NAME='first' ID='a1' ACTIVE='false' "
            + "SINCE='5000' UNTIL='6000'><CLASS NAME='acme.W' LOADER='app' STATE='UNPATCHED' SINCE='5000' UNTIL='6000'/>"
            + "</MODEL><MODEL NAME='slow' ID='b2' ACTIVE='true' SINCE='7000' FIRSTID='1' LASTID='3'><CLASS "
            + "NAME='acme.W' LOADER='app' STATE='PATCHED' SINCE='7000'/><CLASS NAME='acme.C' LOADER='app' "
            + "STATE='PATCHED' SINCE='7000'/><CLASS NAME='acme.Later' STATE='PENDING'/></MODEL></PATCHES>";

    private static Element merged() throws Exception {
        String xml = FleetReport.merge(FLEET, List.of(new Fleet.Answer(A, reply(101, EXACT_A, PATCHES_A, STACKS_A),
                null),
                new Fleet.Answer(B, reply(202, EXACT_B, STACKS_B), null),
                new Fleet.Answer(C, null, "process 303 (acme.Main) did not answer within 100 ms")), 12_345);
        return Xml.parse(xml);
    }

    private static Element site(Element report, String section, String tag, String name) {
        for (Element e : Xml.children(Xml.child(report, section), tag)) {
            if (e.getAttribute("NAME").equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static Element exact(Element root) {
        return Xml.child(Xml.child(root, "INSTRUMENTATION"), "DYPER_REPORT");
    }

    static Stream<Arguments> sums() {
        return Stream.of(
                Arguments.of("COUNTS", "acme.C.c()", Map.of("COUNT", "30", "ID", "-")),
                Arguments.of("COUNTS", "acme.D.d()", Map.of("COUNT", "5", "ID", "8")),
                Arguments.of("TIMING", "acme.W.w()", Map.of("COUNT", "10", "TOTAL_NS", "100", "MIN_NS", "2",
                        "MAX_NS", "20", "MEAN_NS", "10", "ID", "1")),
                Arguments.of("VALUES", "acme.V.v(long)", Map.of("COUNT", "2", "SUM", "-9", "MIN", "-7", "MAX", "-2",
                        "NULLS", "3", "NONNULLS", "1")),
                Arguments.of("FAILURES", "acme.W.w()", Map.of("COUNT", "1", "FIRST", "boom")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("sums")
    void mergedFiguresAreTheJvmsAddedUp(String section, String name, Map<String, String> expected) throws Exception {
        Element s = site(exact(merged()), section, "SITE", name);
        Map<String, String> seen = new LinkedHashMap<>();
        expected.keySet().forEach(k -> seen.put(k, s.hasAttribute(k) ? s.getAttribute(k) : "-"));
        assertEquals(expected, seen);
    }

    @Test
    void histogramsSectionsAndOrder() throws Exception {
        Element exact = exact(merged());
        Element w = site(exact, "TIMING", "SITE", "acme.W.w()");
        Map<String, String> buckets = new LinkedHashMap<>();
        Xml.children(w, "BUCKET").forEach(b -> buckets.put(b.getAttribute("UPPER_NS"), b.getAttribute("COUNT")));
        assertEquals(Map.of("4", "1", "8", "1", "16", "8"), buckets);
        assertEquals(List.of("4", "8", "16"), List.copyOf(buckets.keySet()), "ascending UPPER_NS");
        assertEquals("1", Xml.child(exact, "FAILURES").getAttribute("TOTAL"));
        assertEquals(List.of("acme.C.c()", "acme.D.d()"), Xml.children(Xml.child(exact, "COUNTS"), "SITE").stream()
                .map(e -> e.getAttribute("NAME")).toList(), "by count, descending");
    }

    @Test
    void eachJvmKeepsItsOwnFiguresAndTheSilentOneIsNamed() throws Exception {
        Element fleet = Xml.child(merged(), "FLEET");
        assertEquals(List.of("registry /tmp/r", "3", "2"), List.of(fleet.getAttribute("CARRIER"),
                fleet.getAttribute("ASKED"), fleet.getAttribute("ANSWERED")));
        List<Element> jvms = Xml.children(fleet, "JVM");
        assertEquals(List.of("OK", "OK", "MISSING"), jvms.stream().map(j -> j.getAttribute("STATUS")).toList());
        assertEquals("process 303 (acme.Main) did not answer within 100 ms", jvms.get(2).getAttribute("ERROR"));
        assertEquals("process 202 (acme.Main)", jvms.get(1).getAttribute("LABEL"));
        assertEquals("25", jvms.get(1).getAttribute("JAVA"));
        assertEquals("3", site(Xml.child(jvms.get(0), "DYPER_REPORT"), "TIMING", "SITE", "acme.W.w()")
                .getAttribute("COUNT"));
        assertEquals("7", site(Xml.child(jvms.get(1), "DYPER_REPORT"), "TIMING", "SITE", "acme.W.w()")
                .getAttribute("COUNT"));
        assertNull(Xml.child(jvms.get(2), "DYPER_REPORT"));
        Map<String, String> sampled = new LinkedHashMap<>();
        Xml.children(jvms.get(1), "SAMPLED").forEach(s -> sampled.put(s.getAttribute("VIEW"), s.getAttribute("TOTAL")));
        assertEquals(Map.of("CPU_TABLE", "202", "CPU", "6", "ALLOC", "64"), sampled);
    }

    @Test
    void eachJvmSaysHowItWasPatchedAndKeepsItsPatches() throws Exception {
        List<Element> jvms = Xml.children(Xml.child(merged(), "FLEET"), "JVM");
        assertEquals(List.of("patched at run time: model first taken out; model slow in (2 classes patched now)",
                "woven at or before its launch (no run-time patch)", ""), jvms.stream()
                .map(j -> j.getAttribute("WOVEN")).toList());
        assertEquals(Xml.serialize(Xml.parse(PATCHES_A)), Xml.serialize(Xml.child(jvms.get(0), "PATCHES")));
        assertNull(Xml.child(jvms.get(1), "PATCHES"));
        assertEquals("nothing woven", FleetReport.woven(null, false));
    }

    /**
     * 100 JVMs of 60 paths of 601 characters each (3.6 MB of path text) against 1.6 MB for the JVMs' own trees (the
     * real bound is {@link FleetReport#OWN_PATHS_CHARS}, 32 MB): each JVM's own tree keeps its heaviest paths within
     * its share and counts the rest as omitted; the merged tree keeps every path; the page reads it.
     */
    @Test
    void eachJvmsOwnTreeIsBoundedAndTheMergedTreeIsWhole() throws Exception {
        int jvms = 100;
        List<Fleet.Member> members = new java.util.ArrayList<>();
        for (int i = 0; i < jvms; i++) {
            members.add(new Fleet.Member("m" + i, "h", i, "acme.Main", 1, "17"));
        }
        FleetReport.Merger merger = new FleetReport.Merger(FLEET, members, 1_677_700);
        String frames = "a.B.c;".repeat(99) + "a.B.";
        for (int i = 0; i < jvms; i++) {
            StringBuilder stacks = new StringBuilder("<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='100' NODES='1' "
                    + "NODE_LIMIT='1' DROPPED='0'><VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='1830' "
                    + "EVENTS='1830' OMITTED_PATHS='0' OMITTED_WEIGHT='0' DROPPED='0' DROPPED_WEIGHT='0' "
                    + "THREAD_DROPPED='0' THREADS_OMITTED='0'>");
            for (int p = 1; p <= 60; p++) {
                stacks.append("<PATH WEIGHT='").append(p).append("'>").append(frames).append(p < 10 ? "p0" : "p")
                        .append(p).append("</PATH>");
            }
            assertNull(merger.add(i, new Fleet.Answer(members.get(i), reply(i, "", stacks.append("</VIEW></STACKS>")
                    .toString()), null)));
        }
        Element root = Xml.parse(merger.xml(1));
        Element cpu = Xml.children(Xml.child(root, "STACKS"), "VIEW").get(0);
        assertEquals(60, Xml.children(cpu, "PATH").size());
        assertEquals(Long.toString(1830L * jvms), cpu.getAttribute("TOTAL"));
        Element first = Xml.children(cpu, "THREAD").get(0);
        // 1,677,700 / 100 = 16,777 characters: the 27 heaviest paths of 601 characters (60 down to 34)
        assertEquals(List.of("27", Long.toString((60 + 34) * 27 / 2), "33", Long.toString(33 * 34 / 2)), List.of(
                Integer.toString(Xml.children(first, "PATH").size()), first.getAttribute("TOTAL"),
                first.getAttribute("OMITTED_PATHS"), first.getAttribute("OMITTED_WEIGHT")));
        assertEquals(jvms, Xml.children(cpu, "THREAD").size());
        Report r = HtmlReport.read("fleet", merger.xml(1));
        assertEquals(List.of("CPU"), r.views());
    }

    @Test
    void repliesMergeInAnyOrderToTheSameReport() throws Exception {
        List<Fleet.Answer> answers = List.of(new Fleet.Answer(A, reply(101, EXACT_A, PATCHES_A, STACKS_A), null),
                new Fleet.Answer(B, reply(202, EXACT_B, STACKS_B), null),
                new Fleet.Answer(C, null, "process 303 (acme.Main) did not answer within 100 ms"));
        FleetReport.Merger backwards = new FleetReport.Merger(FLEET, List.of(A, B, C));
        for (int i = answers.size() - 1; i >= 0; i--) {
            backwards.add(i, answers.get(i));
        }
        assertEquals(FleetReport.merge(FLEET, answers, 12_345), backwards.xml(12_345));
    }

    @Test
    void stacksAddUpPathByPathWithOneTreePerJvm() throws Exception {
        Element root = merged();
        Element stacks = Xml.child(root, "STACKS");
        assertEquals(List.of("7", "200", "2"), List.of(stacks.getAttribute("NODES"), stacks.getAttribute("NODE_LIMIT"),
                stacks.getAttribute("DROPPED")));
        Element cpu = Xml.children(stacks, "VIEW").get(0);
        assertEquals(List.of("CPU", "14", "17", "1"), List.of(cpu.getAttribute("NAME"), cpu.getAttribute("TOTAL"),
                cpu.getAttribute("EVENTS"), cpu.getAttribute("OMITTED_PATHS")));
        Map<String, String> paths = new LinkedHashMap<>();
        Xml.children(cpu, "PATH").forEach(p -> paths.put(p.getTextContent(), p.getAttribute("WEIGHT")));
        assertEquals(Map.of("a.A.a;a.B.b", "7", "d.D.d", "4", "a.A.a;a.C.c", "3"), paths);
        assertEquals(List.of("a.A.a;a.B.b", "d.D.d", "a.A.a;a.C.c"), List.copyOf(paths.keySet()), "heaviest first");
        List<Element> threads = Xml.children(cpu, "THREAD");
        assertEquals(List.of("1:process 101 (acme.Main):8", "2:process 202 (acme.Main):6"), threads.stream()
                .map(t -> t.getAttribute("ID") + ":" + t.getAttribute("NAME") + ":" + t.getAttribute("TOTAL")).toList());
        Element alloc = Xml.children(stacks, "VIEW").get(1);
        assertEquals("ALLOC", alloc.getAttribute("NAME"));
        assertEquals(1, Xml.children(alloc, "THREAD").size(), "only JVM 2 has that view");
        Element cpuTable = Xml.child(root, "CPU");
        assertEquals("303", cpuTable.getAttribute("SAMPLES"));
        assertEquals("10", cpuTable.getAttribute("MONITOR_CPU_NS"));
        assertEquals(List.of("JVM 1: main", "JVM 2: main"), Xml.children(Xml.child(cpuTable, "THREADS"), "THREAD")
                .stream().map(t -> t.getAttribute("NAME")).toList());
        Element pkg = Xml.children(Xml.child(cpuTable, "PACKAGES"), "PACKAGE").get(0);
        assertEquals(List.of("4", "6"), List.of(pkg.getAttribute("SELF"), pkg.getAttribute("TOTAL")));
    }

    @Test
    void thePageReadsItAsAnyReport() throws Exception {
        String xml = FleetReport.merge(FLEET, List.of(new Fleet.Answer(A, reply(101, EXACT_A, STACKS_A), null),
                new Fleet.Answer(B, reply(202, EXACT_B, STACKS_B), null)), 12_345);
        Report r = HtmlReport.read("fleet", xml);
        assertEquals(List.of("CPU", "ALLOC"), r.views());
        String page = HtmlReport.page(r, "fleet");
        assertTrue(page.contains("\"t\":\"FLEET\""), "the FLEET section is in the page's data");
        assertTrue(page.contains("fleet-jvms"), "fleet.js is on the page");
        assertTrue(page.contains("\"name\":\"process 202 (acme.Main)\""), "a JVM as a tree of the flame graph");
        assertFalse(Path.of("dyper-fleet.html").toFile().exists());
    }
}
