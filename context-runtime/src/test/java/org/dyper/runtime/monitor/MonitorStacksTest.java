package org.dyper.runtime.monitor;

import org.dyper.runtime.wire.WireClient;
import org.dyper.testsupport.Jdk;
import static org.dyper.runtime.monitor.MonitorCommandsContract.all;
import static org.dyper.runtime.monitor.MonitorCommandsContract.first;
import static org.dyper.runtime.monitor.MonitorCommandsContract.until;
import static org.dyper.runtime.monitor.MonitorCommandsContract.xml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.dyper.runtime.monitor.targets.PlantedTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/**
 * The stack views on planted programs, on JDK 17 and 25: in each, the planted path is the heaviest of its view, with
 * the callers before the callees, and the thread's own tree holds it too. Also the thread-dump fallback, the
 * monitor's last report in the exit XML report, and the schema.
 */
class MonitorStacksTest {
    private static final String T = PlantedTarget.class.getName();

    @TempDir
    Path dir;

    /** A mode of {@link PlantedTarget}, its view, how much weight to wait for, the planted path's end and its thread. */
    record Planted(String mode, String view, long enough, String pathEnd, String thread) {
    }

    static Stream<Arguments> planted() {
        List<Planted> cases = List.of(
                new Planted("hot", "CPU", 150, T + "$$Lambda.run;" + T + ".hotAndCold;" + T
                        + ".hotCaller;" + T + ".work", "planted-hot"),
                new Planted("sync", "LOCK", 400_000_000L, T + ".syncWorker;" + T + ".syncStep;[lock " + T
                        + "$SyncLock]", "planted-lock-"),
                new Planted("reentrant", "LOCK", 400_000_000L, T + ".reentrantWorker;" + T + ".reentrantStep;"
                        + "java.util.concurrent.locks.ReentrantLock.lock;", "planted-lock-"),
                new Planted("alloc", "ALLOC", 200_000_000L, T + ".allocLoop;" + T + ".allocCaller;" + T + ".fill;"
                        + "[alloc long[]]", "planted-alloc"));
        return Stream.of(Jdk.values()).flatMap(jdk -> cases.stream().map(c -> Arguments.of(jdk, c)));
    }

    static Element view(Element report, String name) {
        return all(report, "VIEW").stream().filter(v -> v.getAttribute("NAME").equals(name)).findFirst().orElse(null);
    }

    static long total(Element view) {
        return view == null ? 0 : Long.parseLong(view.getAttribute("TOTAL"));
    }

    /** The view's direct PATH children, heaviest first as the report lists them. */
    static List<Element> paths(Element parent) {
        return MonitorCommandsContract.all(parent, "PATH").stream().filter(p -> p.getParentNode() == parent).toList();
    }

