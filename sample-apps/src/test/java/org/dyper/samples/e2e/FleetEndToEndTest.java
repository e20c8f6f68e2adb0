package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.runtime.wire.Xml;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.phases.PhaseFacts;
import org.dyper.samples.phases.PhasedApp;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * Many JVMs of one program on this machine (issue 24, the local fleet): three phases samples under the monitor (JDK
 * 17, 25, 17), patched at run time, running 1, 2 and 3 phases. {@code dyper report --all} makes one report whose
 * exact figures are the sums of theirs and whose per-JVM figures are each JVM's own; a JVM that is stopped is named,
 * the exit code says so, and the report holds the others.
 */
class FleetEndToEndTest {
    @TempDir
    Path dir;
    @TempDir
    static Path shared;

    private static final String MAIN = PhasedApp.class.getName();

    private Run dyper(String... args) {
        return E2e.dyper(args);
    }

    @Test
    void oneReportOfThreeJvmsHoldsTheirSumsAndEachOne() throws Exception {
        Path registry = dir.resolve("registry");
        Path[] paths = RuntimePatchingEndToEndTest.layout(dir);
        List<Jdk> jdks = List.of(Jdk.JDK17, Jdk.JDK25, Jdk.JDK17);
        List<Running> jvms = new ArrayList<>();
        long stopped = -1;
        try {
            for (Jdk jdk : jdks) {
                jvms.add(MonitorEndToEndTest.start(List.of(jdk.java().toString(), "-Xmx64m", "-javaagent:"
                        + MonitorEndToEndTest.runtimeJar() + "=dir=" + registry, "-Ddyper.report=none", "-cp",
                        paths[0].toString(), MAIN, paths[1].toString()), jdk.home().toString()));
            }
            Await.until("three monitors in " + registry, () -> dyper("ctl", "--dir", registry.toString(), "who").out(),
                    out -> out.lines().count() == 3, Await.MINUTE);
            // one model, woven once, into the three of them; one line each
            Run in = dyper("ctl", "--dir", registry.toString(), "--all", "--main", "PhasedApp", "instrument", "--model",
                    E2e.MODELS.resolve("phases.xml").toString(), "--cache", shared.resolve("cache").toString());
            assertEquals(0, in.exit(), in.err());
            for (Running j : jvms) {
                assertTrue(in.out().lines().anyMatch(l -> l.startsWith("dyper: model 'phases' instrumented in process "
                        + j.pid() + " (" + MAIN + "): 2 class(es) patched now, 1 when they load (site ids ")), in.out());
            }
            assertTrue(in.out().contains("dyper: 3 of 3 JVM(s) instrumented in "), in.out());
            Map<Long, Integer> phases = new LinkedHashMap<>();
            for (int i = 0; i < jvms.size(); i++) {
                long pid = jvms.get(i).pid();
                for (int p = 1; p <= i + 1; p++) {
                    jvms.get(i).send("phase");
                    assertEquals(PhaseFacts.output(p, true).get(p - 1), jvms.get(i).line(p - 1,
                            MonitorEndToEndTest.LINE));
                }
                phases.put(pid, i + 1);
            }

            Path html = dir.resolve("fleet.html");
            Path xml = dir.resolve("fleet.xml");
            Run all = dyper("report", "--all", "--main", "PhasedApp", "--dir", registry.toString(), "--out",
                    html.toString(), "--xml", xml.toString());
            assertEquals(0, all.exit(), all.err());
            assertEquals("dyper: wrote " + xml + " (the merged report of 3 JVMs)", all.out().lines().findFirst()
                    .orElseThrow());
            assertTrue(all.out().contains("dyper: wrote " + html + " ("), all.out());
            Element root = Xml.parse(Files.readString(xml));
            checkSums(root, phases);
            String page = Files.readString(html);
            assertTrue(page.contains("\"t\":\"FLEET\""), "the page has the JVMs");

            // a stopped JVM: named, exit 7, the report holds the other two
            stopped = jvms.get(2).pid();
            Processes.signal(stopped, "STOP");
            Run some = dyper("report", "--all", "--main", MAIN, "--dir", registry.toString(), "--timeout", "2000",
                    "--out", html.toString(), "--xml", xml.toString());
            assertEquals(7, some.exit(), some.err());
            assertEquals("dyper: warning: process " + stopped + " (" + MAIN + ") did not answer within 2000 ms\n",
                    some.err());
            Run ping = dyper("ctl", "--dir", registry.toString(), "--all", "--timeout", "2000", "PING");
            assertEquals(7, ping.exit(), ping.err());
            assertEquals(2, ping.out().lines().filter(l -> l.equals("PONG")).count(), ping.out());
            assertTrue(ping.err().contains("dyper: error: process " + stopped + " (" + MAIN + ") did not answer within "
                    + "2000 ms\n"), ping.err());
            Processes.signal(stopped, "CONT");
            stopped = -1;
            Map<Long, Integer> two = new LinkedHashMap<>(phases);
            two.remove(jvms.get(2).pid());
            Element partial = Xml.parse(Files.readString(xml));
            checkSums(partial, two);
            Element fleet = Xml.child(partial, "FLEET");
            assertEquals("2", fleet.getAttribute("ANSWERED"));
            assertEquals("MISSING", Xml.children(fleet, "JVM").stream().filter(j -> j.getAttribute("PID")
                    .equals(Long.toString(jvms.get(2).pid()))).findFirst().orElseThrow().getAttribute("STATUS"));

            for (int i = 0; i < jvms.size(); i++) {
                jvms.get(i).send("exit");
                assertEquals(0, jvms.get(i).stop(MonitorEndToEndTest.STOP), jvms.get(i).stderr());
                assertEquals(PhaseFacts.output(i + 1, true), jvms.get(i).lines(), "the program's output is its own");
            }
        } finally {
            if (stopped > 0) {
                Processes.signal(stopped, "CONT");
            }
            jvms.forEach(Running::close);
        }
    }

