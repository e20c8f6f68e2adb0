package org.dyper.cli.ui;

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
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.NatsFleet;
import org.dyper.patch.build.Weaver;
import org.dyper.runtime.wire.Xml;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.NatsServer;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/**
 * The fleet of a real nats-server (docs/fleet.md's configuration) with two monitored JVMs (JDK 17 and 25) joined to
 * it: {@code dyper report --nats URL --all} makes one report of both with a read-only user, and {@code dyper ui}'s
 * API with that fleet lists them beside this machine's JVMs and opens one through the broker.
 */
class FleetOverNatsTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
    }

    static Result dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8), Map.of());
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    @Test
    @SuppressWarnings("unchecked")
    void oneReportAndTheUiOverTheBroker() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path config = NatsServer.configFrom(Path.of("..", "docs", "fleet.md"), dir);
        Path classes = Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Running> jvms = new ArrayList<>();
        try (NatsServer server = NatsServer.start(config, dir)) {
            for (Jdk jdk : List.of(Jdk.JDK17, Jdk.JDK25)) {
                jvms.add(Processes.start(List.of(jdk.java().toString(), "-Xmx64m", "-javaagent:" + runtime + "=dir="
                        + dir.resolve("registry-" + jdk) + ",nats=" + server.url("monitor", "monitor-secret"), "-cp",
                        classes.toString(), Waiter.class.getName())));
            }
            for (Running r : jvms) {
                assertEquals("ready", r.line(0, Duration.ofSeconds(60)), r.stderr());
            }
            String[] reader = {"--nats", server.url(), "--user", "reader", "--password", "reader-secret"};
            Await.until("both JVMs in who", () -> dyper(concat(new String[] {"ctl"}, reader, new String[] {"who"}))
                    .out(), out -> out.lines().count() == 2, Await.MINUTE);

            Path xml = dir.resolve("fleet.xml");
            Result report = dyper(concat(new String[] {"report", "--all", "--main", "Waiter"}, reader,
                    new String[] {"--out", dir.resolve("fleet.html").toString(), "--xml", xml.toString()}));
            assertEquals(0, report.code(), report.err());
            Element fleet = Xml.child(Xml.parse(Files.readString(xml)), "FLEET");
            assertEquals(List.of(server.url(), "2", "2"), List.of(fleet.getAttribute("CARRIER"),
                    fleet.getAttribute("ASKED"), fleet.getAttribute("ANSWERED")));
            List<Long> pids = Xml.children(fleet, "JVM").stream().map(j -> Long.parseLong(j.getAttribute("PID")))
                    .sorted().toList();
            assertEquals(jvms.stream().map(Running::pid).sorted().toList(), pids);
            for (Element j : Xml.children(fleet, "JVM")) {
                assertTrue(j.getAttribute("NAME").matches("[A-Za-z0-9-]+_" + j.getAttribute("PID") + "_\\d+"),
                        j.getAttribute("NAME"));
                int feature = Long.parseLong(j.getAttribute("PID")) == jvms.get(1).pid() ? 25 : 17;
                assertTrue(j.getAttribute("JAVA").startsWith(feature + "."), j.getAttribute("JAVA"));
                assertEquals("OK", j.getAttribute("STATUS"));
            }

            try (Fleet nats = NatsFleet.connect(new NatsFleet.Login(server.url(), "reader", "reader-secret", null,
                    null), Duration.ofSeconds(5))) {
                Api api = new Api(dir.resolve("registry"), dir.resolve("cache"), new Page(), nats);
                try {
                    Map<String, Object> list = (Map<String, Object>) Json.parse(UiFleetTest.call(api, "GET",
                            "/api/jvms", null).body());
                    assertEquals(server.url(), list.get("fleetUrl"));
                    List<Map<String, Object>> members = (List<Map<String, Object>>) list.get("fleet");
                    assertEquals(2, members.size(), list.toString());
                    String id = (String) members.get(0).get("id");
                    UiFleetTest.Got summary = UiFleetTest.call(api, "GET", "/api/jvms/" + id, null);
                    assertEquals(200, summary.status(), summary.body());
                    assertEquals(Waiter.class.getName(), ((Map<String, Object>) Json.parse(summary.body())).get("main"));
                    UiFleetTest.Got saved = UiFleetTest.call(api, "GET", "/api/jvms/" + id + "/report.html", null);
                    assertEquals(200, saved.status(), saved.body());
                    assertTrue(saved.body().contains("\"t\":\"MONITOR_REPORT\""));
                    UiFleetTest.Got refused = UiFleetTest.call(api, "POST", "/api/jvms/" + id + "/measure", null, MAIN);
                    assertEquals(403, refused.status(), refused.body());
                    assertTrue(refused.body().contains("the NATS server refused: Permissions Violation for Publish to "
                            + "\\\"dyper." + id + ".control\\\""), refused.body());
                } finally {
                    api.close();
                }
            }
            // an operator measures a method of a JVM on the broker from the page: the classes go inline through
            // its control subject, as dyper ctl --nats ID instrument sends them
            String measured;
            try (Fleet nats = NatsFleet.connect(new NatsFleet.Login(server.url(), "operator", "operator-secret", null,
                    null), Duration.ofSeconds(5))) {
                Api api = new Api(dir.resolve("registry"), dir.resolve("cache"), new Page(), nats);
                try {
                    Map<String, Object> list = (Map<String, Object>) Json.parse(UiFleetTest.call(api, "GET",
                            "/api/jvms", null).body());
                    measured = (String) ((List<Map<String, Object>>) list.get("fleet")).get(0).get("id");
                    UiFleetTest.Got in = UiFleetTest.call(api, "POST", "/api/jvms/" + measured + "/measure", null, MAIN);
                    assertEquals(200, in.status(), in.body());
                    Map<String, Object> j = (Map<String, Object>) Json.parse(in.body());
                    assertEquals(List.of("measuring com.acme.cli.Waiter.main", List.of("com.acme.cli.Waiter.main"),
                            "dyper-ui", 1), List.of(j.get("message"), j.get("measured"), j.get("model"),
                            ((Number) j.get("classes")).intValue()));

                    // the merged report says how each JVM was patched: one at run time from the page, one not at all
                    Result again = dyper(concat(new String[] {"report", "--all", "--main", "Waiter"}, reader,
                            new String[] {"--out", dir.resolve("fleet.html").toString(), "--xml", xml.toString()}));
                    assertEquals(0, again.code(), again.err());
                    Map<String, String> woven = new java.util.TreeMap<>();
                    for (Element jvm : Xml.children(Xml.child(Xml.parse(Files.readString(xml)), "FLEET"), "JVM")) {
                        woven.put(jvm.getAttribute("NAME"), jvm.getAttribute("WOVEN"));
                    }
                    assertEquals("patched at run time: model dyper-ui in (1 class patched now)", woven.remove(measured));
                    assertEquals(List.of("nothing woven"), List.copyOf(woven.values()));

                    UiFleetTest.Got out = UiFleetTest.call(api, "DELETE", "/api/jvms/" + measured + "/measure", null, MAIN);
                    assertEquals(200, out.status(), out.body());
                    assertEquals("nothing measured now: model 'dyper-ui' removed", ((Map<String, Object>) Json.parse(
                            out.body())).get("message"));
                } finally {
                    api.close();
                }
            }
        } finally {
            jvms.forEach(Running::close);
        }
    }

    private static final String MAIN = "{\"method\": \"com.acme.cli.Waiter.main\"}";

    private static String[] concat(String[]... parts) {
        List<String> all = new ArrayList<>();
        for (String[] p : parts) {
            all.addAll(List.of(p));
        }
        return all.toArray(String[]::new);
    }
}
