package org.dyper.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

class XmlReportsTest {
    @TempDir
    Path dir;

    private static final String EXIT = "<DYPER_REPORT PID='1'>"
            + "<COUNTS><SITE NAME='a.B.c()' COUNT='3'/><SITE NAME='a.B.d()' COUNT='0'/></COUNTS>"
            + "<ALLOCATIONS><TYPE NAME='int[]' COUNT='2'/></ALLOCATIONS>"
            + "<FAILURES TOTAL='0'/>"
            + "<MONITOR_REPORT SEQ='1'/><MONITOR_REPORT SEQ='2'><CPU/></MONITOR_REPORT></DYPER_REPORT>";

    @Test
    void anExitReportReadsAsSectionsOfRows() throws Exception {
        Path xml = Files.writeString(dir.resolve("r.xml"), EXIT);
        XmlReports.ExitReport r = XmlReports.ExitReport.of(xml);
        assertEquals(3, r.value("COUNTS", "a.B.c()", "COUNT"));
        assertEquals("2", r.site("ALLOCATIONS", "TYPE:int[]").get("COUNT"));
        assertEquals(Map.of("TOTAL", "0"), r.failures());
        AssertionError e = assertThrows(AssertionError.class, () -> r.site("COUNTS", "x.Y.z()"));
        assertTrue(e.getMessage().startsWith("no site x.Y.z() in COUNTS: {a.B.c()="), e.getMessage());
        assertEquals(Map.of("a.B.c()", "3", "a.B.d()", "0"), XmlReports.counts(xml));
    }

    @Test
    void theMonitorReportIsFoundUnderEachRoot() throws Exception {
        assertEquals("2", XmlReports.monitorReport(XmlReports.parse(EXIT)).getAttribute("SEQ"),
                "the last MONITOR_REPORT of an exit report");
        Element reply = XmlReports.parse("<DYPER_REPLY ID='9'><MONITOR_REPORT SEQ='5'/></DYPER_REPLY>");
        assertEquals("5", XmlReports.monitorReport(reply).getAttribute("SEQ"));
        Element alone = XmlReports.parse("<MONITOR_REPORT SEQ='7'/>");
        assertEquals(alone, XmlReports.monitorReport(alone));
        assertThrows(AssertionError.class, () -> XmlReports.monitorReport(XmlReports.parse("<DYPER_REPORT/>")));
        assertThrows(AssertionError.class, () -> XmlReports.monitorReport(XmlReports.parse("<HTML/>")));
    }

    @Test
    void doctypesAreRefused() {
        assertThrows(Exception.class, () -> XmlReports.parse("<!DOCTYPE r [<!ENTITY x 'y'>]><r>&x;</r>"));
    }

    @Test
    void aMissingFileFailsTheTestNamingIt() {
        AssertionError e = assertThrows(AssertionError.class, () -> XmlReports.parse(dir.resolve("none.xml")));
        assertEquals("no XML report at " + dir.resolve("none.xml"), e.getMessage());
    }
}
