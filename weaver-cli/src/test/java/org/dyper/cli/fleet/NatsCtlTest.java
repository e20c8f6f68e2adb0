package org.dyper.cli.fleet;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.NatsServer;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dyper ctl --nats} against a real nats-server run with docs/fleet.md's configuration, and one monitored JVM
 * on it: who, one command, the read and control subjects and the server's permissions, wrong credentials, a JVM that
 * is not there.
 */
class NatsCtlTest {
    static final Path DOCS = Path.of("..", "docs");

    @TempDir
    static Path dir;
    static NatsServer server;
    static Running jvm;
    static String id;

    @BeforeAll
    static void startServerAndJvm() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path config = NatsServer.configFrom(DOCS.resolve("fleet.md"), dir);
        assertEquals(Files.readString(DOCS.resolve("nats-server.conf")), Files.readString(config),
                "docs/nats-server.conf is the block docs/fleet.md shows");
        server = NatsServer.start(config, dir);
        Path classes = Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // a secret given as a system property, as programs often are: WHORU shows it to an operator only
        jvm = Processes.start(List.of(Processes.currentJava().toString(), "-Dacme.db.password=s3cret",
                "-javaagent:" + runtime + "=dir=" + dir.resolve("registry") + ",nats="
                + server.url("monitor", "monitor-secret"), "-cp",
                classes.toString(), Waiter.class.getName()));
        assertEquals("ready", jvm.line(0, Duration.ofSeconds(60)), jvm.stderr());
        String[] line = Await.until("the JVM in who", () -> ctl("reader", "who").out().trim(),
                out -> !out.isEmpty(), Duration.ofSeconds(30)).split("  ");
        id = line[0];
    }

    @AfterAll
    static void stop() throws Exception {
        if (jvm != null) {
            jvm.close();
        }
        if (server != null) {
            server.close();
        }
    }

    record Result(int code, String out, String err) {
    }

    static Result ctl(String user, String... args) {
        List<String> all = new ArrayList<>(List.of("ctl", "--nats", server.url()));
        if (user != null) {
            all.addAll(List.of("--user", user, "--password", user + "-secret"));
        }
        all.addAll(Arrays.asList(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, UTF_8); PrintStream e = new PrintStream(err, true, UTF_8)) {
            code = Main.run(all.toArray(String[]::new), o, e, Map.of());
        }
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    @Test
    void whoListsTheJvmByHostPidAndStart() throws Exception {
        Result who = ctl("reader", "who");
        assertEquals(0, who.code(), who.err());
        assertEquals(1, who.out().lines().count(), who.out());
        String[] f = who.out().trim().split("  ");
        assertEquals(jvm.pid(), Long.parseLong(f[2]));
        assertEquals(f[1].replaceAll("[^A-Za-z0-9-]", "-") + "_" + jvm.pid() + "_", id.substring(0,
                id.lastIndexOf('_') + 1), "id = host_pid_start");
        assertEquals(Waiter.class.getName(), f[3]);
        assertEquals(System.getProperty("java.version"), f[5]);
    }

    @Test
    void readCommandsGoToTheReadSubject() {
        Result ping = ctl("reader", id, "PING");
        assertEquals(0, ping.code(), ping.err());
        assertEquals("PONG\n", ping.out());
        Result report = ctl("reader", "--xml", id, "REPORT");
        assertEquals(0, report.code(), report.err());
        assertTrue(report.out().startsWith("<DYPER_REPLY ID='" + jvm.pid() + "'><MONITOR_REPORT"), report.out());
    }

    @Test
    void aReaderCannotChangeTheProgramAnOperatorCan() {
        Result refused = ctl("reader", id, "SET", "<VAR NAME='CHECKTIME' VALUE='7'/>");
        assertEquals(6, refused.code(), refused.err());
        assertEquals("dyper: error: JVM " + id + " (pid " + jvm.pid() + " on " + id.substring(0, id.indexOf('_'))
                + "): the NATS server refused: Permissions Violation for Publish to \"dyper." + id + ".control\" (this"
                + " user has no control rights: a command that changes the program or reads its class files needs a "
                + "user allowed to publish on dyper.*.control, docs/fleet.md)\n", refused.err());
        Result still = ctl("reader", id, "GET", "<VAR NAME='CHECKTIME'/>");
        assertEquals("CHECKTIME = 10\n", still.out(), still.err());

        Result set = ctl("operator", id, "SET", "<VAR NAME='CHECKTIME' VALUE='7'/>");
        assertEquals(0, set.code(), set.err());
        assertEquals("CHECKTIME = 7\n", ctl("reader", id, "GET", "<VAR NAME='CHECKTIME'/>").out());
        assertEquals(0, ctl("operator", id, "SET", "<VAR NAME='CHECKTIME' VALUE='10'/>").code());
    }

    @Test
    void aReaderGetsWhoruWithoutArgumentsAndPropertiesAndNoClassFiles() {
        Result reader = ctl("reader", id, "WHORU");
        assertEquals(0, reader.code(), reader.err());
        List<String> lines = reader.out().lines().toList();
        assertEquals(4, lines.size(), reader.out());
        assertEquals("START: " + Waiter.class.getName(), lines.get(0));
        assertEquals("PROPERTY java.version: " + System.getProperty("java.version"), lines.get(1));
        assertEquals("WITHHELD: the JVM arguments, program arguments, environment and system properties often hold "
                + "passwords and keys: they are answered only on dyper." + id + ".control, not on dyper." + id
                + ".read (docs/fleet.md)", lines.get(2));
        assertTrue(lines.get(3).matches("TIME: \\d+"), lines.get(3));
        assertTrue(!reader.out().contains("s3cret"), reader.out());

        Result operator = ctl("operator", id, "WHORU");
        assertEquals(0, operator.code(), operator.err());
        assertTrue(operator.out().contains("JAVAARG: -Dacme.db.password=s3cret\n"), operator.out());
        assertTrue(operator.out().contains("PROPERTY acme.db.password: s3cret\n"), operator.out());
        assertTrue(operator.out().contains("PROPERTY user.dir: "), operator.out());
        assertTrue(!operator.out().contains("WITHHELD"), operator.out());

        Result classes = ctl("reader", id, "CLASSMODEL");
        assertEquals(6, classes.code(), classes.err());
        assertEquals("dyper: error: JVM " + id + " (pid " + jvm.pid() + " on " + id.substring(0, id.indexOf('_'))
                + "): the NATS server refused: Permissions Violation for Publish to \"dyper." + id + ".control\" (this"
                + " user has no control rights: a command that changes the program or reads its class files needs a "
                + "user allowed to publish on dyper.*.control, docs/fleet.md)\n", classes.err());
        Result operatorClasses = ctl("operator", "--xml", id, "CLASSMODEL");
        assertEquals(0, operatorClasses.code(), operatorClasses.err());
        assertTrue(operatorClasses.out().contains(Waiter.class.getName()), operatorClasses.out());
    }

    @Test
    void aChangeSentOnTheReadSubjectIsRefusedByTheMonitor() throws Exception {
        try (NatsFleet fleet = NatsFleet.connect(new NatsFleet.Login(server.url(), "operator", "operator-secret",
                null, null), Duration.ofSeconds(5))) {
            Fleet.Member me = fleet.who(Duration.ofSeconds(1)).get(0);
            Fleet.Answer a = fleet.send(List.of(me), "<DYPER COMMAND='SET'><VAR NAME='CHECKTIME' VALUE='7'/></DYPER>",
                    false, Duration.ofSeconds(10)).get(0);
            assertEquals("<DYPER_REPLY ID='" + jvm.pid() + "'><ERROR>SET changes the program: it is answered only on "
                    + "dyper." + id + ".control, not on dyper." + id + ".read (NATS permissions decide who may publish"
                    + " there; docs/fleet.md)</ERROR></DYPER_REPLY>", a.reply());
            Fleet.Answer classes = fleet.send(List.of(me), "<DYPER COMMAND='CLASSMODEL'/>", false,
                    Duration.ofSeconds(10)).get(0);
            assertEquals("<DYPER_REPLY ID='" + jvm.pid() + "'><ERROR>CLASSMODEL reads the program's class files: it is "
                    + "answered only on dyper." + id + ".control, not on dyper." + id + ".read (NATS permissions decide"
                    + " who may publish there; docs/fleet.md)</ERROR></DYPER_REPLY>", classes.reply());
            Fleet.Answer events = fleet.send(List.of(me), "<DYPER COMMAND='EVENTS'/>", false,
                    Duration.ofSeconds(10)).get(0);
            assertTrue(events.reply().contains("<EVENTS VERSION="), "EVENTS without data only reads: " + events);
        }
        assertEquals("CHECKTIME = 10\n", ctl("reader", id, "GET", "<VAR NAME='CHECKTIME'/>").out());
    }

    @Test
    void wrongCredentialsAreRefused() {
        Result wrong = ctl(null, "--user", "operator", "--password", "guess", "who");
        assertEquals(7, wrong.code());
        assertEquals("dyper: error: cannot connect to the NATS server " + server.url() + ": Authorization Violation"
                + " (wrong user, password, token or .creds?)\n", wrong.err());
        Result none = ctl(null, "who");
        assertEquals(7, none.code());
        assertTrue(none.err().startsWith("dyper: error: cannot connect to the NATS server " + server.url()
                + ": Authorization Violation"), none.err());
    }

    @Test
    void aJvmThatDoesNotAnswerInTimeIsNamed() throws Exception {
        Processes.signal(jvm.pid(), "STOP");
        Result r;
        try {
            r = ctl("reader", "--timeout", "1500", id, "PING");
        } finally {
            Processes.signal(jvm.pid(), "CONT");
        }
        assertEquals(7, r.code());
        assertEquals("dyper: error: JVM " + id + " (pid " + jvm.pid() + " on " + id.substring(0, id.indexOf('_'))
                + ") did not answer on dyper." + id + ".read within 1500 ms\n", r.err());
        assertEquals("PONG\n", ctl("reader", id, "PING").out(), "it answers again once it runs");
    }

    @Test
    void aJvmThatIsNotThereIsNamed() {
        Result r = ctl("reader", "--timeout", "2000", "nohost_1_2", "PING");
        assertEquals(7, r.code());
        assertEquals("dyper: error: JVM nohost_1_2 (pid 1 on nohost): no monitor answers on dyper.nohost_1_2.read "
                + "(the JVM ended, or is not connected now)\n", r.err());
    }
}
