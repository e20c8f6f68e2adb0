package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.dyper.cli.Main;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.phases.PhaseFacts;
import org.dyper.samples.phases.PhasedApp;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.NatsServer;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24's acceptance: three JVMs of the phases sample on one real nats-server, run with docs/fleet.md's
 * configuration: two started by {@code dyper run --nats} (JDK 17 and JDK 25), one on JDK 25 (17 without one) that
 * joins with {@code dyper ctl attach PID --options nats=...}. {@code who} lists all three; REPORT from each; a
 * read-only user can neither instrument nor SET; one {@code --all instrument} patches all three (woven once), and
 * each one's exit report holds exactly the phases it was in for; the broker killed and started again while the
 * programs run: their output is their own, the monitors come back by themselves and {@code --all uninstrument}
 * works; then a question asked of all three is answered exactly by each.
 */
class FleetNatsEndToEndTest {
    static final String MAIN = PhasedApp.class.getName();

    @TempDir
    Path dir;

    private NatsServer server;

    private Run ctl(String user, String... args) {
        List<String> all = new ArrayList<>(List.of("ctl", "--nats", server.url(), "--user", user, "--password",
                user + "-secret"));
        all.addAll(Arrays.asList(args));
        return E2e.dyper(all.toArray(String[]::new));
    }

    private Running run(Jdk jdk, Path report, Path[] paths) throws Exception {
        MonitorEndToEndTest.runtimeJar();
        return MonitorEndToEndTest.start(List.of(Processes.currentJava().toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", "--nats",
                server.url("monitor", "monitor-secret"), "--report", "none", "--xml", report.toString(), "--monitor",
                "dir=" + dir.resolve("registry"), "--", "-cp", paths[0].toString(), MAIN, paths[1].toString()),
                jdk.home().toString());
    }

    private static void phase(List<Running> jvms, int n) throws Exception {
        for (Running t : jvms) {
            t.send("phase");
        }
        for (Running t : jvms) {
            assertEquals(PhaseFacts.output(n, true).get(n - 1), t.line(n - 1, MonitorEndToEndTest.LINE), t.stderr());
        }
    }

    /** The ids {@code who} lists once {@code n} JVMs answer (waiting for them to (re)connect). */
    private List<String[]> who(int n) {
        String out = Await.until(n + " JVMs in dyper ctl --nats who", () -> ctl("reader", "who").out(),
                o -> o.lines().count() == n, Duration.ofSeconds(60));
        return out.lines().map(l -> l.split("  ")).toList();
    }

    @Test
    void threeJvmsOneInstrumentABrokerRestart() throws Exception {
        server = NatsServer.start(NatsServer.configFrom(E2e.REPO.resolve("docs/fleet.md"), dir), dir);
        Jdk second = Jdk.JDK25.available() ? Jdk.JDK25 : Jdk.JDK17;
        Path[] paths = RuntimePatchingEndToEndTest.layout(dir);
        Path[] reports = {dir.resolve("a.xml"), dir.resolve("b.xml"), dir.resolve("c.xml")};
        List<Running> jvms = new ArrayList<>();
        try {
            jvms.add(run(Jdk.JDK17, reports[0], paths));
            jvms.add(run(second, reports[1], paths));
            jvms.add(MonitorEndToEndTest.start(List.of(second.java().toString(), "-Ddyper.report=none",
                    "-Ddyper.report.xml=" + reports[2], "-cp", paths[0].toString(), MAIN, paths[1].toString()), null));
            phase(jvms, 1);
            Run attach = E2e.dyper("ctl", "--dir", dir.resolve("registry").toString(), "--options", "nats="
                    + server.url("monitor", "monitor-secret"), "attach", Long.toString(jvms.get(2).pid()));
            assertEquals(0, attach.exit(), attach.err());

            List<String[]> members = who(3);
            Set<String> jdks = new TreeSet<>();
            for (String[] m : members) {
                assertEquals(MAIN, m[3], Arrays.toString(m));
                jdks.add(m[5].replaceAll("\\..*", ""));
                Run report = ctl("reader", m[0], "REPORT");
                assertEquals(0, report.exit(), report.err());
                assertTrue(report.out().startsWith("Monitor report: pid " + m[2] + ", " + MAIN), report.out());
            }
            assertEquals(second == Jdk.JDK25 ? Set.of("17", "25") : Set.of("17"), jdks);
            assertTrue(members.stream().anyMatch(m -> m[2].equals(Long.toString(jvms.get(2).pid()))),
                    "the attached JVM is listed by its own pid");

            Run refused = ctl("reader", "--all", "--main", MAIN, "instrument", "--model",
                    E2e.MODELS.resolve("phases.xml").toString(), "--cache", dir.resolve("cache").toString());
            // refused at the first step already: the classes (CLASSMODEL) come through the control subject
            assertEquals(6, refused.exit(), refused.err());
            String[] first = members.get(0);
            assertTrue(refused.err().startsWith("dyper: error: JVM " + first[0] + " (" + MAIN + ", pid " + first[2]
                    + " on " + first[1] + "): the NATS server refused: Permissions Violation for Publish to \"dyper."
                    + first[0] + ".control\""), refused.err());
            Run set = ctl("reader", "--all", "SET", "<VAR NAME='CHECKTIME' VALUE='7'/>");
            assertEquals(6, set.exit(), set.err());
            Run nothing = ctl("reader", "--all", "--xml", "INSTRUMENTED");
            assertEquals(0, nothing.exit(), nothing.err());
            assertTrue(!nothing.out().contains("<MODEL "), "the reader changed nothing: " + nothing.out());

            Run in = ctl("operator", "--all", "--main", MAIN, "instrument", "--model",
                    E2e.MODELS.resolve("phases.xml").toString(), "--cache", dir.resolve("cache").toString());
            assertEquals(0, in.exit(), in.err());
            for (String[] m : members) {
                assertTrue(in.out().contains("dyper: model 'phases' instrumented in JVM " + m[0] + " (" + MAIN
                        + ", pid " + m[2] + " on " + m[1] + "): 2 class(es) patched now, 1 when they load (site ids "),
                        in.out());
            }
            assertTrue(in.out().contains("dyper: 3 of 3 JVM(s) instrumented in "), in.out());
            phase(jvms, 2);

            server.kill();
            Run down = ctl("reader", "who");
            assertEquals(7, down.exit(), down.err());
            assertTrue(down.err().startsWith("dyper: error: cannot connect to the NATS server " + server.url()),
                    down.err());
            phase(jvms, 3);
            server.restart();
            who(3);
            Run out = ctl("operator", "--all", "uninstrument");
            assertEquals(0, out.exit(), out.err());
            assertEquals(3, out.out().lines().filter(l -> l.startsWith("dyper: model 'phases' removed from JVM "))
                    .count(), out.out());
            phase(jvms, 4);
            questions(members.get(0)[0], jvms);
            for (Running t : jvms) {
                assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
                assertEquals(PhaseFacts.output(5, true), t.lines(), "the program's output is its own");
                assertTrue(t.stderr().contains("dyper: nats: lost the connection to the NATS server; reconnecting"),
                        t.stderr());
                assertTrue(t.stderr().contains("dyper: nats: reconnected to nats://monitor:***@127.0.0.1:"
                        + server.port()), t.stderr());
            }
            assertEquals("", ctl("reader", "--timeout", "1500", "who").out(), "the ended JVMs are not listed");
        } finally {
            jvms.forEach(Running::close);
            server.close();
        }
        for (Path report : reports) {
            checkCounts(ExitReport.of(report));
        }
    }

