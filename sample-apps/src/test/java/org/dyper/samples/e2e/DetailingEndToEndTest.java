package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.dyper.cli.Main;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.samples.detail.DetailApp;
import org.dyper.samples.detail.DetailFacts;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/**
 * Automatic detailing, on JDK 17 and 25: {@code dyper run --detail} runs the detail sample, driven over stdin. The
 * cooling method is hot in the first phase and gets patched; in the second phase the hot method takes over, gets
 * patched, and the cooling one is un-patched once its share of the recent window (DETAIL_WINDOW) falls below the STOP
 * threshold, while its share of all samples is still above it; the cheap method called very often is never detailed. Then the spinning stops and the program makes exactly N calls of the hot method: its
 * exact count grows by exactly N. The output is the unmonitored run's. Every wait is on a condition, with a generous
 * deadline: how long sampling takes to find a method depends on the machine's load, never what it finds.
 */
class DetailingEndToEndTest {
    /** Thresholds that tell the phases apart on a loaded machine: a share of 30% starts detailing, 20% stops it. */
    static final String THRESHOLDS = "METHOD_DETAIL_MIN_TOTAL=50,METHOD_DETAIL_MINIMUM=20,METHOD_DETAIL_THRESHOLD=0.3,"
            + "METHOD_DETAIL_STOP_THRESHOLD=0.2,CLASS_DETAIL_MINIMUM=1000000000000";
    /** The recent window the thresholds decide on, in the first test. */
    static final String WINDOW = "DETAIL_WINDOW=2000";
    /**
     * Rounds of the cool phase: enough samples of the cooling method that its share of all samples stays above the
     * STOP threshold for a hot phase four times as long, however long weaving the new versions takes.
     */
    static final int COOL_ROUNDS = 5;
    static final int CALLS = 3000;
    private static final Duration DEADLINE = Duration.ofMinutes(5);

    @TempDir
    Path dir;
    @TempDir
    static Path shared;

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void theHotMethodIsDetailedTheCooledOneRemovedTheCheapOneNever(Jdk jdk) throws Exception {
        Path xml = dir.resolve("report.xml");
        Path text = dir.resolve("report.txt");
        Path registry = dir.resolve("registry");
        MonitorEndToEndTest.runtimeJar();
        Running t = MonitorEndToEndTest.start(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--detail",
                "--report", text.toString(), "--xml", xml.toString(), "--cache", shared.resolve("cache").toString(),
                "--monitor", "dir=" + registry + "," + THRESHOLDS + "," + WINDOW, "--", "-cp",
                E2e.appClasses().toString(), DetailApp.class.getName()), jdk.home().toString());
        long exactBefore;
        long exactAfter;
        try {
            for (int i = 0; i < COOL_ROUNDS; i++) {
                t.send("cool");
                t.line(i, MonitorEndToEndTest.LINE);
            }
            long pid = monitored(registry);
            await(registry, pid, "the cooling method patched", d -> state(d, DetailFacts.COOLING, "cool")
                    .equals("PATCHED"));
            t.send("hot");
            t.line(COOL_ROUNDS, MonitorEndToEndTest.LINE);
            await(registry, pid, "the hot method patched and the cooled one removed", d -> state(d, DetailFacts.HOT,
                    "hot").equals("PATCHED") && state(d, DetailFacts.COOLING, "cool").equals("REMOVED"));
            double share = cumulativeShare(registry, pid, DetailFacts.COOLING, "cool");
            assertTrue(share >= 0.2, "un-patched on its share of the recent window, while its share of all samples ("
                    + share + ") is still above METHOD_DETAIL_STOP_THRESHOLD");
            t.send("stop");
            t.line(COOL_ROUNDS + 1, MonitorEndToEndTest.LINE);
            Element before = detail(registry, pid);
            var schema = javax.xml.validation.SchemaFactory.newInstance(javax.xml.XMLConstants.W3C_XML_SCHEMA_NS_URI)
                    .newSchema(org.dyper.runtime.monitor.MonitorAgent.class.getResource("monitor-report.xsd"));
            schema.newValidator().validate(new javax.xml.transform.dom.DOMSource(MonitorEndToEndTest.all(
                    MonitorEndToEndTest.xml(detailText(registry, pid)), "MONITOR_REPORT").get(0)));
            exactBefore = exactCount(before, DetailFacts.HOT, "hot");
            t.send("calls " + CALLS);
            t.line(COOL_ROUNDS + 2, MonitorEndToEndTest.LINE);
            Element after = detail(registry, pid);
            exactAfter = exactCount(after, DetailFacts.HOT, "hot");
            assertEquals("PATCHED", state(after, DetailFacts.HOT, "hot"), "still patched");
            assertEquals(CALLS, exactAfter - exactBefore, "the exact count grows by the calls the program made "
                    + "while the method was patched");
            assertNull(detailed(after, DetailFacts.CHEAP, "cheap"), "the cheap method is never detailed");
            assertEquals(DetailFacts.CHEAP_PER_HOT * exactAfter, call(after, DetailFacts.CHEAP + ".cheap(int)"),
                    "the calls the hot method made, counted exactly");
            Element est = MonitorEndToEndTest.all(detailed(after, DetailFacts.HOT, "hot"), "ESTIMATE").get(0);
            assertTrue(Long.parseLong(est.getAttribute("TOTAL")) > 0, "the sampled estimate beside it");

            Run listed = E2e.dyper("ctl", "--dir", registry.toString(), Long.toString(pid), "instrumented");
            assertEquals(0, listed.exit(), listed.err());
            assertTrue(listed.out().contains("Detailed now by automatic detailing (model dyper-detail): "),
                    listed.out());
            assertTrue(listed.out().lines().anyMatch(l -> l.matches("  " + DetailFacts.HOT.replace(".", "\\.")
                    + "\\.hot +\\d{4}-.* " + exactAfter)), listed.out());
            assertTrue(listed.out().lines().noneMatch(l -> l.startsWith("  " + DetailFacts.COOLING + ".cool ")),
                    listed.out());
            t.send("exit");
            assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
        } finally {
            t.close();
        }
        assertEquals(plain(jdk), t.lines(), "the output of an unmonitored run");

