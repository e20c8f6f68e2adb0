package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dyper.cli.Main;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.trace.TraceFacts;
import org.dyper.samples.trace.TraceRounds;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper export PID --prometheus PORT} scraped by a real Prometheus server (Debian's {@code prometheus}, which
 * .ci/run installs; else {@code -Ddyper.prometheus=BINARY}; without one the test is skipped): a woven program that has
 * done three rounds of work and waits, the exporter outside it, Prometheus scraping every second. What Prometheus's
 * query API then holds equals the program's REPORT, site by site: counts, calls, values, and the timing histogram
 * bucket by bucket with its sum and count. The exporter ends with the program.
 */
class ExportEndToEndTest {
    private static final Duration LINE = Duration.ofSeconds(90);
    private static final String FAST = TraceFacts.FAST;

    @TempDir
    Path dir;

    static Path prometheus() {
        String configured = System.getProperty("dyper.prometheus");
        if (configured != null && !configured.isBlank()) {
            return Files.isExecutable(Path.of(configured)) ? Path.of(configured) : null;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "prometheus"))) {
                return Path.of(d, "prometheus");
            }
        }
        return Files.isExecutable(Path.of("/usr/bin/prometheus")) ? Path.of("/usr/bin/prometheus") : null;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void prometheusScrapesExactlyTheReportsFigures() throws Exception {
        Path prometheus = prometheus();
        Skip.unless(prometheus != null, "no prometheus here (not on the PATH, not /usr/bin/prometheus, no "
                + "-Ddyper.prometheus): apt-get install prometheus, as .ci/run does");
        Path model = Files.writeString(dir.resolve("export.xml"), """
                <MODEL NAME='export'>
                  <FOR CLASS='org.dyper.samples.trace.Work' METHOD='fast'>
                    <PATCH WHAT='ENTER' MODE='TIME_ENTER'/>
                    <PATCH WHAT='EXIT' MODE='TIME_EXIT'/>
                    <PATCH WHAT='EXIT' MODE='RECORD_RETURN'/>
                  </FOR>
                  <FOR CLASS='org.dyper.samples.trace.Work' METHOD='phaseTwo'>
                    <PATCH WHAT='ENTER' MODE='COUNT'/>
                  </FOR>
                  <FOR CLASS='org.dyper.samples.trace.TraceRounds' METHOD='main'>
                    <PATCH WHAT='CALL' MODE='COUNT_CALLS'>
                      <WHEN CASE='METHOD' ARG='fast'/>
                    </PATCH>
                  </FOR>
                </MODEL>
                """);
        List<String> cmd = List.of(Processes.currentJava().toString(), "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "run", "--model", model.toString(), "--report", "none", "--cache",
                dir.resolve("cache").toString(), "--monitor", "dir=" + dir, "--", "-cp", E2e.appClasses().toString(),
                TraceRounds.class.getName());
        try (Running t = MonitorEndToEndTest.start(cmd, null)) {
            assertEquals("ready", t.line(0, LINE), t::stderr);
            for (int round = 1; round <= 3; round++) {
                t.send("round");
                t.line(round, LINE);
            }
            Run who = E2e.dyper("ctl", "--dir", dir.toString(), "who");
            assertEquals(0, who.exit(), who.err());
            String pid = who.out().trim().split("\\s+")[0];
            try (Running export = Processes.start(List.of(Processes.currentJava().toString(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "export", pid, "--prometheus", "0",
                    "--dir", dir.toString()))) {
                String serving = export.line(0, LINE);
                Matcher url = Pattern.compile("^dyper: export: process " + pid
                        + "'s figures on http://127\\.0\\.0\\.1:(\\d+)/metrics$").matcher(serving);
                assertTrue(url.matches(), serving);
                int api = freePort();
                Path config = Files.writeString(dir.resolve("prometheus.yml"), "global:\n  scrape_interval: 1s\n"
                        + "scrape_configs:\n  - job_name: dyper\n    static_configs:\n      - targets: ['127.0.0.1:"
                        + url.group(1) + "']\n");
                try (Running server = Processes.start(List.of(prometheus.toString(), "--config.file=" + config,
                        "--storage.tsdb.path=" + dir.resolve("tsdb"), "--web.listen-address=127.0.0.1:" + api))) {
                    Element report = report(pid);
                    Prometheus p = new Prometheus(api);
                    Await.until("Prometheus to have scraped the exporter", () -> p.query("dyper_count_total"),
                            r -> !r.isEmpty(), Await.MINUTE);
                    assertFigures(report, p);
                }
                assertEquals(0, t.stop(LINE), t::stderr);
                assertEquals(0, export.awaitExit(LINE), export::stderr);
                Await.until("the exporter's last line", () -> export.lines().contains("dyper: export: process "
                        + pid + " ended"), Await.MINUTE);
            }
        }
    }

    private Element report(String pid) throws Exception {
        Run r = E2e.dyper("ctl", "--dir", dir.toString(), "--xml", pid, "REPORT");
        assertEquals(0, r.exit(), r.err());
        Element root = XmlReports.parse(r.out());
        return Xml.find(root, "DYPER_REPORT");
    }


    private static Element site(Element report, String section, String name) {
        return XmlReports.children(XmlReports.children(report, section).get(0), "SITE").stream()
                .filter(s -> s.getAttribute("NAME").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + section + " row " + name));
    }

    private static String seconds(String ns) {
        return new BigDecimal(ns).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    private static void assertFigures(Element report, Prometheus p) throws Exception {
        int calls = 3 * TraceFacts.ROUND_CALLS;
        Element timing = site(report, "TIMING", FAST);
        assertEquals(Integer.toString(calls), timing.getAttribute("COUNT"));
        String id = timing.getAttribute("ID");
        assertEquals(timing.getAttribute("COUNT"), p.value("dyper_timing_seconds_count{id=\"" + id + "\"}"));
        assertEquals(0, new BigDecimal(seconds(timing.getAttribute("TOTAL_NS")))
                .compareTo(new BigDecimal(p.value("dyper_timing_seconds_sum{id=\"" + id + "\"}"))), "sum");
        Map<BigDecimal, String> buckets = new HashMap<>();
        for (Map<String, String> s : p.query("dyper_timing_seconds_bucket{id=\"" + id + "\"}")) {
            buckets.put(s.get("le").equals("+Inf") ? null : new BigDecimal(s.get("le")), s.get("value"));
        }
        long cumulative = 0;
        List<Element> reportBuckets = XmlReports.children(timing, "BUCKET");
        assertTrue(!reportBuckets.isEmpty());
        for (Element b : reportBuckets) {
            cumulative += Long.parseLong(b.getAttribute("COUNT"));
            assertEquals(Long.toString(cumulative), buckets.get(new BigDecimal(seconds(b.getAttribute("UPPER_NS")))),
                    "bucket " + b.getAttribute("UPPER_NS") + " ns: " + buckets);
        }
        assertEquals(Integer.toString(calls), buckets.get(null), "+Inf");
        assertEquals(reportBuckets.size() + 1, buckets.size(), "the report's buckets and +Inf: " + buckets);

        Element phase = site(report, "COUNTS", "org.dyper.samples.trace.Work.phaseTwo()");
        assertEquals("3", phase.getAttribute("COUNT"));
        assertEquals("3", p.value("dyper_count_total{id=\"" + phase.getAttribute("ID") + "\"}"));
        Element called = site(report, "CALLS", FAST);
        assertEquals(Integer.toString(calls), called.getAttribute("COUNT"));
        assertEquals(called.getAttribute("COUNT"), p.value("dyper_calls_total{id=\"" + called.getAttribute("ID")
                + "\"}"));
        Element values = site(report, "VALUES", FAST);
        long sum = 3L * TraceFacts.ROUND_CALLS * (TraceFacts.ROUND_CALLS - 1);
        assertEquals(List.of(Integer.toString(calls), Long.toString(sum), "0", "198"), List.of(values.getAttribute(
                "COUNT"), values.getAttribute("SUM"), values.getAttribute("MIN"), values.getAttribute("MAX")));
        String v = "{id=\"" + values.getAttribute("ID") + "\"}";
        assertEquals(List.of(Integer.toString(calls), Long.toString(sum), "0", "198"), List.of(p.value(
                "dyper_values_count" + v), p.value("dyper_values_sum" + v), p.value("dyper_values_min" + v),
                p.value("dyper_values_max" + v)));
        assertEquals(FAST, p.query("dyper_timing_seconds_count{id=\"" + id + "\"}").get(0).get("site"),
                "the site label");
    }

    /** Prometheus's HTTP query API, read with a small pattern (the results are flat label maps and one value). */
    private static final class Prometheus {
        private static final Pattern RESULT = Pattern.compile("\\{\"metric\":\\{(.*?)\\},\"value\":\\[[^,]+,\"([^\"]*)\"\\]\\}");
        private static final Pattern LABEL = Pattern.compile("\"([^\"]+)\":\"((?:[^\"\\\\]|\\\\.)*)\"");
        private final HttpClient http = HttpClient.newHttpClient();
        private final int port;

        Prometheus(int port) {
            this.port = port;
        }

        List<Map<String, String>> query(String promql) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                List<Map<String, String>> out = new ArrayList<>();
                if (r.statusCode() != 200) {
                    return out;
                }
                Matcher m = RESULT.matcher(r.body());
                while (m.find()) {
                    Map<String, String> labels = new HashMap<>();
                    Matcher l = LABEL.matcher(m.group(1));
                    while (l.find()) {
                        labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                    }
                    labels.put("value", m.group(2));
                    out.add(labels);
                }
                return out;
            } catch (java.io.IOException e) {
                return List.of(); // not up yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }

        String value(String promql) {
            List<Map<String, String>> r = query(promql);
            assertEquals(1, r.size(), promql + ": " + r);
            return r.get(0).get("value");
        }
    }
}