    /**
     * Questions over NATS (issue 25): a mistake, asked of one JVM by its id, is refused at its column; the question,
     * asked of all three (compiled against the first one's classes, woven once), is answered exactly for phase 5 by
     * each.
     */
    private void questions(String id, List<Running> jvms) throws Exception {
        String sum = "sum arg1 of org.dyper.samples.phases.Worker.work";
        Run typo = ctl("operator", id, "ask", "count of org.dyper.samples.phases.Worker.wrok");
        assertEquals(3, typo.exit(), typo.err());
        assertTrue(typo.err().startsWith("dyper: error: question #1, column 42: org.dyper.samples.phases.Worker has "
                + "no method 'wrok' (it has: total, weigh, work)\n"), typo.err());
        Run none = ctl("reader", id, "answers");
        assertEquals(0, none.exit(), none.err());
        assertTrue(none.out().startsWith("No question was asked in JVM " + id), none.out());
        Run ask = ctl("operator", "--all", "--main", MAIN, "ask", sum, "--cache", dir.resolve("cache").toString());
        assertEquals(0, ask.exit(), ask.err());
        assertEquals(3, ask.out().lines().filter(l -> l.startsWith("dyper: model 'dyper-ask' instrumented in JVM "))
                .count(), ask.out());
        assertTrue(ask.out().endsWith("dyper: 1 question(s), 1 site(s); the answers: dyper ctl --nats URL --all "
                + "answers\n"), ask.out());
        phase(jvms, 5);
        Run xml = ctl("reader", "--xml", id, "answers");
        org.w3c.dom.Element group = MonitorEndToEndTest.all(MonitorEndToEndTest.xml(xml.out()), "GROUP").get(0);
        // phase 5 calls work(i + 5) for i = 0..2999
        assertEquals(List.of("3000", "4513500", "5", "3004"), List.of(group.getAttribute("COUNT"),
                group.getAttribute("SUM"), group.getAttribute("MIN"), group.getAttribute("MAX")), xml.out());
        Run all = ctl("reader", "--all", "answers");
        assertEquals(0, all.exit(), all.err());
        assertEquals(3, all.out().lines().filter(l -> l.equals("  1 site patched; 3,000 checks, 3,000 records"))
                .count(), all.out());
        assertEquals(3, all.out().lines().filter(l -> l.startsWith("== JVM ")).count(), all.out());
    }

    /** Exactly phases 2 and 3: the model went in before phase 2 and out after phase 3. */
    private static void checkCounts(ExitReport r) {
        long calls = 2L * PhaseFacts.CALLS;
        assertAll(
                () -> assertEquals(calls, r.value("TIMING", PhaseFacts.WORK, "COUNT"), "ENTER/EXIT timing"),
                () -> assertEquals(calls, r.value("CALLS", PhaseFacts.WEIGH, "COUNT"), "CALL"),
                () -> assertEquals(calls, r.value("LOCKS", PhaseFacts.WORK, "ACQUISITIONS"), "SYNC_*"),
                () -> assertEquals(2L * PhaseFacts.LATER_CALLS, r.value("COUNTS", PhaseFacts.TWICE, "COUNT"),
                        "a class loaded after the patch went in"),
                () -> assertEquals(2L * PhaseFacts.PLUGIN_CALLS, r.value("SAMPLED_TIMING", PhaseFacts.PLUGIN,
                        "COUNT"), "a class of a child class loader"),
                () -> assertEquals("0", r.failures().get("TOTAL")));
    }
}
