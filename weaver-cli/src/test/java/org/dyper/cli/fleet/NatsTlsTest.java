package org.dyper.cli.fleet;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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
 * TLS as docs/fleet.md says: a {@code tls://} URL, the trust store from the JDK's usual system properties, for the
 * monitor and for {@code dyper ctl}. The server's certificate is made here with keytool (self-signed, for
 * 127.0.0.1); the server runs docs/fleet.md's configuration with a {@code tls} block added.
 */
class NatsTlsTest {
    @TempDir
    Path dir;

    private void keytool(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().resolveSibling("keytool").toString()));
        cmd.addAll(List.of(args));
        Processes.Result r = Processes.run(cmd, Duration.ofSeconds(60));
        assertEquals(0, r.exit(), r.out() + r.err());
    }

    @Test
    void theMonitorAndTheCliSpeakTls() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path server = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "nats", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=IP:127.0.0.1", "-validity", "2", "-keystore", server.toString(), "-storepass", "changeit",
                "-storetype", "PKCS12");
        Path cert = dir.resolve("cert.pem");
        keytool("-exportcert", "-rfc", "-alias", "nats", "-keystore", server.toString(), "-storepass", "changeit",
                "-file", cert.toString());
        Path trust = dir.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "nats", "-file", cert.toString(), "-keystore", trust.toString(),
                "-storepass", "changeit", "-storetype", "PKCS12");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(server.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        Key key = ks.getKey("nats", "changeit".toCharArray());
        Path keyPem = Files.writeString(dir.resolve("key.pem"), "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(key.getEncoded())
                + "\n-----END PRIVATE KEY-----\n", UTF_8);
        Path config = NatsServer.configFrom(NatsCtlTest.DOCS.resolve("fleet.md"), dir);
        Files.writeString(config, Files.readString(config) + "tls {\n  cert_file: \"" + cert + "\"\n  key_file: \""
                + keyPem + "\"\n}\n");
        List<String> trustProps = List.of("-Djavax.net.ssl.trustStore=" + trust,
                "-Djavax.net.ssl.trustStorePassword=changeit");
        try (NatsServer nats = NatsServer.start(config, dir)) {
            String tls = "tls://127.0.0.1:" + nats.port();
            List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString()));
            cmd.addAll(trustProps);
            cmd.addAll(List.of("-javaagent:" + runtime + "=dir=" + dir.resolve("registry") + ",nats=tls://monitor:"
                    + "monitor-secret@127.0.0.1:" + nats.port(), "-cp", Path.of(Waiter.class.getProtectionDomain()
                    .getCodeSource().getLocation().toURI()).toString(), Waiter.class.getName()));
            try (Running jvm = Processes.start(cmd)) {
                assertEquals("ready", jvm.line(0, Duration.ofSeconds(60)), jvm.stderr());
                List<String> ctl = new ArrayList<>(List.of(Processes.currentJava().toString()));
                ctl.addAll(trustProps);
                ctl.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "ctl", "--nats",
                        tls, "--user", "reader", "--password", "reader-secret", "who"));
                String who = Await.until("the monitor in who over TLS", () -> Processes.run(ctl,
                        Duration.ofSeconds(60)).out(), out -> !out.isBlank(), Duration.ofSeconds(60));
                assertTrue(who.contains("  " + jvm.pid() + "  " + Waiter.class.getName() + "  "), who);
                assertTrue(jvm.stderr().contains("dyper: nats: connected to tls://monitor:***@127.0.0.1:"
                        + nats.port()), jvm.stderr());

                List<String> untrusted = new ArrayList<>(List.of(Processes.currentJava().toString(), "-cp",
                        System.getProperty("java.class.path"), Main.class.getName(), "ctl", "--nats", tls, "--user",
                        "reader", "--password", "reader-secret", "who"));
                Processes.Result refused = Processes.run(untrusted, Duration.ofSeconds(60));
                assertEquals(7, refused.exit(), refused.err());
                assertTrue(refused.err().startsWith("dyper: error: cannot connect to the NATS server " + tls + ": "),
                        refused.err());
            }
        }
    }
}
