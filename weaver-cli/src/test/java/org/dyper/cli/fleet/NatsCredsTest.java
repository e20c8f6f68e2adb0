package org.dyper.cli.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import io.nats.client.NKey;
import io.nats.client.support.JwtUtils;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
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
 * {@code .creds} files against a server in operator mode (JWTs, docs/fleet.md): made here as {@code nsc} would make
 * them, with jnats' own NKey and JWT code (an operator, an account signed by it, users signed by the account; the
 * server trusts the operator and has the account preloaded). The monitor joins with {@code natscreds}, {@code dyper
 * ctl --creds} reaches it, a user of an account the server does not know is refused, and a .creds file other users
 * may read is warned of.
 */
class NatsCredsTest {
    @TempDir
    Path dir;

    private static final SecureRandom RANDOM = new SecureRandom();

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

    /** An account: its key, and its JWT signed by {@code operator}. */
    private record Account(NKey key, String id, String jwt) {
    }

    private static Account account(NKey operator, String name) throws Exception {
        NKey key = NKey.createAccount(RANDOM);
        String id = new String(key.getPublicKey());
        // nsc's defaults: no limits (a missing limit would be 0: no connection allowed)
        String jwt = JwtUtils.issueJWT(operator, id, name, null, JwtUtils.currentTimeSeconds(),
                new String(operator.getPublicKey()), null, () -> "{\"limits\":{\"subs\":-1,\"data\":-1,\"payload\":-1,"
                        + "\"imports\":-1,\"exports\":-1,\"wildcards\":true,\"conn\":-1,\"leaf\":-1},"
                        + "\"default_permissions\":{\"pub\":{},\"sub\":{}},\"type\":\"account\",\"version\":2}");
        return new Account(key, id, jwt);
    }

    /** A user of {@code account} as a .creds file, with the permissions {@code perms}. */
    private Path creds(Account account, String name, String perms) throws Exception {
        NKey user = NKey.createUser(RANDOM);
        String jwt = JwtUtils.issueUserJWT(account.key(), account.id(), new String(user.getPublicKey()), name);
        Path file = dir.resolve(name + ".creds");
        Files.writeString(file, "-----BEGIN NATS USER JWT-----\n" + jwt + "\n------END NATS USER JWT------\n\n"
                + "-----BEGIN USER NKEY SEED-----\n" + new String(user.getSeed()) + "\n------END USER NKEY SEED------\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(perms));
        return file;
    }

    @Test
    void credsFilesLetTheMonitorAndTheCliInAndAStrangerIsRefused() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        NKey operator = NKey.createOperator(RANDOM);
        String operatorId = new String(operator.getPublicKey());
        String operatorJwt = JwtUtils.issueJWT(operator, operatorId, "dyper-test", null,
                JwtUtils.currentTimeSeconds(), operatorId, null, () -> "{\"type\":\"operator\",\"version\":2}");
        Account fleet = account(operator, "fleet");
        Path config = Files.writeString(dir.resolve("operator.conf"), "operator: " + operatorJwt + "\n"
                + "resolver: MEMORY\nresolver_preload: {\n  " + fleet.id() + ": " + fleet.jwt() + "\n}\n");
        Path monitor = creds(fleet, "monitor", "rw-r--r--");  // readable by all: the monitor warns
        Path cli = creds(fleet, "operator", "rw-------");
        Path stranger = creds(account(operator, "not-preloaded"), "stranger", "rw-------");
        try (NatsServer server = NatsServer.start(config, dir);
                Running jvm = Processes.start(List.of(Processes.currentJava().toString(), "-javaagent:" + runtime
                        + "=dir=" + dir.resolve("registry") + ",nats=" + server.url() + ",natscreds=" + monitor,
                        "-cp", Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                        .toString(), Waiter.class.getName()))) {
            assertEquals("ready", jvm.line(0, Duration.ofSeconds(60)), jvm.stderr());
            String who = Await.until("the monitor in who", () -> ctl("ctl", "--nats", server.url(), "--creds",
                    cli.toString(), "who")[1], out -> !out.isBlank(), Duration.ofSeconds(60));
            String id = who.split("  ")[0];
            assertTrue(who.startsWith(id + "  ") && who.contains("  " + jvm.pid() + "  " + Waiter.class.getName()
                    + "  "), who);
            String[] ping = ctl("ctl", "--nats", server.url(), "--creds", cli.toString(), id, "PING");
            assertEquals("0", ping[0], ping[2]);
            assertEquals("PONG\n", ping[1]);
            assertEquals("", ping[2]);
            assertTrue(jvm.stderr().contains("dyper: nats: warning: the .creds file " + monitor + " is open to other "
                    + "users (rw-r--r--): it holds a NATS user's secret NKey seed; make it readable by its owner only"
                    + " (chmod 600 " + monitor + ")\n"), jvm.stderr());
            assertTrue(jvm.stderr().contains("dyper: nats: connected to " + server.url() + " as " + id), jvm.stderr());

            String[] refused = ctl("ctl", "--nats", server.url(), "--creds", stranger.toString(), "who");
            assertEquals("7", refused[0], refused[2]);
            assertEquals("dyper: error: cannot connect to the NATS server " + server.url() + ": Authorization "
                    + "Violation (wrong user, password, token or .creds?)\n", refused[2]);

            Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rw-r-----"));
            String[] open = ctl("ctl", "--nats", server.url(), "--creds", cli.toString(), id, "PING");
            assertEquals("0", open[0], open[2]);
            assertEquals("dyper: warning: the .creds file " + cli + " is open to other users (rw-r-----): it holds a "
                    + "NATS user's secret NKey seed; make it readable by its owner only (chmod 600 " + cli + ")\n",
                    open[2]);
        }
    }
}
