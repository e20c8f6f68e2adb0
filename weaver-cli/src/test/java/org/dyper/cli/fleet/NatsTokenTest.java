package org.dyper.cli.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.NatsServer;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that takes a token: the monitor's {@code natstoken} option and {@code dyper ctl --token}; a wrong token is
 * refused, and the monitor's messages never show the token.
 */
class NatsTokenTest {
    @TempDir
    Path dir;

    private static String[] ctl(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(args, o, e, Map.of());
        }
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void aTokenLetsTheMonitorAndTheCliIn() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path config = Files.writeString(dir.resolve("token.conf"), "authorization { token: \"t0ken-s3cret\" }\n");
        try (NatsServer server = NatsServer.start(config, dir);
                Running jvm = Processes.start(List.of(Processes.currentJava().toString(), "-javaagent:" + runtime
                        + "=dir=" + dir.resolve("registry") + ",nats=" + server.url() + ",natstoken=t0ken-s3cret",
                        "-cp", Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString(), Waiter.class.getName()))) {
            assertEquals("ready", jvm.line(0, Duration.ofSeconds(60)), jvm.stderr());
            String who = Await.until("the monitor in who", () -> ctl("ctl", "--nats", server.url(), "--token",
                    "t0ken-s3cret", "who")[1], out -> !out.isBlank(), Duration.ofSeconds(60));
            String id = who.split("  ")[0];
            String[] ping = ctl("ctl", "--nats", server.url(), "--token", "t0ken-s3cret", id, "PING");
            assertEquals("0", ping[0], ping[2]);
            assertEquals("PONG\n", ping[1]);
            String[] wrong = ctl("ctl", "--nats", server.url(), "--token", "guess", "who");
            assertEquals("7", wrong[0]);
            assertEquals("dyper: error: cannot connect to the NATS server " + server.url() + ": Authorization "
                    + "Violation (wrong user, password, token or .creds?)\n", wrong[2]);
            assertTrue(jvm.stderr().contains("dyper: nats: connected to " + server.url() + " as " + id), jvm.stderr());
            assertTrue(!jvm.stderr().contains("t0ken-s3cret"), jvm.stderr());
        }
    }
}
