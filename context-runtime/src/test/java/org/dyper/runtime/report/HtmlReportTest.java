package org.dyper.runtime.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading and checking reports, collapsed stacks, the page's data, and writing files whole. */
class HtmlReportTest {
    @TempDir
    Path dir;

    static final String STACKS = """
            <MONITOR_REPORT VERSION='1' PID='7' TIME='2000' START='1000' MAIN='p.Main' MONITOR='true' CHECKTIME='10'>
              <STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='5' NODE_LIMIT='100000' DROPPED='0'>
                <VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='10'>
                  <PATH WEIGHT='6'>p.Main.main;p.A.hot;p.A.mix</PATH>
                  <PATH WEIGHT='1'>p.Main.main;p.A.hot</PATH>
                  <PATH WEIGHT='3'>p.Main.main;p.B.cold</PATH>
                  <THREAD ID='1' NAME='main' TOTAL='4'>
                    <PATH WEIGHT='4'>p.Main.main;p.B.cold</PATH>
                  </THREAD>
                </VIEW>
                <VIEW NAME='LOCK' UNIT='NS' TOTAL='500'>
                  <PATH WEIGHT='500'>p.Main.main;p.B.cold;[lock java.lang.Object]</PATH>
                </VIEW>
              </STACKS>
            </MONITOR_REPORT>
            """;

    @Test
    void collapsedStacksAreSelfWeightsRootFirstInNameOrder() throws Exception {
        Report r = HtmlReport.read("m.xml", STACKS);
        assertEquals(List.of("CPU", "LOCK"), r.views());
        assertEquals(7, r.stackNodes());
        assertEquals("p.Main.main;p.A.hot 1\np.Main.main;p.A.hot;p.A.mix 6\np.Main.main;p.B.cold 3\n",
                HtmlReport.collapsed(r, "CPU", null));
        assertEquals("p.Main.main;p.B.cold;[lock java.lang.Object] 500\n", HtmlReport.collapsed(r, "lock", null));
        assertEquals("p.Main.main;p.B.cold 4\n", HtmlReport.collapsed(r, "CPU", "main"));
        assertEquals("p.Main.main;p.B.cold 4\n", HtmlReport.collapsed(r, "CPU", "1"));
        assertEquals("m.xml has no WALL view (it has: CPU, LOCK)",
                assertThrows(IllegalArgumentException.class, () -> HtmlReport.collapsed(r, "WALL", null)).getMessage());
        assertEquals("m.xml: the CPU view has no thread 'x' (threads: main (1))",
                assertThrows(IllegalArgumentException.class, () -> HtmlReport.collapsed(r, "CPU", "x")).getMessage());
        Report exactOnly = HtmlReport.read("e.xml", "<DYPER_REPORT VERSION='1' PID='1' TIME='1'/>");
        assertEquals("e.xml has no STACKS section (sampled stacks come from the DYPER monitor's REPORT)",
                assertThrows(IllegalArgumentException.class, () -> HtmlReport.collapsed(exactOnly, "CPU", null))
                        .getMessage());
    }

    @Test
    void pageIsSelfContainedAndCarriesTheTreeInPreOrder() throws Exception {
        String page = HtmlReport.page(HtmlReport.read("m.xml", STACKS), "T <&> 1");
        assertTrue(page.startsWith("<!DOCTYPE html>"), page.substring(0, 40));
        assertTrue(page.contains("<title>T &lt;&amp;&gt; 1</title>"));
        assertFalse(page.contains("<link"), "no linked style sheets");
        assertFalse(page.contains(" src="), "no external scripts or images");
        assertFalse(page.contains("/*@"), "every placeholder filled");
        // frames by first use; pre-order with children by name: main, A.hot, A.mix, B.cold
        assertTrue(page.contains("\"name\":\"CPU\",\"unit\":\"SAMPLES\",\"a\":{\"NAME\":\"CPU\",\"UNIT\":\"SAMPLES\","
                + "\"TOTAL\":\"10\"},\"total\":10,\"f\":[0,1,2,3],\"d\":[0,1,2,1],\"w\":[10,7,6,3]"), page);
        assertTrue(page.contains("\"frames\":[\"p.Main.main\",\"p.A.hot\",\"p.A.mix\",\"p.B.cold\","
                + "\"[lock java.lang.Object]\"]"), page);
        // the element tree keeps the STACKS attributes but not its paths
        assertTrue(page.contains("{\"t\":\"STACKS\",\"a\":{\"EXACT\":\"false\",\"SOURCE\":\"JFR\""), page);
        assertFalse(page.contains("\"t\":\"PATH\""));
    }

