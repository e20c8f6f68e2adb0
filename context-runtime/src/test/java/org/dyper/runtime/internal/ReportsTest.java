package org.dyper.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.SampledTiming;
import org.dyper.runtime.Sites;
import org.dyper.runtime.Timing;
import org.dyper.runtime.Values;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The text and XML reports: exact numbers, order, escaping, and the empty case. */
class ReportsTest {
    static final int TRANSFER = 60_001;
    static final int AUDIT = 60_002;
    static final int FEE = 60_003;
    static final String NASTY = "org.x.Q<T>&'\"";

    @BeforeEach
    void reset() {
        Dyper.reset();
        Sites.define(TRANSFER + "\tMETHOD\torg.x.Bank\ttransfer\tint,int,long\n"
                + AUDIT + "\tMETHOD\torg.x.Bank\taudit\t\n"
                + FEE + "\tCLASS\t" + NASTY + "\t\t\n");
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        DocumentBuilder b = f.newDocumentBuilder();
        return b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static List<Element> sites(Document doc, String section) {
        Element s = (Element) doc.getElementsByTagName(section).item(0);
        List<Element> sites = new ArrayList<>();
        NodeList children = s.getElementsByTagName("SITE");
        for (int i = 0; i < children.getLength(); i++) {
            sites.add((Element) children.item(i));
        }
        return sites;
    }

    private void plantKnownData() {
        for (int i = 0; i < 3; i++) {
            Counting.count(TRANSFER);
        }
        for (int i = 0; i < 5; i++) {
            Counting.count(AUDIT);
        }
        Counting.count(FEE);
        ThreadData.current().time(TRANSFER, 1000);
        ThreadData.current().time(TRANSFER, 3000);
        ThreadData.current().time(AUDIT, 10_000);
        for (int i = 0; i < 128; i++) {
            if (ThreadData.current().sampleCall(AUDIT)) {
                ThreadData.current().sample(AUDIT, 100 * (i % 3 + 1));
            }
        }
        Values.record(FEE, 7);
        Values.record(FEE, -2);
        Values.recordRef(AUDIT, null);
        Values.recordRef(AUDIT, "x");
        Values.recordRef(AUDIT, "y");
        Dyper.hookFailed(TRANSFER, new IllegalStateException("boom <1>"));
        Dyper.hookFailed(TRANSFER, new IllegalStateException("later"));
    }

    @Test
    void xmlReportHasTheExactNumbersSortedByCost() throws Exception {
        PrintStream err = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            plantKnownData();
        } finally {
            System.setErr(err);
        }
        Document doc = parse(Dyper.xmlReport());
        Element root = doc.getDocumentElement();
        assertEquals("DYPER_REPORT", root.getTagName());
        assertEquals("1", root.getAttribute("VERSION"));
        assertEquals(Long.toString(ProcessHandle.current().pid()), root.getAttribute("PID"));

        List<Element> counts = sites(doc, "COUNTS");
        assertEquals(List.of("60002", "60001", "60003"), counts.stream().map(e -> e.getAttribute("ID")).toList());
        assertEquals("5", counts.get(0).getAttribute("COUNT"));
        assertEquals("org.x.Bank.audit()", counts.get(0).getAttribute("NAME"));
        assertEquals("org.x.Bank.transfer(int,int,long)", counts.get(1).getAttribute("NAME"));
        assertEquals(NASTY, counts.get(2).getAttribute("NAME"));

        List<Element> timing = sites(doc, "TIMING");
        assertEquals(List.of("60002", "60001"), timing.stream().map(e -> e.getAttribute("ID")).toList());
        Element transfer = timing.get(1);
        assertEquals("2", transfer.getAttribute("COUNT"));
        assertEquals("4000", transfer.getAttribute("TOTAL_NS"));
        assertEquals("1000", transfer.getAttribute("MIN_NS"));
        assertEquals("3000", transfer.getAttribute("MAX_NS"));
        assertEquals("2000", transfer.getAttribute("MEAN_NS"));
        NodeList buckets = transfer.getElementsByTagName("BUCKET");
        assertEquals(2, buckets.getLength());
        assertEquals("1024", ((Element) buckets.item(0)).getAttribute("UPPER_NS"));
        assertEquals("1", ((Element) buckets.item(0)).getAttribute("COUNT"));
        assertEquals("4096", ((Element) buckets.item(1)).getAttribute("UPPER_NS"));

        Element sampledSection = (Element) doc.getElementsByTagName("SAMPLED_TIMING").item(0);
        assertEquals("64", sampledSection.getAttribute("EVERY"));
        Element audit = sites(doc, "SAMPLED_TIMING").get(0);
        assertEquals("128", audit.getAttribute("COUNT"));
        assertEquals("2", audit.getAttribute("SAMPLES"));
        assertEquals("false", audit.getAttribute("EXACT"));
        long sampledTotal = Long.parseLong(audit.getAttribute("SAMPLED_TOTAL_NS"));
        assertEquals(Math.round(128.0 * sampledTotal / 2), Long.parseLong(audit.getAttribute("ESTIMATED_TOTAL_NS")));

        List<Element> values = sites(doc, "VALUES");
        assertEquals(List.of("60002", "60003"), values.stream().map(e -> e.getAttribute("ID")).toList());
        assertEquals(List.of("0", "0", "0", "0", "1", "2"), attributes(values.get(0)));
        assertEquals(List.of("2", "5", "-2", "7", "0", "0"), attributes(values.get(1)));

        Element failures = (Element) doc.getElementsByTagName("FAILURES").item(0);
        assertEquals("2", failures.getAttribute("TOTAL"));
        Element failure = sites(doc, "FAILURES").get(0);
        assertEquals("2", failure.getAttribute("COUNT"));
        assertEquals("java.lang.IllegalStateException: boom <1>", failure.getAttribute("FIRST"));
    }

