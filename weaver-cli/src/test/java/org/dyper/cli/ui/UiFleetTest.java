package org.dyper.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.LocalFleet;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dyper ui} with a fleet beside this machine's JVMs (as {@code --nats URL} gives it): the list holds the
 * fleet's members, one opens by its id there and its summary, stacks and saved report come through the fleet; what
 * the page cannot do there yet says so; an unknown id and a JVM that ended are told apart. The fleet here is a real
 * monitored JVM reached through {@link LocalFleet} under a broker-like id ({@code host_pid_start}), so that the test
 * needs no server; NatsFleet is the same interface.
 */
class UiFleetTest {
    @TempDir
    Path dir;

    /** This machine's registry under broker-like ids, as NatsFleet names JVMs. */
    static final class Renamed implements Fleet {
        final LocalFleet local;

        Renamed(Path registry) {
            local = new LocalFleet(registry);
        }

        static Member renamed(Member m) {
            return new Member("testhost_" + m.pid() + "_" + m.startMillis(), "testhost", m.pid(), m.mainClass(),
                    m.startMillis(), m.jdk());
        }

        @Override
        public List<Member> who(Duration deadline) throws IOException {
            return local.who(deadline).stream().map(Renamed::renamed).toList();
        }

        @Override
        public List<Answer> send(List<Member> members, String message, boolean control, Duration deadline) {
            List<Member> back = members.stream().map(m -> new Member(Long.toString(m.pid()), m.host(), m.pid(),
                    m.mainClass(), m.startMillis(), m.jdk())).toList();
            List<Answer> answers = new ArrayList<>();
            List<Answer> local = this.local.send(back, message, control, deadline);
            for (int i = 0; i < members.size(); i++) {
                answers.add(new Answer(members.get(i), local.get(i).reply(), local.get(i).error()));
            }
            return answers;
        }

        @Override
        public String describe() {
            return "nats://test:4222";
        }

        @Override
        public void close() {
        }
    }

    record Got(int status, String type, String body) {
    }

    static Got call(Api api, String method, String path, String query) throws IOException {
        return call(api, method, path, query, method.equals("POST") ? "{\"method\": \"a.B.c\"}" : null);
    }

    static Got call(Api api, String method, String path, String query, String body) throws IOException {
        Got[] got = new Got[1];
        api.serve(new Api.Request(method, path, query, body),
                new Api.Reply() {
                    @Override
                    public void send(int status, String type, byte[] body, List<String[]> headers) {
                        got[0] = new Got(status, type, new String(body, StandardCharsets.UTF_8));
                    }

                    @Override
                    public void stream(String type, Api.Pump pump) {
                        throw new AssertionError("no stream expected");
                    }
                });
        return got[0];
    }

    @Test
    @SuppressWarnings("unchecked")
    void theFleetIsListedAndOpensThroughIt() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path fleetRegistry = dir.resolve("fleet");
        Path classes = Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Api api = new Api(dir.resolve("registry"), dir.resolve("cache"), new Page(), new Renamed(fleetRegistry));
        Api alone = new Api(dir.resolve("registry"), dir.resolve("cache"), new Page());
        try (Running p = Processes.start(List.of(Processes.currentJava().toString(), "-javaagent:" + runtime
                + "=dir=" + fleetRegistry, "-cp", classes.toString(), Waiter.class.getName()))) {
            assertEquals("ready", p.line(0, Duration.ofSeconds(60)), p.stderr());
            // with its JDK: a JVM that did not answer WHORU within WHO's second (a busy machine) is listed without
            // one, and the list is asked again every 5 s
            Map<String, Object> list = Await.until("the JVM in the fleet list, with its JDK", () -> (Map<String, Object>)
                    Json.parse(call(api, "GET", "/api/jvms", null).body()), l -> !((List<?>) l.get("fleet")).isEmpty()
                    && !"".equals(((Map<?, ?>) ((List<?>) l.get("fleet")).get(0)).get("java")), Await.MINUTE);
            assertEquals(List.of(), list.get("jvms"), "not in this machine's registry");
            assertEquals("nats://test:4222", list.get("fleetUrl"));
            Map<String, Object> member = (Map<String, Object>) ((List<?>) list.get("fleet")).get(0);
            String id = (String) member.get("id");
            assertTrue(id.matches("testhost_" + p.pid() + "_\\d+"), id);
            assertEquals(List.of("testhost", (double) p.pid(), Waiter.class.getName()), List.of(member.get("host"),
                    ((Number) member.get("pid")).doubleValue(), member.get("main")));
            assertTrue(((String) member.get("java")).startsWith("17."), member.toString());

            Got summary = call(api, "GET", "/api/jvms/" + id, null);
            assertEquals(200, summary.status(), summary.body());
            Map<String, Object> s = (Map<String, Object>) Json.parse(summary.body());
            assertEquals(List.of((double) p.pid(), Waiter.class.getName()), List.of(((Number) s.get("pid"))
                    .doubleValue(), s.get("main")));
            assertTrue(((String) s.get("java")).startsWith("17."), s.toString());
            Got stacks = call(api, "GET", "/api/jvms/" + id + "/stacks", "view=CPU&window=start");
            assertEquals(200, stacks.status(), stacks.body());
            Got xml = call(api, "GET", "/api/jvms/" + id + "/report.xml", null);
            assertEquals(200, xml.status(), xml.body());
            assertTrue(xml.body().contains("<MONITOR_REPORT VERSION=\"1\" PID=\"" + p.pid() + "\"")
                    || xml.body().contains("PID=\"" + p.pid() + "\""), xml.body().substring(0, 200));

            Got detail = call(api, "POST", "/api/jvms/" + id + "/detail", null, "{\"on\": true}");
            assertEquals(501, detail.status(), detail.body());
            assertTrue(detail.body().contains("/api/jvms/" + id + "/detail: not for a JVM on the NATS server from this "
                    + "page (yet); dyper ctl --nats URL " + id + " does it (docs/fleet.md)"), detail.body());
            Got unknown = call(api, "GET", "/api/jvms/otherhost_1_2", null);
            assertEquals(404, unknown.status());
            assertTrue(unknown.body().contains("no JVM otherhost_1_2 answers WHO on nats://test:4222"), unknown.body());
            Got none = call(alone, "GET", "/api/jvms/" + id, null);
            assertEquals(404, none.status());
            assertTrue(none.body().contains("this UI reaches no NATS server (dyper ui --nats URL)"), none.body());

            assertEquals(0, p.stop(Duration.ofSeconds(30)), p.stderr());
            Got ended = Await.until("the ended JVM told apart", () -> call(api, "GET", "/api/jvms/" + id, null),
                    g -> g.status() == 410, Await.MINUTE);
            assertTrue(ended.body().contains("JVM " + id + " (" + Waiter.class.getName() + ", pid " + p.pid()
                    + " on testhost) ended (it no longer answers WHO)"), ended.body());
        } finally {
            api.close();
            alone.close();
        }
    }
}