    @Test
    void textThatCouldCloseTheScriptIsEscaped() throws Exception {
        String xml = "<DYPER_REPORT VERSION='1' PID='1' TIME='1'><COUNTS><SITE ID='1' NAME='a.B.m(&lt;/script>)' "
                + "COUNT='1'/></COUNTS></DYPER_REPORT>";
        String page = HtmlReport.page(HtmlReport.read("x.xml", xml), "t");
        assertTrue(page.contains("a.B.m(\\u003c/script\\u003e)"), page);
        assertEquals(1, page.split("</script>", -1).length - 2, "only the page's own two scripts close");
    }

    @Test
    void diffPageHasBothWeightsOverTheUnionOfFrames() throws Exception {
        Report before = HtmlReport.read("a.xml", STACKS);
        Report after = HtmlReport.read("b.xml", STACKS.replace("<PATH WEIGHT='6'>p.Main.main;p.A.hot;p.A.mix</PATH>",
                "<PATH WEIGHT='2'>p.Main.main;p.C.fresh</PATH>").replace("TOTAL='10'", "TOTAL='6'"));
        String page = HtmlReport.diff(before, after, "d");
        // main, A.hot, A.mix (gone after), B.cold, C.fresh (new)
        assertTrue(page.contains("\"TOTAL\":\"6\"},\"total\":6,\"total0\":10,\"f\":[0,1,2,3,4],"
                + "\"d\":[0,1,2,1,1],\"w\":[6,1,0,3,2],\"w0\":[10,7,6,3,0]"), page);
        assertTrue(page.contains("\"mode\":\"diff\""));
    }

    /** The PATCHES section of a monitor that patched at run time: its MODEL ID is a hexadecimal hash, not a number. */
    @Test
    void aMonitorReportWithRunTimePatchesIsRead() throws Exception {
        Report r = HtmlReport.read("p.xml", """
                <MONITOR_REPORT VERSION='1' PID='7' TIME='2000' START='1000' MAIN='p.Main' MONITOR='true' CHECKTIME='10'>
                  <PATCHES>
                    <MODEL NAME='phases' ID='67009c043a77935c' ACTIVE='true' SINCE='1500' FIRSTID='1' LASTID='2'>
                      <CLASS NAME='p.Worker' LOADER='app' STATE='PATCHED' SINCE='1500'/>
                      <SITE ID='1' NAME='p.Worker.work(int)' SINCE='1500' ACTIVE='true'/>
                    </MODEL>
                  </PATCHES>
                </MONITOR_REPORT>
                """);
        assertEquals(List.of(), r.views());
        BadReportException e = assertThrows(BadReportException.class, () -> HtmlReport.read("q.xml",
                "<MONITOR_REPORT VERSION='1' PID='7'>\n<PATCHES><MODEL NAME='m' ID='x1' ACTIVE='true' SINCE='1'>"
                        + "<SITE ID='x2' NAME='a' ACTIVE='true'/></MODEL></PATCHES></MONITOR_REPORT>"));
        assertEquals(List.of("q.xml:2:96: SITE: ID='x2' is not a whole number"), e.problems());
    }