    @ParameterizedTest
    @MethodSource("planted")
    void plantedPathIsTheTopOfItsView(Jdk jdk, Planted p) throws Exception {
        Path exitXml = dir.resolve("exit.xml");
        Path exitHtml = dir.resolve("exit.html");
        try (Child child = Child.start(jdk, dir, "CHECKTIME=5", List.of("-Ddyper.report.xml=" + exitXml,
                "-Ddyper.report.html=" + exitHtml), PlantedTarget.class, p.mode())) {
            assertEquals("planted " + p.mode() + ": started", child.nextLine());
            try (WireClient c = child.client()) {
                until("the recorder samples", () -> first(xml(c.command("REPORT", "<REPORT TYPE='STACKS'/>")),
                        "STACKS").getAttribute("SOURCE").equals("JFR"));
                long before = total(view(xml(c.command("REPORT", "<REPORT TYPE='STACKS'/>")), p.view()));
                until(p.view() + " weight " + p.enough() + " from the recorder", () -> total(view(xml(c.command(
                        "REPORT", "<REPORT TYPE='STACKS'/>")), p.view())) >= before + p.enough());
                Element r = xml(c.command("REPORT", null));
                Element stacks = first(r, "STACKS");
                assertEquals("JFR", stacks.getAttribute("SOURCE"));
                assertEquals("false", stacks.getAttribute("EXACT"));
                assertEquals("0", stacks.getAttribute("DROPPED"));
                Element v = view(r, p.view());
                assertEquals("JFR", v.getAttribute("SOURCE"));
                Element top = paths(v).get(0);
                assertTrue(top.getTextContent().contains(p.pathEnd()), "top " + p.view() + " path: "
                        + top.getTextContent() + " (weight " + top.getAttribute("WEIGHT") + " of " + total(v) + ")");
                long weight = Long.parseLong(top.getAttribute("WEIGHT"));
                assertTrue(weight * 2 > total(v), "the planted path holds most of the view: " + weight + " of "
                        + total(v));
                long sum = paths(v).stream().mapToLong(e -> Long.parseLong(e.getAttribute("WEIGHT"))).sum();
                assertEquals(sum, total(v), "TOTAL is the sum of the view's paths");
                Optional<Element> thread = all(v, "THREAD").stream()
                        .filter(t -> t.getAttribute("NAME").startsWith(p.thread())).findFirst();
                assertTrue(thread.isPresent(), "a THREAD tree for " + p.thread());
                assertTrue(paths(thread.get()).get(0).getTextContent().contains(p.pathEnd()));
                if (p.mode().equals("hot")) {
                    hotAndCold(r, v);
                }
                if (p.mode().equals("reentrant")) {
                    assertTrue(top.getTextContent().endsWith(
                            ";[lock java.util.concurrent.locks.ReentrantLock$NonfairSync]"), top.getTextContent());
                }
                MonitorCommandsContract.validate(r);
            }
            assertEquals(0, child.stop(), child.stderr());
            assertEquals("planted " + p.mode() + ": started\nplanted " + p.mode() + ": stopped\n", child.stdout());
            assertEquals("", child.stderr());
        }
        Element exit = xml(Files.readString(exitXml));
        assertEquals("DYPER_REPORT", exit.getTagName());
        Element last = (Element) exit.getLastChild().getPreviousSibling();
        assertEquals("MONITOR_REPORT", last.getTagName());
        assertTrue(all(last, "INSTRUMENTATION").isEmpty());
        Element v = view(last, p.view());
        assertTrue(paths(v).get(0).getTextContent().contains(p.pathEnd()), paths(v).get(0).getTextContent());
        exitReportNamesTheRecorder(jdk, last, Files.readString(exitHtml));
    }

    /**
     * The recorder sampled this run, and the exit report says so for CPU and its stacks (issue 20: the recorder's
     * stream ends at shutdown, and the views were then labelled THREAD_DUMP), in the XML and in the page's data.
     */
    private static void exitReportNamesTheRecorder(Jdk jdk, Element last, String page) {
        assertEquals("JFR", first(last, "CPU").getAttribute("SOURCE"));
        // JDK 25 on Linux has the CPU-time sampler
        assertEquals(jdk == Jdk.JDK17 ? "jdk.ExecutionSample" : "jdk.CPUTimeSample",
                first(last, "CPU").getAttribute("EVENT"));
        assertEquals("JFR", first(last, "STACKS").getAttribute("SOURCE"));
        for (String name : List.of("CPU", "LOCK", "ALLOC")) {
            Element view = view(last, name);
            if (view != null) {
                assertEquals("JFR", view.getAttribute("SOURCE"), name);
                String unit = view.getAttribute("UNIT");
                assertTrue(page.contains("{\"name\":\"" + name + "\",\"unit\":\"" + unit + "\",\"a\":{\"NAME\":\""
                        + name + "\",\"UNIT\":\"" + unit + "\",\"SOURCE\":\"JFR\""), name + " view in the page sampled by JFR");
            }
        }
    }

