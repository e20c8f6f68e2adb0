package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.patch.build.Weaver;
import org.dyper.samples.bank.BankApp;
import org.dyper.samples.bank.BankFacts;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/** The DYPER monitor in the bank sample, driven through {@code dyper run} and {@code dyper ctl}. */
class MonitorEndToEndTest {
    @TempDir
    Path dir;

    /** How long a test waits for a line of the target's output, and for the target to end. */
    static final Duration LINE = Duration.ofSeconds(60);
    static final Duration STOP = Duration.ofSeconds(120);

    /** Starts a target ({@code javaHome}: the JAVA_HOME {@code dyper run} uses; null: inherited). */
    static Running start(List<String> cmd, String javaHome) throws Exception {
        return start(cmd, javaHome, Map.of());
    }

    /** As {@link #start(List, String)}, with {@code env} added to the inherited environment. */
    static Running start(List<String> cmd, String javaHome, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        if (javaHome != null) {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        return Processes.start(pb);
    }

    static Path runtimeJar() {
        Path jar = Weaver.runtimeClasspath().get(0);
        Skip.unless(jar.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + jar
                + "): run mvn verify, not mvn test");
        return jar;
    }

    static String classpath() throws Exception {
        return E2e.appClasses() + File.pathSeparator
                + Path.of(BankThenWait.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * The bank's output for these arguments, from the replay in {@link BankFacts} (milliseconds), not by running the
     * bank in this JVM (seconds of CPU for 4 x 160,000 transfers, taken from the monitored program while it is
     * sampled); BankAppTest checks that the replay is what the bank prints.
     */
    static List<String> expectedOutput(int threads, int perThread) {
        return BankFacts.expectedOutput(threads, perThread);
    }

    static Element xml(String text) throws Exception {
        return XmlReports.parse(text);
    }

    static List<Element> all(Element root, String tag) {
        return XmlReports.all(root, tag);
    }

    static Element method(Element cpu, String cls, String name) {
        return all(cpu, "METHOD").stream().filter(m -> m.getAttribute("CLASS").equals(cls)
                && m.getAttribute("NAME").equals(name)).findFirst().orElseThrow(() -> new AssertionError(
                "no " + cls + "." + name));
    }

    Run ctl(String... args) {
        List<String> all = new ArrayList<>(List.of("ctl", "--dir", dir.toString()));
        all.addAll(List.of(args));
        return E2e.dyper(all.toArray(String[]::new));
    }

    /** Issue 20, item 5: the process ends while ctl waits for its reply; ctl names it and says it ended. */
    @ParameterizedTest
    @EnumSource(Jdk.class)
    void ctlSaysTheProcessEndedWhenItEndsDuringACommand(Jdk jdk) throws Exception {
        Running t = start(List.of(jdk.java().toString(), "-javaagent:" + runtimeJar() + "=dir=" + dir,
                "-cp", classpath(), BankThenWait.class.getName(), "1", "10"), null);
        try {
            List<String> expected = expectedOutput(1, 10);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), t.line(i, LINE));
            }
            long pid = t.process().pid();
            Run added = ctl(Long.toString(pid), "AGENT", "<AGENT CLASS='" + HaltingAgent.class.getName() + "'/>");
            assertEquals(0, added.exit(), added.err());
            Run report = ctl(Long.toString(pid), "REPORT");
            assertEquals(new Run(7, "", "dyper: error: process " + pid + " (" + BankThenWait.class.getName()
                    + ") ended\n"), report);
            assertEquals(0, t.stop(STOP), "halted with status 0 by the agent");
        } finally {
            t.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void cpuAgentRanksTheBankHotSpotFirst(Jdk jdk) throws Exception {
        // detailing needs METHOD_DETAIL_MIN_TOTAL samples in all; CPU-time samples (JDK 25) are fewer on a busy machine
        // (a full suite at a load of 28 saw 18 in all); JDK 17's samples are weighed by CPU time, and under load the
        // bank threads wait for a core: 160,000 transfers each, where 40,000 gave 8 samples in all at a load of 10
        Running t = start(List.of(jdk.java().toString(), "-javaagent:" + runtimeJar() + "=dir=" + dir + ",CHECKTIME=5"
                + ",METHOD_DETAIL_MIN_TOTAL=8", "-cp", classpath(), BankThenWait.class.getName(), "4", "160000"), null);
        try {
            List<String> expected = expectedOutput(4, 160000);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), t.line(i, LINE));
            }
            long pid = t.process().pid();
            Run report = ctl("--xml", Long.toString(pid), "REPORT", "<REPORT TYPE='CPU'/>");
            assertEquals(0, report.exit(), report.err());
            Element cpu = all(xml(report.out()), "CPU").get(0);
            Element top = all(cpu, "METHOD").get(0);
            assertEquals(BankFacts.BANK + ".mix", top.getAttribute("CLASS") + "." + top.getAttribute("NAME"),
                    "the hot spot, Bank.audit's inner loop, comes first");
            assertEquals(BankFacts.BANK, all(cpu, "CLASS").get(0).getAttribute("NAME"));
            Element audit = method(cpu, BankFacts.BANK, "audit");
            Element mix = method(cpu, BankFacts.BANK, "mix");
            long auditTotal = Long.parseLong(audit.getAttribute("TOTAL"));
            // audit's samples are in audit itself, in mix, or (rarely) in Account.balance, which audit also calls
            long outside = auditTotal - Long.parseLong(mix.getAttribute("TOTAL"))
                    - Long.parseLong(audit.getAttribute("SELF"));
            long balanceTotal = all(cpu, "METHOD").stream().filter(m -> m.getAttribute("NAME").equals("balance")
                    && m.getAttribute("CLASS").endsWith(".Account")).mapToLong(m -> Long.parseLong(
                    m.getAttribute("TOTAL"))).sum();
            assertTrue(outside >= 0 && outside <= balanceTotal, "every sample in mix is a sample in audit, and the "
                    + "rest of audit's is in audit or Account.balance: " + outside + " outside, balance "
                    + balanceTotal);
            long transferTotal = all(cpu, "METHOD").stream().filter(m -> m.getAttribute("NAME").equals("transfer"))
                    .mapToLong(m -> Long.parseLong(m.getAttribute("TOTAL"))).sum();
            assertTrue(auditTotal > transferTotal, "audit " + auditTotal + " > transfer " + transferTotal);
            assertTrue(all(cpu, "METHOD").stream().filter(m -> m.getAttribute("NAME").equals("audit"))
                    .allMatch(m -> m.getAttribute("DETAIL").equals("true")), "audit is hot enough to detail: audit " + auditTotal
                    + " of " + cpu.getAttribute("SAMPLES") + " samples");
            Run readable = ctl(Long.toString(pid), "REPORT");
            assertEquals(0, readable.exit(), readable.err());
            assertTrue(readable.out().lines().anyMatch(l -> l.startsWith("  " + BankFacts.BANK + ".mix ")),
                    readable.out());
            assertTrue(readable.out().lines().anyMatch(l -> l.matches(" +\\d+\\.\\d% +[\\d,]+ samples  .*"
                    + "BankApp\\$Worker\\.run > Bank\\.audit > Bank\\.mix")), "the top CPU path, caller first: "
                    + readable.out());
            assertTrue(readable.out().lines().allMatch(l -> l.length() <= 120), readable.out());
            assertEquals(0, t.stop(STOP));
            assertEquals(expected, t.lines());
            assertEquals("", t.stderr());
        } finally {
            t.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void dyperRunStartsTheMonitorWithExactInstrumentation(Jdk jdk) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run",
                "--model", E2e.MODELS.resolve("bank.xml").toString(), "--report", "none",
                "--monitor", "dir=" + dir, "--", "-cp", classpath(), BankThenWait.class.getName()));
        Running t = start(cmd, jdk.java().getParent().getParent().toString());
        try {
            List<String> expected = expectedOutput(BankApp.DEFAULT_THREADS, BankApp.DEFAULT_TRANSFERS_PER_THREAD);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i), t.line(i, LINE));
            }
            Run who = ctl("who");
            assertEquals(0, who.exit(), who.err());
            assertEquals(1, who.out().lines().count(), who.out());
            String[] fields = who.out().trim().split("\\s+");
            assertEquals(BankThenWait.class.getName(), fields[1]);
            Run report = ctl("--xml", fields[0], "REPORT", "<REPORT TYPE='INSTRUMENTATION'/>");
            Element instr = all(xml(report.out()), "INSTRUMENTATION").get(0);
            assertEquals("true", instr.getAttribute("ACTIVE"));
            Element audit = all(instr, "SITE").stream().filter(s -> s.getAttribute("NAME").equals(BankFacts.AUDIT)
                    && s.hasAttribute("TOTAL_NS")).findFirst().orElseThrow();
            assertEquals(Long.toString(BankFacts.DEFAULT_AUDIT_CALLS), audit.getAttribute("COUNT"));
            assertEquals(0, t.stop(STOP));
            assertEquals(expected, t.lines());
        } finally {
            t.close();
        }
        assertEquals("", ctl("who").out(), "the entry is removed at exit");
    }

    @Test
    void noMonitorLeavesItOut() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run",
                "--model", E2e.MODELS.resolve("bank.xml").toString(), "--report", "none", "--no-monitor",
                "--monitor", "dir=" + dir, "--", "-cp", classpath(), BankThenWait.class.getName(), "1", "50"));
        Running t = start(cmd, System.getProperty("java.home"));
        try {
            t.line(4, LINE);
            assertEquals("", ctl("who").out());
            assertTrue(Files.notExists(dir) || Files.list(dir).findAny().isEmpty());
            assertEquals(0, t.stop(STOP));
        } finally {
            t.close();
        }
    }

    @Test
    void ctlWhoAttachCommandsAndExitCodes() throws Exception {
        Running a = start(List.of(Jdk.JDK17.java().toString(), "-javaagent:" + runtimeJar() + "=dir=" + dir,
                "-cp", classpath(), BankThenWait.class.getName(), "1", "50"), null);
        Running b = start(List.of(Jdk.JDK17.java().toString(), "-cp", classpath(), BankThenWait.class.getName(),
                "1", "50"), null);
        try {
            a.line(4, LINE);
            b.line(4, LINE);
            long pa = a.process().pid();
            long pb = b.process().pid();
            Run attach = ctl("attach", Long.toString(pb));
            assertEquals(0, attach.exit(), attach.err());
            assertEquals("dyper: monitor running in process " + pb + " (socket " + dir.resolve(pb + ".sock")
                    .toAbsolutePath() + ")\n", attach.out());
            Run who = ctl("who");
            List<String> pids = who.out().lines().map(l -> l.split("\\s+")[0]).toList();
            assertEquals(List.of(pa, pb).stream().sorted().map(String::valueOf).toList(), pids);
            assertTrue(who.out().lines().allMatch(l -> l.split("\\s+")[1].equals(BankThenWait.class.getName())));
            for (long pid : List.of(pa, pb)) {
                Run ping = ctl(Long.toString(pid), "PING");
                assertEquals(new Run(0, "PONG\n", ""), ping);
                Run stack = ctl(Long.toString(pid), "SHOWSTACK");
                assertTrue(stack.out().contains("\"main\" #1 RUNNABLE (blocked in native code, not running)\n"),
                        "main waits for its stdin: " + stack.out());
                assertTrue(stack.out().contains("    at " + BankThenWait.class.getName() + ".main(BankThenWait.java:"),
                        stack.out());
            }
            assertEquals(new Run(0, "OK\n", ""), ctl(Long.toString(pa), "SET", "<VAR NAME='CHECKTIME' VALUE='7'/>"));
            assertEquals(new Run(0, "CHECKTIME = 7\n", ""), ctl(Long.toString(pa), "GET", "<VAR NAME='CHECKTIME'/>"));
            assertEquals(new Run(6, "", "dyper: error: process " + pa
                    + ": CHECKTIME must be a whole number from 1 to 86400000, not 'x'\n"),
                    ctl(Long.toString(pa), "SET", "<VAR NAME='CHECKTIME' VALUE='x'/>"));
            assertEquals(new Run(0, "<DYPER_REPLY ID='" + pa + "'>PONG</DYPER_REPLY>\n", ""),
                    ctl("--xml", Long.toString(pa), "PING"));
            Run gone = ctl("999999999", "PING");
            assertEquals(7, gone.exit());
            assertEquals("dyper: error: no monitored process 999999999 (no entry in " + dir + ")\n", gone.err());
            assertEquals(2, ctl().exit());
            assertEquals(2, ctl("abc", "PING").exit());
            assertEquals(0, ctl("--help").exit());
            assertEquals(0, a.stop(STOP));
            assertEquals(0, b.stop(STOP));
            assertEquals(expectedOutput(1, 50), b.lines());
            assertEquals("", b.stderr());
        } finally {
            a.close();
            b.close();
        }
    }
}