        Element exit = MonitorEndToEndTest.xml(Files.readString(xml));
        long timed = 0;
        for (Element site : MonitorEndToEndTest.all(MonitorEndToEndTest.all(exit, "TIMING").get(0), "SITE")) {
            if (site.getAttribute("NAME").equals(DetailFacts.HOT + ".hot(int)")) {
                timed += Long.parseLong(site.getAttribute("COUNT"));
            }
        }
        Element last = MonitorEndToEndTest.all(exit, "MONITOR_REPORT").get(0);
        Element lastDetail = MonitorEndToEndTest.all(last, "DETAIL").get(0);
        assertEquals(exactAfter, exactCount(lastDetail, DetailFacts.HOT, "hot"), "no hot call after the last one");
        assertEquals(exactAfter, timed, "the exit report's TIMING holds the same calls");
        assertTrue(lastDetail.hasAttribute("STARTED"), "when detailing started");
        String report = Files.readString(text);
        assertTrue(report.contains("Timing (every call timed") && report.contains(DetailFacts.HOT + ".hot(int)"),
                report);
    }

    /**
     * {@code -javaagent:...=detail=true,cli=<the dyper script>}: no launcher serves a patch service, so the monitor
     * starts {@code dyper patchd --pid <own pid>} itself, and details the cooling method; the service ends with the
     * program.
     */
    @org.junit.jupiter.api.Test
    void theAgentAloneStartsItsOwnPatchService() throws Exception {
        Path cli = E2e.REPO.resolve("dyper");
        Skip.unless(Files.isRegularFile(E2e.REPO.resolve("weaver-cli/target/dyper-cli.jar")),
                "the dyper command line is not packaged (weaver-cli/target/dyper-cli.jar): run mvn verify");
        Path registry = dir.resolve("registry");
        Running t = MonitorEndToEndTest.start(List.of(Jdk.JDK17.java().toString(), "-javaagent:"
                + MonitorEndToEndTest.runtimeJar() + "=dir=" + registry + ",detail=true,cli=" + cli + "," + THRESHOLDS,
                "-Ddyper.report=none", "-cp", E2e.appClasses().toString(), DetailApp.class.getName()),
                Jdk.JDK17.home().toString(), java.util.Map.of("XDG_CACHE_HOME", shared.resolve("xdg").toString()));
        try {
            t.send("cool");
            t.line(0, MonitorEndToEndTest.LINE);
            long pid = t.process().pid();
            await(registry, pid, "the cooling method patched", d -> state(d, DetailFacts.COOLING, "cool")
                    .equals("PATCHED"));
            assertTrue(Files.isRegularFile(registry.resolve(pid + ".patchd.log")));
            t.send("exit");
            assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
            assertEquals(List.of("cool: sum=" + t.lines().get(0).substring("cool: sum=".length()), "done"), t.lines());
            Await.until("the patch service ends with the program (its entry " + registry.resolve(pid + ".patchd")
                    + " goes)", () -> !Files.exists(registry.resolve(pid + ".patchd")), Await.MINUTE);
        } finally {
            t.close();
        }
    }

    /** The program's pid: under dyper run, the one monitored process of the registry. */
    private static long monitored(Path registry) throws Exception {
        return Await.until("one monitored process registered in " + registry, () -> MonitorEntry.list(registry,
                true), all -> all.size() == 1, DEADLINE).get(0).pid();
    }

    private static Element detail(Path registry, long pid) throws Exception {
        return MonitorEndToEndTest.all(MonitorEndToEndTest.xml(detailText(registry, pid)), "DETAIL").get(0);
    }

    private static String detailText(Path registry, long pid) throws Exception {
        try (WireClient c = MonitorEntry.of(registry, pid).connect(false)) {
            c.timeout(60_000);
            return c.command("REPORT", "<REPORT TYPE='DETAIL'/>");
        }
    }

    /** The method's TOTAL samples over all samples, from the CPU section (cumulative: since the monitor started). */
    private static double cumulativeShare(Path registry, long pid, String cls, String method) throws Exception {
        Element cpu;
        try (WireClient c = MonitorEntry.of(registry, pid).connect(false)) {
            c.timeout(60_000);
            cpu = MonitorEndToEndTest.all(MonitorEndToEndTest.xml(c.command("REPORT", "<REPORT TYPE='CPU'/>")), "CPU")
                    .get(0);
        }
        long total = MonitorEndToEndTest.all(cpu, "METHOD").stream().filter(m -> m.getAttribute("CLASS").equals(cls)
                && m.getAttribute("NAME").equals(method)).mapToLong(m -> Long.parseLong(m.getAttribute("TOTAL")))
                .sum();
        return (double) total / Long.parseLong(cpu.getAttribute("SAMPLES"));
    }

    /** Polls the DETAIL section until {@code condition} holds; the failure shows the last one seen. */
    private static void await(Path registry, long pid, String what, Predicate<Element> condition) throws Exception {
        Await.until(what, () -> detailText(registry, pid), last -> {
            try {
                return condition.test(MonitorEndToEndTest.all(MonitorEndToEndTest.xml(last), "DETAIL").get(0));
            } catch (Exception e) {
                throw new AssertionError("the DETAIL reply does not parse: " + last, e);
            }
        }, DEADLINE);
    }

    private static Element detailed(Element detail, String cls, String method) {
        return MonitorEndToEndTest.all(detail, "DETAILED").stream().filter(d -> d.getAttribute("CLASS").equals(cls)
                && d.getAttribute("NAME").equals(method)).findFirst().orElse(null);
    }

    private static String state(Element detail, String cls, String method) {
        Element d = detailed(detail, cls, method);
        return d == null ? "" : d.getAttribute("STATE");
    }

    private static long exactCount(Element detail, String cls, String method) {
        Element d = detailed(detail, cls, method);
        assertTrue(d != null, cls + "." + method + " is not detailed");
        Element exact = MonitorEndToEndTest.all(d, "EXACT").get(0);
        assertEquals("true", exact.getAttribute("EXACT"));
        return Long.parseLong(exact.getAttribute("COUNT"));
    }

    private static long call(Element detail, String name) {
        return MonitorEndToEndTest.all(detail, "CALL").stream().filter(c -> c.getAttribute("NAME").equals(name))
                .mapToLong(c -> Long.parseLong(c.getAttribute("COUNT"))).sum();
    }

    /** The same commands without Dyper. */
    private static List<String> plain(Jdk jdk) throws Exception {
        Process p = new ProcessBuilder(jdk.java().toString(), "-cp", E2e.appClasses().toString(),
                DetailApp.class.getName()).redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(("cool\n".repeat(COOL_ROUNDS) + "hot\nstop\ncalls " + CALLS + "\nexit\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(180, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return new ArrayList<>(out.lines().toList());
    }
}
