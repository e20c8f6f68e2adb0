package org.dyper.cli.fleet;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.tools.ToolProvider;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.NatsServer;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a monitor joins: beside a program that has a jnats of its own (another version, on its class path) and with
 * a broker that is down when the program starts and comes up later. The program's output stays its own; the
 * monitor joins when it can.
 */
class NatsJoinTest {
    @TempDir
    Path dir;

    /**
     * A program with its own {@code io.nats.client.Nats} (a stand-in for another jnats version: same class name,
     * other content) that prints the version it sees and waits for its input to close.
     */
    private Path ownJnatsProgram() throws Exception {
        Path src = dir.resolve("src");
        Files.createDirectories(src.resolve("io/nats/client"));
        Files.createDirectories(src.resolve("com/acme"));
        Files.writeString(src.resolve("io/nats/client/Nats.java"), """
                package io.nats.client;
                public final class Nats {
                    public static final String CLIENT_VERSION = "0.0.1-the-program's-own";
                }
                """, UTF_8);
        Files.writeString(src.resolve("com/acme/OwnNats.java"), """
                package com.acme;
                public final class OwnNats {
                    public static void main(String[] args) throws Exception {
                        System.out.println("jnats " + io.nats.client.Nats.CLIENT_VERSION + " from "
                                + (io.nats.client.Nats.class.getClassLoader() == OwnNats.class.getClassLoader()
                                ? "the program's class path" : "elsewhere"));
                        System.out.flush();
                        while (System.in.read() >= 0) {
                            // until the test closes our input
                        }
                        System.out.println("done");
                    }
                }
                """, UTF_8);
        Path classes = dir.resolve("classes");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                src.resolve("io/nats/client/Nats.java").toString(), src.resolve("com/acme/OwnNats.java").toString());
        assertEquals(0, rc, "javac");
        return classes;
    }

    private Running start(Path classes, String natsUrl) throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        return Processes.start(List.of(Processes.currentJava().toString(), "-javaagent:" + runtime + "=dir="
                + dir.resolve("registry") + ",nats=" + natsUrl, "-cp", classes.toString(), "com.acme.OwnNats"));
    }

    private static List<Fleet.Member> who(NatsServer server) throws Exception {
        return Await.until("the program's monitor in who", () -> {
            try (NatsFleet f = NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null,
                    null), Duration.ofSeconds(5))) {
                return f.who(Duration.ofMillis(500));
            }
        }, l -> l.size() == 1, Duration.ofSeconds(60));
    }

    private static String ping(NatsServer server, Fleet.Member m) throws Exception {
        try (NatsFleet f = NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null,
                null), Duration.ofSeconds(5))) {
            return f.send(List.of(m), "<DYPER COMMAND='PING'/>", false, Duration.ofSeconds(10)).get(0).reply();
        }
    }

    @Test
    void aProgramWithItsOwnJnatsKeepsItAndTheMonitorJoins() throws Exception {
        Path classes = ownJnatsProgram();
        try (NatsServer server = NatsServer.start(NatsServer.configFrom(NatsCtlTest.DOCS.resolve("fleet.md"), dir),
                dir); Running p = start(classes, server.url("monitor", "monitor-secret"))) {
            assertEquals("jnats 0.0.1-the-program's-own from the program's class path", p.line(0,
                    Duration.ofSeconds(60)), p.stderr());
            Fleet.Member m = who(server).get(0);
            assertEquals(p.pid(), m.pid());
            assertEquals("com.acme.OwnNats", m.mainClass());
            assertEquals("<DYPER_REPLY ID='" + p.pid() + "'>PONG</DYPER_REPLY>", ping(server, m));
            assertEquals(0, p.stop(Duration.ofSeconds(60)), p.stderr());
            assertEquals(List.of("jnats 0.0.1-the-program's-own from the program's class path", "done"), p.lines());
        }
    }

    @Test
    void aBrokerDownAtStartIsJoinedWhenItComesUp() throws Exception {
        Path classes = ownJnatsProgram();
        try (NatsServer server = NatsServer.notStarted(NatsServer.configFrom(NatsCtlTest.DOCS.resolve("fleet.md"),
                dir), dir); Running p = start(classes, server.url("monitor", "monitor-secret"))) {
            assertEquals("jnats 0.0.1-the-program's-own from the program's class path", p.line(0,
                    Duration.ofSeconds(60)), p.stderr());
            server.restart();
            Fleet.Member m = who(server).get(0);
            assertEquals(p.pid(), m.pid());
            assertEquals("<DYPER_REPLY ID='" + p.pid() + "'>PONG</DYPER_REPLY>", ping(server, m));
            assertEquals(0, p.stop(Duration.ofSeconds(60)), p.stderr());
            assertEquals(List.of("jnats 0.0.1-the-program's-own from the program's class path", "done"), p.lines());
            assertTrue(p.stderr().contains("dyper: nats: connected to nats://monitor:***@127.0.0.1:" + server.port()),
                    p.stderr());
        }
    }

    @Test
    void wrongCredentialsOfTheMonitorLeaveTheProgramAlone() throws Exception {
        Path classes = ownJnatsProgram();
        try (NatsServer server = NatsServer.start(NatsServer.configFrom(NatsCtlTest.DOCS.resolve("fleet.md"), dir),
                dir); Running p = start(classes, server.url("monitor", "wrong"))) {
            assertEquals("jnats 0.0.1-the-program's-own from the program's class path", p.line(0,
                    Duration.ofSeconds(60)), p.stderr());
            Await.until("the server refusing the monitor", () -> server.log().contains("authentication error"),
                    Duration.ofSeconds(30));
            try (NatsFleet f = NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null,
                    null), Duration.ofSeconds(5))) {
                assertEquals(List.of(), f.who(Duration.ofMillis(500)));
            }
            assertEquals(0, p.stop(Duration.ofSeconds(60)), p.stderr());
            assertEquals(List.of("jnats 0.0.1-the-program's-own from the program's class path", "done"), p.lines());
            assertTrue(p.stderr().contains("dyper: nats: the NATS server says: Authorization Violation"), p.stderr());
        }
    }
}