    /** The merged figures are the sums over {@code phases} (pid: phases run), each JVM's its own. */
    private static void checkSums(Element root, Map<Long, Integer> phases) {
        Element merged = Xml.child(Xml.child(root, "INSTRUMENTATION"), "DYPER_REPORT");
        long allPhases = phases.values().stream().mapToLong(Integer::longValue).sum();
        long laterPhases = phases.values().stream().mapToLong(p -> p - 1).sum();
        assertEquals(Map.of("work", allPhases * PhaseFacts.CALLS, "twice", laterPhases * PhaseFacts.LATER_CALLS,
                "plugin", allPhases * PhaseFacts.PLUGIN_CALLS), figures(merged), "summed over " + phases);
        Map<Long, Map<String, Long>> each = new LinkedHashMap<>();
        Map<Long, Map<String, Long>> expected = new LinkedHashMap<>();
        for (Element jvm : Xml.children(Xml.child(root, "FLEET"), "JVM")) {
            long pid = Long.parseLong(jvm.getAttribute("PID"));
            if (!jvm.getAttribute("STATUS").equals("OK")) {
                continue;
            }
            each.put(pid, figures(Xml.child(jvm, "DYPER_REPORT")));
            int p = phases.get(pid);
            expected.put(pid, Map.of("work", (long) p * PhaseFacts.CALLS, "twice", (long) (p - 1) * PhaseFacts.LATER_CALLS,
                    "plugin", (long) p * PhaseFacts.PLUGIN_CALLS));
        }
        assertEquals(expected, each, "each JVM's own");
    }

    private static Map<String, Long> figures(Element report) {
        return Map.of("work", value(report, "TIMING", PhaseFacts.WORK), "twice", value(report, "COUNTS",
                PhaseFacts.TWICE), "plugin", value(report, "SAMPLED_TIMING", PhaseFacts.PLUGIN));
    }

    private static long value(Element report, String section, String site) {
        for (Element s : Xml.children(Xml.child(report, section), "SITE")) {
            if (s.getAttribute("NAME").equals(site)) {
                return Long.parseLong(s.getAttribute("COUNT"));
            }
        }
        return 0;
    }
}