    /** The hot method's two callers: the hot one far heavier; the methods table ranks the hot method first. */
    private static void hotAndCold(Element r, Element cpu) {
        long hot = paths(cpu).stream().filter(e -> e.getTextContent().endsWith(".hotCaller;" + T + ".work"))
                .mapToLong(e -> Long.parseLong(e.getAttribute("WEIGHT"))).sum();
        long cold = paths(cpu).stream().filter(e -> e.getTextContent().endsWith(".coldCaller;" + T + ".work"))
                .mapToLong(e -> Long.parseLong(e.getAttribute("WEIGHT"))).sum();
        assertTrue(cold > 0 && hot > 3 * cold, "hot caller " + hot + ", cold caller " + cold);
        Element method = first(first(first(r, "CPU"), "METHODS"), "METHOD");
        assertEquals(T, method.getAttribute("CLASS"));
        assertEquals("work", method.getAttribute("NAME"));
        Element line = first(first(first(r, "CPU"), "LINES"), "LINE");
        assertEquals("work", line.getAttribute("METHOD"));
        assertTrue(Integer.parseInt(line.getAttribute("LINE")) > 0);
    }

    /**
     * Socket I/O is CPU time in native code. JDK 17's execution sampler does not see threads there; the recorder's
     * native method samples, weighed by the threads' CPU clocks, do (JDK 25's CPU-time sampler sees them itself). A
     * program that only writes and reads a loopback socket: most of the CPU view ends in the native socket read and
     * write, and the CPU section counts it as I/O.
     */
    @ParameterizedTest
    @EnumSource(Jdk.class)
    void socketIoShowsInTheCpuViewAsIo(Jdk jdk) throws Exception {
        try (Child child = Child.start(jdk, dir, "CHECKTIME=5", PlantedTarget.class, "io")) {
            assertEquals("planted io: started", child.nextLine());
            try (WireClient c = child.client()) {
                until("100 CPU samples from the recorder", () -> {
                    Element cpu = first(xml(c.command("REPORT", "<REPORT TYPE='CPU'/>")), "CPU");
                    return cpu.getAttribute("SOURCE").equals("JFR") && Long.parseLong(cpu.getAttribute("SAMPLES")) >= 100;
                });
                Element r = xml(c.command("REPORT", null));
                Element cpu = first(r, "CPU");
                long samples = Long.parseLong(cpu.getAttribute("SAMPLES"));
                long io = Long.parseLong(cpu.getAttribute("IO_SAMPLES"));
                assertTrue(io * 2 > samples, "I/O samples " + io + " of " + samples);
                Element v = view(r, "CPU");
                long socket = paths(v).stream().filter(e -> e.getTextContent().matches(
                        ".*;sun\\.nio\\.ch\\.[A-Za-z]+\\.(read|write)v?0")).mapToLong(e -> Long.parseLong(e.getAttribute(
                        "WEIGHT"))).sum();
                assertTrue(socket * 2 > total(v), "paths ending in a native socket read or write: " + socket + " of "
                        + total(v) + "; top: " + paths(v).get(0).getTextContent());
                assertTrue(all(v, "THREAD").stream().anyMatch(t -> t.getAttribute("NAME").equals("planted-io-writer")));
                MonitorCommandsContract.validate(r);
            }
            assertEquals(0, child.stop(), child.stderr());
        }
    }

