package org.dyper.cli.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LocalFleet} over three real monitored JVMs (JDK 17, 25, 17) in one registry folder: who lists them with
 * their JDKs, one message reaches all, a stopped JVM is named at the deadline while the others answer, and a JVM
 * that ended is named too.
 */
class LocalFleetTest {
    @TempDir
    Path dir;

    @Test
    void oneMessageToEveryJvmAndTheSilentOnesNamed() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path registry = dir.resolve("registry");
        Path classes = Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Running> jvms = new ArrayList<>();
        long stopped = -1;
        try {
            for (Jdk jdk : List.of(Jdk.JDK17, Jdk.JDK25, Jdk.JDK17)) {
                jvms.add(Processes.start(List.of(jdk.java().toString(), "-Xmx64m", "-javaagent:" + runtime + "=dir="
                        + registry, "-cp", classes.toString(), Waiter.class.getName())));
            }
            for (Running r : jvms) {
                assertEquals("ready", r.line(0, Duration.ofSeconds(60)), r.stderr());
            }
            try (Fleet fleet = new LocalFleet(registry)) {
                assertEquals("registry " + registry, fleet.describe());
                List<Fleet.Member> members = awaitMembers(fleet, 3);
                List<Long> pids = jvms.stream().map(Running::pid).sorted().toList();
                assertEquals(pids, members.stream().map(Fleet.Member::pid).toList(), "by main class, then pid");
                for (Fleet.Member m : members) {
                    assertEquals(Long.toString(m.pid()), m.id());
                    assertEquals(Waiter.class.getName(), m.mainClass());
                    assertFalse(m.host().isEmpty());
                    int feature = m.pid() == jvms.get(1).pid() ? 25 : 17;
                    assertTrue(m.jdk().startsWith(feature + "."), m.jdk() + " for " + m);
                }

                List<Fleet.Answer> pongs = fleet.send(members, "<DYPER COMMAND='PING'/>", false, Duration.ofSeconds(30));
                assertEquals(members, pongs.stream().map(Fleet.Answer::member).toList(), "in the members' order");
                for (Fleet.Answer a : pongs) {
                    assertTrue(a.ok(), a.error());
                    assertTrue(a.reply().contains(">PONG<"), a.reply());
                }

                // a JVM that is stopped accepts the connection (the kernel does) but never answers
                Fleet.Member silent = members.get(1);
                stopped = silent.pid();
                Processes.signal(stopped, "STOP");
                List<Fleet.Answer> some = fleet.send(members, "<DYPER COMMAND='PING'/>", false,
                        Duration.ofMillis(1500));
                assertEquals("process " + stopped + " (com.acme.cli.Waiter) did not answer within 1500 ms",
                        some.get(1).error());
                assertNull(some.get(1).reply());
                assertTrue(some.get(0).ok() && some.get(2).ok(), some.toString());
                Processes.signal(stopped, "CONT");
                stopped = -1;

                // a JVM that ended is named, the others still answer
                Running ended = jvms.get(2);
                Fleet.Member gone = members.stream().filter(m -> m.pid() == ended.pid()).findFirst().orElseThrow();
                assertEquals(0, ended.stop(Duration.ofSeconds(30)), ended.stderr());
                List<Fleet.Answer> after = fleet.send(members, "<DYPER COMMAND='PING'/>", false, Duration.ofSeconds(30));
                Fleet.Answer none = after.get(members.indexOf(gone));
                assertFalse(none.ok());
                assertTrue(none.error().startsWith("no monitored process " + gone.pid() + " ")
                        || none.error().startsWith("process " + gone.pid() + " "), none.error());
                assertEquals(2, after.stream().filter(Fleet.Answer::ok).count(), after.toString());
                assertEquals(2, fleet.who(Duration.ofSeconds(30)).size(), "an ended JVM drops out of who");
            }
        } finally {
            if (stopped > 0) {
                Processes.signal(stopped, "CONT");
            }
            jvms.forEach(Running::close);
        }
    }

    /** The registry gets an entry once each monitor listens: wait for all of them. */
    static List<Fleet.Member> awaitMembers(Fleet fleet, int n) {
        return Await.until(n + " members in " + fleet.describe(), () -> fleet.who(Duration.ofSeconds(30)),
                m -> m.size() == n, Await.MINUTE);
    }
}