    static Stream<Arguments> problems() {
        String head = "<MONITOR_REPORT VERSION='1' PID='7'>\n<STACKS>\n";
        String tail = "</STACKS>\n</MONITOR_REPORT>\n";
        return Stream.of(
                Arguments.of("<DYPER_REPORT>", "f.xml:1:15: malformed XML: XML document structures must start and end "
                        + "within the same entity."),
                Arguments.of("<!DOCTYPE x [<!ENTITY e 'x'>]><DYPER_REPORT/>",
                        "f.xml:1:10: malformed XML: DOCTYPE is not allowed (no DTDs, no entities)"),
                Arguments.of("<MODEL NAME='m'/>", "f.xml:1:1: MODEL: not a Dyper report (expected DYPER_REPORT, "
                        + "MONITOR_REPORT, or the DYPER_REPLY of a REPORT command)"),
                Arguments.of("<DYPER_REPLY ID='7'>\n<ERROR>unknown command 'REPROT'</ERROR></DYPER_REPLY>",
                        "f.xml:2:1: ERROR: the monitor answered with an error: unknown command 'REPROT'"),
                Arguments.of("<DYPER_REPLY ID='7'>PONG</DYPER_REPLY>", "f.xml:1:1: DYPER_REPLY: holds no "
                        + "MONITOR_REPORT or DYPER_REPORT (is it the reply to REPORT?)"),
                Arguments.of("<DYPER_REPORT PID='7'>\n<COUNTS>\n<SITE ID='1' NAME='a.B.m()' COUNT='many'/></COUNTS></DYPER_REPORT>",
                        "f.xml:3:43: SITE: COUNT='many' is not a whole number"),
                Arguments.of(head + "<VIEW UNIT='SAMPLES' TOTAL='0'/>\n" + tail,
                        "f.xml:3:33: VIEW: NAME is missing (CPU, WALL, LOCK or ALLOC)"),
                Arguments.of(head + "<VIEW NAME='CPU' TOTAL='0'/>\n" + tail,
                        "f.xml:3:29: VIEW: UNIT is missing (SAMPLES, NS or BYTES)"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='5'>\n<PATH WEIGHT='0'>a.B.m</PATH>\n"
                        + "</VIEW>\n" + tail, "f.xml:4:18: PATH: WEIGHT='0' is not positive"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='5'>\n<PATH WEIGHT='x'>a.B.m</PATH>\n"
                        + "</VIEW>\n" + tail, "f.xml:4:18: PATH: WEIGHT='x' is not a whole number"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='5'>\n<PATH>a.B.m</PATH>\n</VIEW>\n" + tail,
                        "f.xml:4:7: PATH: WEIGHT is missing"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='5'>\n<PATH WEIGHT='5'>a.B.m;;c.D.n</PATH>\n"
                        + "</VIEW>\n" + tail, "f.xml:4:18: PATH: frame 2 of 3 is empty in 'a.B.m;;c.D.n'"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='5'>\n<PATH WEIGHT='5'> </PATH>\n</VIEW>\n"
                        + tail, "f.xml:4:18: PATH: no frames (expected frames separated by ';', root first)"),
                Arguments.of(head + "<VIEW NAME='LOCK' UNIT='NS' TOTAL='5'>\n<PATH WEIGHT='5'>[lock a.L];a.B.m</PATH>\n"
                        + "</VIEW>\n" + tail, "f.xml:4:18: PATH: synthetic frame [lock a.L] is not the leaf in "
                        + "'[lock a.L];a.B.m'"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='4'>\n<PATH WEIGHT='2'>a.B.m</PATH>\n"
                        + "<PATH WEIGHT='2'>a.B.m</PATH>\n</VIEW>\n" + tail,
                        "f.xml:5:18: PATH: the same path comes twice in one VIEW: 'a.B.m'"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='9'>\n<PATH WEIGHT='2'>a.B.m</PATH>\n"
                        + "</VIEW>\n" + tail, "f.xml:3:1: VIEW: TOTAL='9' but its PATH weights add up to 2"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='0'>\n<THREAD NAME='t' TOTAL='1'>\n"
                        + "<PATH WEIGHT='1'>a.B.m</PATH>\n</THREAD>\n</VIEW>\n" + tail, "f.xml:4:28: THREAD: ID is missing"),
                Arguments.of(head + "<VIEW NAME='CPU' UNIT='SAMPLES' TOTAL='0'/>\n<VIEW NAME='CPU' UNIT='NS' TOTAL='0'/>\n"
                        + tail, "f.xml:4:39: VIEW: a second VIEW NAME='CPU'; each view comes once"),
                Arguments.of(head + "<PATH WEIGHT='1'>a.B.m</PATH>\n" + tail,
                        "f.xml:3:18: PATH: PATH belongs in a VIEW or in a THREAD of a VIEW"),
                Arguments.of(head + "<SAMPLE/>\n" + tail,
                        "f.xml:3:10: SAMPLE: unexpected element in STACKS (it holds VIEW, THREAD and PATH elements)"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("problems")
    void badReportsNameFileLineElementAndRule(String xml, String problem) throws Exception {
        Path f = Files.writeString(dir.resolve("f.xml"), xml, StandardCharsets.UTF_8);
        BadReportException e = assertThrows(BadReportException.class, () -> HtmlReport.read(f, "f.xml"));
        assertEquals(List.of(problem), e.problems());
    }

    @Test
    void emptyFileIsSaidSo() throws Exception {
        Path f = Files.writeString(dir.resolve("f.xml"), "");
        assertEquals(List.of("f.xml: the file is empty"),
                assertThrows(BadReportException.class, () -> HtmlReport.read(f, "f.xml")).problems());
    }

    @Test
    void everyProblemIsReportedInOneGo() {
        String xml = "<DYPER_REPORT PID='x' TIME='y'><COUNTS><SITE ID='z' COUNT='1'/></COUNTS></DYPER_REPORT>";
        assertEquals(List.of("r:1:32: DYPER_REPORT: PID='x' is not a whole number",
                        "r:1:32: DYPER_REPORT: TIME='y' is not a whole number", "r:1:64: SITE: ID='z' is not a whole number"),
                assertThrows(BadReportException.class, () -> HtmlReport.read("r", xml)).problems());
    }

    /** A run-time patch (PATCHES, its ID a hex hash) and automatic detailing's figures (DETAIL) read and show. */
    @Test
    void patchesAndDetailingRead() throws Exception {
        String xml = STACKS.replace("</MONITOR_REPORT>", "<DETAIL AGENT='CPU' AUTO='true' STATE='ON' MODEL='dyper-detail'"
                + " MAX='8' DETAILED='1' PATCHES='1' REMOVALS='0' FAILURES='0' STARTED='1500'>"
                + "<METHOD CLASS='p.A' NAME='hot'/><DETAILED CLASS='p.A' NAME='hot' STATE='PATCHED' SINCE='1600' "
                + "PERIODS='1'><EXACT EXACT='true' COUNT='12' TOTAL_NS='1200' MIN_NS='90' MAX_NS='110' MEAN_NS='100'>"
                + "<BUCKET UPPER_NS='128' COUNT='12'/></EXACT><ESTIMATE EXACT='false' SELF='6' TOTAL='7' SELF_NS='60' "
                + "TOTAL_NS='70'/></DETAILED></DETAIL><PATCHES><MODEL NAME='dyper-detail' ID='6e90b4eb98ecbc24' "
                + "ACTIVE='true' SINCE='1600' FIRSTID='1' LASTID='2'/></PATCHES></MONITOR_REPORT>");
        String page = HtmlReport.page(HtmlReport.read("d.xml", xml), "d");
        assertTrue(page.contains("\"t\":\"DETAILED\""), "the detailed item is in the page's element tree");
        assertTrue(page.contains("6e90b4eb98ecbc24"), page);
    }

    @Test
    void outermostStacksWin() throws Exception {
        String inner = STACKS.replace("p.A.mix", "p.Inner.x");
        String xml = "<MONITOR_REPORT PID='1'><INSTRUMENTATION EXACT='true' ACTIVE='true'><DYPER_REPORT PID='1'>"
                + inner.substring(inner.indexOf("<STACKS"), inner.indexOf("</MONITOR_REPORT>"))
                + "</DYPER_REPORT></INSTRUMENTATION>" + STACKS.substring(STACKS.indexOf("<STACKS"));
        assertTrue(HtmlReport.collapsed(HtmlReport.read("r", xml), "CPU", null).contains("p.A.mix 6"));
    }

    @Test
    void writeReplacesWholeAndLeavesNoTemporaryFile() throws IOException {
        Path target = dir.resolve("sub/out.html");
        HtmlReport.write(target, "one");
        HtmlReport.write(target, "two");
        assertEquals("two", Files.readString(target));
        try (Stream<Path> files = Files.list(target.getParent())) {
            assertEquals(List.of(target), files.toList());
        }
        Path folder = Files.createDirectories(dir.resolve("taken.html"));
        Files.writeString(folder.resolve("inside"), "x");
        assertThrows(IOException.class, () -> HtmlReport.write(folder, "three"));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("sub", "taken.html"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