    private static List<String> attributes(Element valueSite) {
        return List.of("COUNT", "SUM", "MIN", "MAX", "NULLS", "NONNULLS").stream()
                .map(valueSite::getAttribute).toList();
    }

    @Test
    void emptyReportsStillHaveEverySection() throws Exception {
        Document doc = parse(Dyper.xmlReport());
        List<String> sections = List.of("COUNTS", "CALLS", "TIMING", "SAMPLED_TIMING", "VALUES", "LOCKS", "ALLOCATIONS",
                "FIELDS", "FAILURES");
        for (String section : sections) {
            assertEquals(1, doc.getElementsByTagName(section).getLength(), section);
        }
        List<String> order = new ArrayList<>();
        NodeList children = doc.getDocumentElement().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element e) {
                order.add(e.getTagName());
            }
        }
        assertEquals(sections, order);
        assertEquals(0, doc.getElementsByTagName("SITE").getLength());
        assertEquals("0", ((Element) doc.getElementsByTagName("FAILURES").item(0)).getAttribute("TOTAL"));

        String text = Dyper.textReport();
        assertTrue(text.startsWith("Dyper report — pid " + ProcessHandle.current().pid() + ", "), text);
        assertTrue(text.contains("No events were recorded."), text);
    }

    @Test
    void valuesShowOnlyTheColumnsOfWhatWasRecorded() {
        Sites.define("81001\tMETHOD\torg.x.Shop\tprice\tint");
        Values.record(81001, 7);
        Values.record(81001, 5);
        List<String> lines = Dyper.textReport().lines().toList();
        int values = lines.indexOf("Values");
        assertTrue(values > 0, String.join("\n", lines));
        assertEquals(List.of("site", "count", "sum", "min", "max"), List.of(lines.get(values + 1).trim().split("\\s+")));
        assertEquals(List.of("org.x.Shop.price(int)", "2", "12", "5", "7"),
                List.of(lines.get(values + 2).trim().split("\\s+")));
        Values.recordRef(81001, null);
        lines = Dyper.textReport().lines().toList();
        values = lines.indexOf("Values");
        assertEquals(List.of("site", "count", "sum", "min", "max", "nulls", "non-nulls"),
                List.of(lines.get(values + 1).trim().split("\\s+")));
    }

    @Test
    void textReportNamesSitesWithCountsInCostOrder() {
        PrintStream err = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            plantKnownData();
            for (int i = 0; i < 12_345; i++) {
                Counting.count(TRANSFER);
            }
        } finally {
            System.setErr(err);
        }
        String text = Dyper.textReport();
        assertFalse(text.contains("No events were recorded."), text);
        List<String> lines = text.lines().toList();
        int counts = lines.indexOf("Counts");
        assertTrue(counts > 0, text);
        // The site column is as wide as the longest name (33 characters), the count column as "12,348".
        String row = "  %-33s  %6s";
        assertEquals(String.format(row, "site", "count"), lines.get(counts + 1));
        assertEquals(String.format(row, "org.x.Bank.transfer(int,int,long)", "12,348"), lines.get(counts + 2));
        assertEquals(String.format(row, "org.x.Bank.audit()", "5"), lines.get(counts + 3));
        assertEquals(String.format(row, NASTY, "1"), lines.get(counts + 4));

        int timing = indexStartingWith(lines, "Timing (");
        assertTrue(lines.get(timing + 1).matches("  site +calls +total +mean +min +max +p50 \\(est\\.\\) +p99 \\(est\\.\\)"),
                lines.get(timing + 1));
        assertTrue(lines.get(timing + 2).matches("  org\\.x\\.Bank\\.audit\\(\\) +1 +10\\.0 µs +10\\.0 µs +10\\.0 µs"
                + " +10\\.0 µs +10\\.0 µs +10\\.0 µs"), lines.get(timing + 2));
        assertTrue(lines.get(timing + 3).matches("  org\\.x\\.Bank\\.transfer\\(int,int,long\\) +2 +4\\.00 µs +2\\.00 µs"
                + " +1\\.00 µs +3\\.00 µs +1\\.02 µs +3\\.00 µs"), lines.get(timing + 3));

        int sampled = indexStartingWith(lines, "Sampled timing (");
        assertTrue(lines.get(sampled).contains("one call in 64"), lines.get(sampled));
        assertTrue(lines.get(sampled + 2).matches("  org\\.x\\.Bank\\.audit\\(\\) +128 +2 +.* µs +± .*"),
                lines.get(sampled + 2));

        int values = lines.indexOf("Values");
        assertTrue(lines.get(values + 2).matches("  org\\.x\\.Bank\\.audit\\(\\) +0 +- +- +- +1 +2"),
                lines.get(values + 2));
        assertTrue(lines.get(values + 3).matches("  org\\.x\\.Q<T>&'\" +2 +5 +-2 +7 +0 +0"), lines.get(values + 3));

        int failures = indexStartingWith(lines, "Failures (");
        assertTrue(lines.get(failures).startsWith("Failures (2 hook failures;"), lines.get(failures));
        assertEquals("  org.x.Bank.transfer(int,int,long)         2  java.lang.IllegalStateException: boom <1>",
                lines.get(failures + 2));
    }

    @Test
    void callsCountedAtCallSitesStayApartFromCountsInBothReports() throws Exception {
        for (int i = 0; i < 7; i++) {
            Counting.count(TRANSFER);
        }
        for (int i = 0; i < 3; i++) {
            Counting.countCall(TRANSFER);
        }
        for (int i = 0; i < 3; i++) {
            Counting.countCall(AUDIT);
        }
        for (int i = 0; i < 11; i++) {
            Counting.countCall(FEE);
        }

        Document doc = parse(Dyper.xmlReport());
        List<Element> counts = sites(doc, "COUNTS");
        assertEquals(List.of("60001"), counts.stream().map(e -> e.getAttribute("ID")).toList());
        assertEquals("7", counts.get(0).getAttribute("COUNT"));
        List<Element> calls = sites(doc, "CALLS");
        // by count descending, ties by ascending id
        assertEquals(List.of("60003", "60001", "60002"), calls.stream().map(e -> e.getAttribute("ID")).toList());
        assertEquals(List.of("11", "3", "3"), calls.stream().map(e -> e.getAttribute("COUNT")).toList());
        assertEquals(NASTY, calls.get(0).getAttribute("NAME"));
        assertEquals("org.x.Bank.transfer(int,int,long)", calls.get(1).getAttribute("NAME"));
        assertEquals(List.of("COUNT", "ID", "NAME"), attributeNames(calls.get(1)));

        String text = Dyper.textReport();
        List<String> lines = text.lines().toList();
        int countsAt = lines.indexOf("Counts");
        assertTrue(countsAt > 0, text);
        String countRow = "  %-33s  %5s";
        assertEquals(String.format(countRow, "site", "count"), lines.get(countsAt + 1));
        assertEquals(String.format(countRow, "org.x.Bank.transfer(int,int,long)", "7"), lines.get(countsAt + 2));
        assertEquals("", lines.get(countsAt + 3));
        int callsAt = lines.indexOf("Calls (counted at call sites)");
        assertTrue(callsAt > countsAt, text);
        String callRow = "  %-33s  %5s";
        assertEquals(String.format(callRow, "site", "calls"), lines.get(callsAt + 1));
        assertEquals(String.format(callRow, NASTY, "11"), lines.get(callsAt + 2));
        assertEquals(String.format(callRow, "org.x.Bank.transfer(int,int,long)", "3"), lines.get(callsAt + 3));
        assertEquals(String.format(callRow, "org.x.Bank.audit()", "3"), lines.get(callsAt + 4));
        assertTrue(callsAt + 5 == lines.size() || lines.get(callsAt + 5).isEmpty(), "three call rows:\n" + text);
    }

    @Test
    void noCallsSectionInTheTextReportWithoutCallSiteCounts() {
        Counting.count(TRANSFER);
        String text = Dyper.textReport();
        assertTrue(text.contains("\nCounts\n"), text);
        assertFalse(text.contains("Calls"), text);
    }

    private static List<String> attributeNames(Element e) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < e.getAttributes().getLength(); i++) {
            names.add(e.getAttributes().item(i).getNodeName());
        }
        names.sort(null);
        return names;
    }

    private static int indexStartingWith(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no line starts with " + prefix + " in:\n" + String.join("\n", lines));
    }

    @Test
    void reportWritesTextAndXmlFiles(@TempDir Path dir) throws Exception {
        Counting.count(TRANSFER);
        Path text = dir.resolve("out/report.txt");
        Path xml = dir.resolve("out/report.xml");
        String oldText = System.getProperty(Config.REPORT);
        System.setProperty(Config.REPORT, text.toString());
        System.setProperty(Config.REPORT_XML, xml.toString());
        try {
            Dyper.report();
        } finally {
            restore(Config.REPORT, oldText);
            System.clearProperty(Config.REPORT_XML);
        }
        assertTrue(Files.readString(text).contains("\n  org.x.Bank.transfer(int,int,long)      1\n"),
                Files.readString(text));
        Document doc = parse(Files.readString(xml));
        assertEquals("1", sites(doc, "COUNTS").get(0).getAttribute("COUNT"));
    }

    @Test
    void aFailingReportPrintsOneLineAndDoesNotThrow(@TempDir Path dir) throws Exception {
        Path blocker = Files.writeString(dir.resolve("file"), "x");
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream err = System.err;
        String oldText = System.getProperty(Config.REPORT);
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        System.setProperty(Config.REPORT, blocker.resolve("cannot/be/here.txt").toString());
        try {
            Dyper.report();
        } finally {
            System.setErr(err);
            restore(Config.REPORT, oldText);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("dyper: report failed: java.nio.file."), lines.get(0));
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    @Test
    void sampledEstimateAndStandardError() {
        // 4 samples of 100, 200, 300, 400 ns out of 400 calls: mean 250, s = 129.10, estimate 100,000 ± 400·s/2.
        Reports.SampledSite s = new Reports.SampledSite(1, 400, 4, 1000, 300_000);
        assertEquals(100_000, s.estimate(), 1e-9);
        assertEquals(400 * Math.sqrt(50_000.0 / 3) / 2, s.error(), 1e-6);
        assertFalse(s.exact());

        Reports.SampledSite all = new Reports.SampledSite(1, 4, 4, 1000, 300_000);
        assertTrue(all.exact());
        assertEquals(1000, all.estimate());
        assertEquals(0, all.error());

        Reports.SampledSite none = new Reports.SampledSite(1, 10, 0, 0, 0);
        assertEquals(0, none.estimate());
    }

    @ParameterizedTest
    @CsvSource({"0.5, 5000", "0.99, 5000"})
    void percentileOfOneDistinctValueIsExact(double q, double expected) {
        long[] buckets = new long[64];
        buckets[13] = 10;
        assertEquals(expected, Reports.percentile(buckets, 10, 5000, 5000, q));
    }

    @Test
    void percentileInterpolatesWithinTheBucket() {
        long[] buckets = new long[64];
        buckets[10] = 50;  // [512, 1024)
        buckets[20] = 50;  // [524288, 1048576)
        long max = 1_048_575;
        assertEquals(1024, Reports.percentile(buckets, 100, 600, max, 0.50));
        assertEquals(524_288 + 524_288 * 49.0 / 50, Reports.percentile(buckets, 100, 600, max, 0.99));
        assertEquals(max, Reports.percentile(buckets, 100, 600, max, 1.0), "clamped to the exact max");
        assertEquals(600, Reports.percentile(buckets, 100, 600, max, 0.001), "clamped to the exact min");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0 | 0 ns", "812 | 812 ns", "999 | 999 ns", "999.4 | 999 ns", "999.5 | 1.00 µs", "1234 | 1.23 µs",
            "12345 | 12.3 µs", "123456 | 123 µs", "999999 | 1.00 ms", "45600000 | 45.6 ms",
            "2000000000 | 2.00 s", "3.5 | 3.50 ns", "7200000000000 | 7200 s"})
    void durations(double ns, String expected) {
        assertEquals(expected, Units.duration(ns));
    }

    @Test
    void escapingKeepsXmlWellFormed() throws Exception {
        StringBuilder x = new StringBuilder("<A V='");
        Reports.escape(x, "a&b<c>d'e\"f\tg\u0001h\uD800i\uD83D\uDE00");
        x.append("'/>");
        Element a = parse(x.toString()).getDocumentElement();
        assertEquals("a&b<c>d'e\"f\tg\uFFFDh\uFFFDi\uD83D\uDE00", a.getAttribute("V"));
    }

    @Test
    void sampleEveryPropertyParsing() {
        assertEquals(64, Config.parseSampleEvery(null));
        assertEquals(10, Config.parseSampleEvery(" 10 "));
        assertEquals(1, Config.parseSampleEvery("1"));
        assertEquals(64, Config.parseSampleEvery("0"));
        assertEquals(64, Config.parseSampleEvery("-3"));
        assertEquals(64, Config.parseSampleEvery("lots"));
    }

    @Test
    void timingViaPublicApiShowsInReport() throws Exception {
        Timing.exit(AUDIT, Timing.enter(AUDIT));
        SampledTiming.exit(AUDIT, SampledTiming.enter(AUDIT));
        Document doc = parse(Dyper.xmlReport());
        assertEquals("1", sites(doc, "TIMING").get(0).getAttribute("COUNT"));
        assertEquals("1", sites(doc, "SAMPLED_TIMING").get(0).getAttribute("COUNT"));
    }
}
