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

import com.sun.tools.attach.VirtualMachine;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.monitor.targets.ContentionTarget;
import org.dyper.runtime.monitor.targets.DeadlockTarget;
import org.dyper.runtime.monitor.targets.LoopTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/** Contention, deadlocks, START/END, discovery of several processes and attach, each with real target JVMs. */
class MonitorProcessesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void contentionNamesTheContendedMonitor(Jdk jdk) throws Exception {
        try (Child child = Child.start(jdk, dir, "CONTENTION=true,CHECKTIME=5", ContentionTarget.class)) {
            assertEquals("contention: started", child.nextLine());
            try (WireClient c = child.client()) {
                String lockClass = ContentionTarget.ContendedLock.class.getName();
                until("the contended monitor sampled 20 times", () -> {
                    List<Element> monitors = all(xml(c.command("REPORT", "<REPORT TYPE='CONTENTION'/>")), "MONITOR");
                    return !monitors.isEmpty() && Long.parseLong(monitors.get(0).getAttribute("BLOCKED_SAMPLES")) >= 20;
                });
                Element r = xml(c.command("REPORT", "<REPORT TYPE='CONTENTION'/>"));
                assertEquals("true", first(r, "CONTENTION").getAttribute("CONTENTION_MONITORING"));
                Element top = first(first(r, "MONITORS"), "MONITOR");
                assertEquals(lockClass, top.getAttribute("CLASS"));
                assertTrue(top.getAttribute("NAME").startsWith(lockClass + "@"));
                assertTrue(all(top, "BLOCKED").stream().allMatch(b -> b.getAttribute("THREAD").startsWith("contender-")));
                assertTrue(all(top, "OWNER").stream().allMatch(b -> b.getAttribute("THREAD").startsWith("contender-")));
                List<Element> contenders = all(first(first(r, "CONTENTION"), "THREADS"), "THREAD").stream()
                        .filter(t -> t.getAttribute("NAME").startsWith("contender-")).toList();
                assertEquals(4, contenders.size());
                long blocked = contenders.stream().mapToLong(t -> Long.parseLong(t.getAttribute("BLOCKED_COUNT"))).sum();
                assertTrue(blocked > 0, "blocked count " + blocked);
                assertTrue(contenders.stream().anyMatch(t -> Long.parseLong(t.getAttribute("BLOCKED_MS")) >= 0));
                assertEquals("0", first(r, "DEADLOCKS").getAttribute("COUNT"));
            }
            assertEquals(0, child.stop());
            assertEquals("contention: started\ncontention: stopped\n", child.stdout());
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void plantedDeadlockIsDetected(Jdk jdk) throws Exception {
        try (Child child = Child.start(jdk, dir, "", DeadlockTarget.class)) {
            assertEquals("deadlock: started", child.nextLine());
            try (WireClient c = child.client()) {
                until("the deadlock", () -> xml(c.command("REPORT", "<REPORT TYPE='CONTENTION'/>"))
                        .getElementsByTagName("DEADLOCK").getLength() == 1);
                Element d = first(xml(c.command("REPORT", null)), "DEADLOCKS");
                assertEquals("1", d.getAttribute("COUNT"));
                assertEquals("true", d.getAttribute("EXACT"));
                List<Element> threads = all(d, "THREAD");
                assertEquals(List.of("deadlock-a", "deadlock-b"),
                        threads.stream().map(t -> t.getAttribute("NAME")).sorted().toList());
                for (Element t : threads) {
                    boolean a = t.getAttribute("NAME").equals("deadlock-a");
                    assertTrue(t.getAttribute("WAITS_FOR").startsWith((a ? DeadlockTarget.LockB.class
                            : DeadlockTarget.LockA.class).getName() + "@"), t.getAttribute("WAITS_FOR"));
                    assertEquals(a ? "deadlock-b" : "deadlock-a", t.getAttribute("HELD_BY"));
                }
            }
            assertEquals(0, child.stop());
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void startWaitsForTheListenerAndEndIsSent(Jdk jdk) throws Exception {
        try (ServerSocket listener = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(60_000);
            Child child = Child.start(jdk, dir, "notify=127.0.0.1:" + listener.getLocalPort() + ",notifywait=60000",
                    LoopTarget.class);
            try (child) {
                String start;
                try (Socket s = listener.accept()) {
                    start = Frames.read(s.getInputStream(), Frames.MAX_MESSAGE, null);
                    MonitorEntry e = child.entry();
                    assertEquals("<DYPER START='" + child.process.pid() + "' SOCKET='" + e.endpoint().socket() + "'/>", start);
                    assertEquals(dir.resolve(child.process.pid() + ".sock").toAbsolutePath(), e.endpoint().socket());
                    try (WireClient c = child.client()) {
                        assertEquals("<DYPER_REPLY ID='" + e.pid() + "'>PONG</DYPER_REPLY>", c.command("PING", null));
                    }
                    assertEquals("", child.stdout(), "main must not run before the START reply");
                    Frames.write(s.getOutputStream(), "<DYPER_REPLY><SETTINGS><VAR NAME='CHECKTIME' VALUE='7'/>"
                            + "</SETTINGS></DYPER_REPLY>");
                }
                assertEquals("loop: started", child.nextLine());
                try (WireClient c = child.client()) {
                    assertTrue(c.command("GET", "<VAR NAME='CHECKTIME'/>").contains("VALUE='7'"));
                }
                Thread stopper = new Thread(() -> {
                    try {
                        child.stop();
                    } catch (Exception ignored) {
                        // checked below
                    }
                });
                stopper.start();
                try (Socket s = listener.accept()) {
                    assertEquals("<DYPER END='" + child.process.pid() + "'/>",
                            Frames.read(s.getInputStream(), Frames.MAX_MESSAGE, null));
                }
                stopper.join(60_000);
                assertEquals(0, child.process.exitValue());
                assertEquals("loop: started\nloop: stopped\n", child.stdout());
            }
        }
    }

    @Test
    void noListenerDoesNotStopTheProgram() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (Child child = Child.start(Jdk.JDK17, dir, "notify=127.0.0.1:" + closedPort, LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            assertEquals(0, child.stop());
            assertEquals("", child.stderr());
        }
    }

    @Test
    void badAgentOptionsPrintOneLineAndTheProgramRuns() throws Exception {
        try (Child child = Child.start(Jdk.JDK17, dir, "notify=10.1.2.3:80", LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            assertEquals(0, child.stop());
            assertEquals("dyper: monitor not started: agent option notify must name a loopback address, not "
                    + "'10.1.2.3:80'\n", child.stderr());
        }
    }

    @Test
    void aRegistryFolderOthersCanWriteToIsWarnedAbout() throws Exception {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        try (Child child = Child.start(Jdk.JDK17, open, "", LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            assertEquals(0, child.stop());
            assertEquals("dyper: warning: " + MonitorEntry.insecureDirectory(open) + "\n", child.stderr());
        }
    }

    @Test
    void twoProcessesAreDiscoveredAndStaleEntriesCleaned() throws Exception {
        Files.writeString(dir.resolve("999999999.monitor"), "pid=999999999\nport=1\nmain=Gone\nstart=0\ntoken=x\n");
        try (Child a = Child.start(Jdk.JDK17, dir, "", LoopTarget.class);
                Child b = Child.start(Jdk.JDK17, dir, "", ContentionTarget.class)) {
            assertEquals("loop: started", a.nextLine());
            assertEquals("contention: started", b.nextLine());
            a.entry();
            b.entry();
            List<MonitorEntry> entries = MonitorEntry.list(dir, true);
            assertEquals(List.of(a.process.pid(), b.process.pid()).stream().sorted().toList(),
                    entries.stream().map(MonitorEntry::pid).toList());
            assertFalse(Files.exists(dir.resolve("999999999.monitor")));
            for (MonitorEntry e : entries) {
                try (WireClient c = e.connect(false)) {
                    assertEquals("<DYPER_REPLY ID='" + e.pid() + "'/>", c.request("<DYPER COMMAND='WHO'/>"));
                }
            }
            assertTrue(entries.stream().map(MonitorEntry::mainClass).toList()
                    .containsAll(List.of(LoopTarget.class.getName(), ContentionTarget.class.getName())));
            assertEquals(0, a.stop());
            assertEquals(0, b.stop());
        }
        assertEquals(List.of(), MonitorEntry.list(dir, true));
    }

    /**
     * A late attach with sampling off: nothing is redefined, neither by the warm-up of run-time patching nor by the
     * flight recorder (not started while nothing samples). On JDK 17 the JVM's first redefinition after a late attach
     * deoptimises all compiled code (its own log: "Marked all nmethods for deopt"; the warm-up's rehearsal did that
     * before); the recorder's start does it too, so it starts only when sampling does (SET MONITOR=true below).
     */
    @ParameterizedTest
    @EnumSource(Jdk.class)
    void attachToARunningJvm(Jdk jdk) throws Exception {
        Path redefinitions = dir.resolve("redefinitions.log");
        // EnableDynamicAgentLoading: JDK 21 and later warn on stderr about a dynamically loaded agent without it
        try (Child child = Child.start(jdk, dir, null, List.of("-XX:+EnableDynamicAgentLoading",
                "-Xlog:redefine+class+nmethod=debug:file=" + redefinitions), LoopTarget.class)) {
            assertEquals("loop: started", child.nextLine());
            assertFalse(Files.exists(dir.resolve(child.process.pid() + ".monitor")));
            VirtualMachine vm = VirtualMachine.attach(Long.toString(child.process.pid()));
            try {
                vm.loadAgent(Child.agentJar().toString(), "dir=" + dir + ",MONITOR=false");
            } finally {
                vm.detach();
            }
            try (WireClient c = child.client()) {
                assertEquals("<DYPER_REPLY ID='" + child.process.pid() + "'>PONG</DYPER_REPLY>", c.command("PING", null));
                until("the warm-up done", () -> !List.of("NOT_STARTED", "RUNNING").contains(first(xml(c.command(
                        "INSTRUMENTED", null)), "PATCHES").getAttribute("WARMUP")));
                Element patches = first(xml(c.command("INSTRUMENTED", null)), "PATCHES");
                // the JVM logs each redefinition's deoptimisation (flushed line by line)
                assertEquals(List.of(), Files.readAllLines(redefinitions).stream().filter(l -> l.contains("deopt"))
                        .toList());
                assertEquals("DONE", patches.getAttribute("WARMUP"));
                assertEquals("attached late: no rehearsal, which would redefine a class (the JVM's first redefinition "
                        + "after a late attach can throw away all compiled code; the first INSTRUMENT pays that)",
                        patches.getAttribute("WARMUP_NOTE"));
                assertEquals("<DYPER_REPLY ID='" + child.process.pid() + "'>OK</DYPER_REPLY>", c.command("SET",
                        "<VAR NAME='MONITOR' VALUE='true'/>"));
                until("samples after attach", () -> Long.parseLong(first(xml(c.command("REPORT",
                        "<REPORT TYPE='CPU'/>")), "CPU").getAttribute("SAMPLES")) > 10);
            }
            assertEquals(0, child.stop());
            assertEquals("loop: started\nloop: stopped\n", child.stdout());
            assertEquals("", child.stderr());
        }
    }
}
