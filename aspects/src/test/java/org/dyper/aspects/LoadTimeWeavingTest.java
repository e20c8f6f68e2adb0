package org.dyper.aspects;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.ltw.Workload;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.aspectj.lang.JoinPoint;
import org.aspectj.weaver.loadtime.Agent;
import org.dyper.runtime.Dyper;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Weaves {@link Workload} at load time with each abstract aspect made concrete in a plain
 * {@code aop.xml}, on JDK 17 (this JVM's) and JDK 25, and checks the exact counts in the XML report,
 * that no hook failed, and that the program's output is unchanged.
 */
class LoadTimeWeavingTest {
    private static final String W = "com.acme.ltw.Worker.";
    /** Executions per site in one run of {@link Workload}; nothing else may be reported. */
    private static final Map<String, Long> EXPECTED = expected();
    private static final int SAMPLE_EVERY = 10;

    @TempDir
    Path dir;

    enum Kind {
        COUNTING(CountingAspect.class, "COUNTS"),
        TIMING(TimingAspect.class, "TIMING"),
        SAMPLED_TIMING(SampledTimingAspect.class, "SAMPLED_TIMING");

        final Class<?> aspect;
        final String section;

        Kind(Class<?> aspect, String section) {
            this.aspect = aspect;
            this.section = section;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.values()) {
            for (Kind kind : Kind.values()) {
                cases.add(Arguments.of(jdk, kind));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("cases")
    void reportsExactCountsPerSite(Jdk jdk, Kind kind) throws Exception {
        Path java = jdk.java();
        Processes.Result plain = run(java, jdk, null, List.of());
        assertEquals(0, plain.exit(), plain::describe);
        assertEquals(Workload.OUTPUT + System.lineSeparator(), plain.out(), plain::describe);

        Path report = dir.resolve("report.xml");
        Processes.Result woven = run(java, jdk, kind, List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report,
                "-Ddyper.sample.every=" + SAMPLE_EVERY));
        assertEquals(0, woven.exit(), woven::describe);
        assertEquals(plain.out(), woven.out(), "weaving changed the program's output\n" + woven.describe());
        assertFalse(woven.err().contains("hook failed"), woven::describe);
        assertFalse(woven.err().contains("error"), woven::describe);

        Element doc = XmlReports.parse(report);
        assertEquals("0", XmlReports.section(doc, "FAILURES").getAttribute("TOTAL"), woven::describe);
        Map<String, Element> sites = sites(doc, kind.section);
        Map<String, Long> counts = new TreeMap<>();
        sites.forEach((name, site) -> counts.put(name, Long.parseLong(site.getAttribute("COUNT"))));
        assertEquals(new TreeMap<>(EXPECTED), counts, "COUNT per site in " + kind.section);
        for (Kind other : Kind.values()) {
            if (other != kind) {
                assertEquals(Map.of(), sites(doc, other.section), other.section + " should be empty");
            }
        }
        for (Element site : sites.values()) {
            assertTrue(Integer.parseInt(site.getAttribute("ID")) < 0, "run-time site ids are negative");
        }
        if (kind == Kind.TIMING) {
            for (Map.Entry<String, Element> e : sites.entrySet()) {
                assertEquals(EXPECTED.get(e.getKey()), bucketTotal(e.getValue()), "histogram of " + e.getKey());
                long min = Long.parseLong(e.getValue().getAttribute("MIN_NS"));
                long max = Long.parseLong(e.getValue().getAttribute("MAX_NS"));
                assertTrue(0 <= min && min <= max, "MIN_NS <= MAX_NS at " + e.getKey());
            }
        }
        if (kind == Kind.SAMPLED_TIMING) {
            // One call in 10 per thread: 250 calls of hot() in each of 4 threads give about 100 samples
            // whatever the sampler's phase, and whether it counts per site or per thread.
            long samples = Long.parseLong(sites.get(W + "hot(int)").getAttribute("SAMPLES"));
            assertTrue(96 <= samples && samples <= 104, "samples of hot(int): " + samples);
        }
    }

    /** With monitoring off the woven program reports nothing and runs as before. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Jdk.class)
    void disabledMonitoringReportsNothing(Jdk jdk) throws Exception {
        Path java = jdk.java();
        Path report = dir.resolve("report.xml");
        Processes.Result woven = run(java, jdk, Kind.TIMING, List.of("-Ddyper.enabled=false", "-Ddyper.report=none",
                "-Ddyper.report.xml=" + report));
        assertEquals(0, woven.exit(), woven::describe);
        assertEquals(Workload.OUTPUT + System.lineSeparator(), woven.out(), woven::describe);
        Element doc = XmlReports.parse(report);
        for (Kind kind : Kind.values()) {
            assertEquals(Map.of(), sites(doc, kind.section), kind.section);
        }
    }

    /**
     * Without dyper-runtime on the class path every advice fails (NoClassDefFoundError), and so does
     * reporting that failure: the program must still run as if not woven.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Kind.class)
    void missingRuntimeNeverReachesTheProgram(Kind kind) throws Exception {
        Processes.Result woven = run(Jdk.JDK17.java(), Jdk.JDK17, kind, false, List.of());
        assertEquals(0, woven.exit(), woven::describe);
        assertEquals(Workload.OUTPUT + System.lineSeparator(), woven.out(), woven::describe);
        assertEquals("", woven.err(), woven::describe);
    }

    private static Map<String, Long> expected() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("com.acme.ltw.Workload.main(java.lang.String[])", 1L);
        m.put(W + "<init>(int)", (long) Workload.THREADS);
        m.put(W + "run()", (long) Workload.THREADS);
        m.put(W + "hot(int)", (long) Workload.THREADS * Workload.HOT_PER_THREAD);
        m.put(W + "result()", (long) Workload.THREADS);
        m.put(W + "cold(long)", 7L);
        m.put(W + "check(int)", 10L);
        m.put("com.acme.ltw.Node.<init>(int)", 5L);
        m.put("com.acme.ltw.Node.length()", 4L);
        return m;
    }

    /** Runs {@link Workload}, woven with {@code kind} when not null. */
    private Processes.Result run(Path java, Jdk jdk, Kind kind, List<String> properties) throws Exception {
        return run(java, jdk, kind, true, properties);
    }

    private Processes.Result run(Path java, Jdk jdk, Kind kind, boolean withRuntime, List<String> properties)
            throws Exception {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        List<Path> classPath = new ArrayList<>();
        if (kind != null) {
            if (jdk.feature() >= 24) {
                command.add("--sun-misc-unsafe-memory-access=allow");
            }
            command.add("-javaagent:" + codeSource(Agent.class));
            Path config = Files.createDirectories(dir.resolve("ltw-" + kind).resolve("META-INF"));
            Files.writeString(config.resolve("aop.xml"), aopXml(kind));
            classPath.add(config.getParent());
            classPath.add(codeSource(kind.aspect));
            if (withRuntime) {
                classPath.add(codeSource(Dyper.class));
            }
            classPath.add(codeSource(JoinPoint.class));
        }
        classPath.add(codeSource(Workload.class));
        command.addAll(properties);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList()));
        command.add(Workload.class.getName());

        return Processes.run(command, Duration.ofMinutes(2));
    }

    private static String aopXml(Kind kind) {
        return "<aspectj>\n"
                + "  <aspects>\n"
                + "    <concrete-aspect name=\"com.acme.ltw.Dyper" + kind.aspect.getSimpleName() + "\""
                + " extends=\"" + kind.aspect.getName() + "\">\n"
                + "      <pointcut name=\"scope\""
                + " expression=\"execution(* com.acme..*(..)) || execution(com.acme..new(..))\"/>\n"
                + "    </concrete-aspect>\n"
                + "  </aspects>\n"
                + "  <weaver><include within=\"com.acme..*\"/></weaver>\n"
                + "</aspectj>\n";
    }

    private static Path codeSource(Class<?> type) throws URISyntaxException {
        return Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static Map<String, Element> sites(Element doc, String sectionName) {
        Map<String, Element> sites = new TreeMap<>();
        NodeList children = XmlReports.section(doc, sectionName).getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element site && site.getTagName().equals("SITE")) {
                Element previous = sites.put(site.getAttribute("NAME"), site);
                assertEquals(null, previous, "site listed twice in " + sectionName + ": " + site.getAttribute("NAME"));
            }
        }
        return sites;
    }

    private static long bucketTotal(Element site) {
        long total = 0;
        NodeList buckets = site.getElementsByTagName("BUCKET");
        for (int i = 0; i < buckets.getLength(); i++) {
            total += Long.parseLong(((Element) buckets.item(i)).getAttribute("COUNT"));
        }
        return total;
    }
}
