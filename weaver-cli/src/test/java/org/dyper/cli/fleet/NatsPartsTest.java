package org.dyper.cli.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.dyper.natsbridge.NatsBridge;
import org.dyper.testsupport.NatsServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reply bigger than the server's {@code max_payload}: the monitor's side ({@link NatsBridge}, here in the test's
 * JVM with a fixed REPORT) sends it in parts, {@link NatsFleet} puts it together again, byte for byte; one that would
 * take more than {@link NatsFleet#MAX_PARTS} parts is an ERROR saying so. The server runs docs/fleet.md's
 * configuration (its {@code allow_responses} must let a monitor send the parts) with {@code max_payload: 4KB}.
 */
class NatsPartsTest {
    @TempDir
    Path dir;

    /** A REPORT of about 100 kB whose paths hold characters of two and three bytes, some split between parts. */
    static String report(int paths) {
        StringBuilder x = new StringBuilder("<DYPER_REPLY ID='1'><MONITOR_REPORT VERSION='1' PID='1' TIME='9000' "
                + "MAIN='acme.Main' MONITOR='true'><STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='1' "
                + "NODE_LIMIT='100' DROPPED='0'><VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='" + paths + "'>");
        for (int i = 0; i < paths; i++) {
            x.append("<PATH WEIGHT='1'>acme.Caf\u00e9.r\u00e9sum\u00e9;acme.Pfeil\u2192").append(i)
                    .append(";acme.Work.step").append(i % 7).append("</PATH>");
        }
        return x.append("</VIEW></STACKS></MONITOR_REPORT></DYPER_REPLY>").toString();
    }

    @Test
    void aReplyBiggerThanMaxPayloadArrivesWhole() throws Exception {
        String docs = Files.readString(NatsServer.configFrom(Path.of("..", "docs", "fleet.md"), dir));
        assertTrue(docs.contains("max_payload: 8MB\n"), docs);
        Path config = Files.writeString(dir.resolve("small.conf"), docs.replace("max_payload: 8MB\n",
                "max_payload: 4KB\n"));
        String id = "test_1_2";
        String big = report(1500);
        String tooBig = report(60_000);
        AtomicReference<String> answer = new AtomicReference<>(big);
        List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
        try (NatsServer server = NatsServer.start(config, dir);
                NatsBridge monitor = new NatsBridge(Map.of("url", server.url("monitor", "monitor-secret"), "id", id,
                        "pid", "1", "who", NatsFleet.WHO, "read", "dyper." + id + ".read", "control", "dyper." + id
                        + ".control"), (kind, xml) -> answer.get(), r -> {
                            Thread t = new Thread(r, "test-nats");
                            t.setDaemon(true);
                            return t;
                        }, log::add)) {
            monitor.run();
            assertTrue(log.get(0).startsWith("connected to"), log.toString());
            try (NatsFleet fleet = NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null,
                    null), Duration.ofSeconds(5))) {
                Fleet.Member m = new Fleet.Member(id, "test", 1, "acme.Main", 2, "17");
                Fleet.Answer a = fleet.send(List.of(m), "<DYPER COMMAND='REPORT'/>", false, Duration.ofSeconds(30))
                        .get(0);
                assertEquals(null, a.error());
                int bytes = big.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
                assertTrue(bytes > 25 * 4096, "in more than 25 parts: " + bytes);
                assertEquals(big, a.reply());

                answer.set(tooBig);
                Fleet.Answer refused = fleet.send(List.of(m), "<DYPER COMMAND='REPORT'/>", false,
                        Duration.ofSeconds(30)).get(0);
                assertEquals("<DYPER_REPLY ID='1'><ERROR>the reply has " + tooBig.getBytes(
                        java.nio.charset.StandardCharsets.UTF_8).length + " bytes, more than 1024 parts of the "
                        + "server's max_payload of 4096 bytes: ask for less (a REPORT TYPE), or raise max_payload"
                        + "</ERROR></DYPER_REPLY>", refused.reply());
            }
        }

        // a server that lets a monitor send one message per request (allow_responses: true) drops the other parts:
        // the answer says how many came and why
        Path one = Files.writeString(dir.resolve("one.conf"), Files.readString(config).replace(
                "allow_responses: {max: 1024}", "allow_responses: true"));
        answer.set(big);
        try (NatsServer server = NatsServer.start(one, dir);
                NatsBridge monitor = new NatsBridge(Map.of("url", server.url("monitor", "monitor-secret"), "id", id,
                        "pid", "1", "who", NatsFleet.WHO, "read", "dyper." + id + ".read", "control", "dyper." + id
                        + ".control"), (kind, xml) -> answer.get(), r -> {
                            Thread t = new Thread(r, "test-nats");
                            t.setDaemon(true);
                            return t;
                        }, log::add);
                NatsFleet fleet = connectWhenUp(server, monitor)) {
            int parts = (big.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 4096 - 128 - 1) / (4096 - 128);
            Fleet.Answer a = fleet.send(List.of(new Fleet.Member(id, "test", 1, "acme.Main", 2, "17")),
                    "<DYPER COMMAND='REPORT'/>", false, Duration.ofMillis(1500)).get(0);
            assertEquals("JVM " + id + " (acme.Main, pid 1 on test) did not answer on dyper." + id + ".read within "
                    + "1500 ms: 1 of " + parts + " parts of its reply came (a server that lets a monitor send fewer "
                    + "messages per request drops the rest: allow_responses {max: 1024}, docs/fleet.md)", a.error());
        }
    }

    private static NatsFleet connectWhenUp(NatsServer server, NatsBridge monitor) throws Exception {
        monitor.run();
        return NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null, null),
                Duration.ofSeconds(5));
    }
}