    @Test
    void threadDumpsSampleWhenAskedTo() throws Exception {
        try (Child child = Child.start(Jdk.JDK17, dir, "SAMPLER=THREAD_DUMP,CHECKTIME=5", PlantedTarget.class,
                "hot")) {
            assertEquals("planted hot: started", child.nextLine());
            try (WireClient c = child.client()) {
                until("100 CPU samples", () -> total(view(xml(c.command("REPORT", "<REPORT TYPE='STACKS'/>")),
                        "CPU")) >= 100);
                Element r = xml(c.command("REPORT", null));
                assertEquals("THREAD_DUMP", first(r, "STACKS").getAttribute("SOURCE"));
                assertEquals("THREAD_DUMP", first(r, "CPU").getAttribute("SOURCE"));
                assertEquals("", first(r, "CPU").getAttribute("EVENT"));
                Element cpu = view(r, "CPU");
                assertEquals("THREAD_DUMP", cpu.getAttribute("SOURCE"));
                assertTrue(paths(cpu).get(0).getTextContent().endsWith(T + ".hotCaller;" + T + ".work"));
                assertEquals("MXBEAN", first(r, "GC").getAttribute("SOURCE"));
                assertTrue(view(r, "ALLOC") == null, "no allocation samples without the recorder");
                MonitorCommandsContract.validate(r);
            }
            assertEquals(0, child.stop(), child.stderr());
        }
    }

    @Test
    void withoutTheRecorderModuleThreadDumpsSample() throws Exception {
        try (Child child = Child.start(Jdk.JDK17, dir, "CHECKTIME=5",
                List.of("--limit-modules", "java.base,java.instrument,java.management,java.xml,jdk.management"),
                PlantedTarget.class, "hot")) {
            assertEquals("planted hot: started", child.nextLine());
            try (WireClient c = child.client()) {
                // and the recorder tried (its thread may start after 50 samples on a busy machine: EVENT is '' until then)
                until("50 CPU samples, and the recorder tried", () -> total(view(xml(c.command("REPORT",
                        "<REPORT TYPE='STACKS'/>")), "CPU")) >= 50 && !first(xml(c.command("REPORT",
                        "<REPORT TYPE='CPU'/>")), "CPU").getAttribute("EVENT").isEmpty());
                Element r = xml(c.command("REPORT", null));
                Element cpu = first(r, "CPU");
                assertEquals("THREAD_DUMP", cpu.getAttribute("SOURCE"));
                assertTrue(cpu.getAttribute("EVENT").startsWith("no flight recorder: "), cpu.getAttribute("EVENT"));
                String top = paths(view(r, "CPU")).get(0).getTextContent();
                assertTrue(top.endsWith(T + ".hotCaller;" + T + ".work"), top);
            }
            assertEquals(0, child.stop(), child.stderr());
            assertEquals("", child.stderr());
        }
    }

    @Test
    void monitorThreadsAreNotSampledButTheirCostIsShown() throws Exception {
        try (Child child = Child.start(Jdk.JDK17, dir, "CHECKTIME=5", PlantedTarget.class, "hot")) {
            assertEquals("planted hot: started", child.nextLine());
            try (WireClient c = child.client()) {
                until("JFR samples", () -> total(view(xml(c.command("REPORT", "<REPORT TYPE='STACKS'/>")),
                        "CPU")) >= 100);
                Element r = xml(c.command("REPORT", null));
                Element cpu = first(r, "CPU");
                assertTrue(Long.parseLong(cpu.getAttribute("MONITOR_CPU_NS")) > 0);
                for (Element v : all(r, "VIEW")) {
                    for (Element t : all(v, "THREAD")) {
                        assertFalse(t.getAttribute("NAME").startsWith("dyper-monitor-"), t.getAttribute("NAME"));
                        assertFalse(t.getAttribute("NAME").startsWith("JFR "), t.getAttribute("NAME"));
                    }
                }
                for (Element path : all(xml(c.command("REPORT", "<REPORT TYPE='STACKS'/>")), "PATH")) {
                    for (String own : List.of("org.dyper.runtime.monitor.internal.", "org.dyper.runtime.wire.")) {
                        assertFalse(path.getTextContent().contains(own), ((Element) path
                                .getParentNode()).getAttribute("NAME") + ": " + path.getTextContent());
                    }
                }
            }
            assertEquals(0, child.stop(), child.stderr());
        }
    }
}
