package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * {@code dyper export PID --prometheus PORT --otlp URL}: one woven program that has done three rounds of work and
 * waits, one exporter outside it doing both at once. A real Prometheus server (Debian's {@code prometheus}, which
 * .ci/run installs; else {@code -Ddyper.prometheus=BINARY}; without one that half is skipped) scrapes every second,
 * and what its query API then holds equals the program's REPORT, site by site: counts, calls, values, and the timing
 * histogram bucket by bucket with its sum and count. An OTLP/HTTP receiver in the test decodes every push with the
 * official opentelemetry-proto classes, and the last push before and after the program ends equals the REPORT too,
 * with the resource naming the JVM. The exporter ends with the program.
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
    void prometheusAndOtlpGetExactlyTheReportsFigures() throws Exception {
        Path prometheus = prometheus();
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
        try (Running t = MonitorEndToEndTest.start(cmd, null); OtlpReceiver otlp = new OtlpReceiver()) {
            assertEquals("ready", t.line(0, LINE), t::stderr);
            for (int round = 1; round <= 3; round++) {
                t.send("round");
                t.line(round, LINE);
            }
            Run who = E2e.dyper("ctl", "--dir", dir.toString(), "who");
            assertEquals(0, who.exit(), who.err());
            String pid = who.out().trim().split("\\s+")[0];
            List<String> export = new ArrayList<>(List.of(Processes.currentJava().toString(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "export", pid, "--otlp",
                    otlp.url(), "--otlp-header", "Authorization=Bearer e2e", "--interval", "300ms", "--dir",
                    dir.toString()));
            if (prometheus != null) {
                export.addAll(List.of("--prometheus", "0"));
            }
            try (Running exporter = Processes.start(export)) {
                int line = 0;
                if (prometheus != null) {
                    String serving = exporter.line(line++, LINE);
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
                }
                assertEquals("dyper: export: process " + pid + "'s figures pushed to " + otlp.url() + " every 0.3 s",
                        exporter.line(line, LINE));
                Element report = report(pid);
                int before = otlp.received().size();
                Await.until("two more OTLP pushes after the report", () -> otlp.received().size(),
                        n -> n >= before + 2, Await.MINUTE);
                assertOtlp(report, otlp.received().get(otlp.received().size() - 1), Long.parseLong(pid));
                assertEquals(0, t.stop(LINE), t::stderr);
                assertEquals(0, exporter.awaitExit(LINE), exporter::stderr);
                Await.until("the exporter's last lines", exporter::lines, l -> l.contains("dyper: export: process "
                        + pid + " ended"), Await.MINUTE);
                assertTrue(exporter.lines().stream().anyMatch(l -> l.matches("dyper: export: last figures, pulled "
                        + "\\d+ ms before pushed to " + Pattern.quote(otlp.url()))), exporter.lines()::toString);
                assertOtlp(report, otlp.received().get(otlp.received().size() - 1), Long.parseLong(pid));
                assertEquals(List.of("Bearer e2e"), otlp.authorizations().stream().distinct().toList());
            }
        }
        Skip.unless(prometheus != null, "OTLP checked; no prometheus here for the Prometheus half (not on the PATH, "
                + "not /usr/bin/prometheus, no -Ddyper.prometheus): apt-get install prometheus, as .ci/run does");
    }

    /** The OTLP push equals the report: every figure, every bucket, and the resource naming the JVM. */
    private static void assertOtlp(Element report, ExportMetricsServiceRequest r, long pid) throws Exception {
        assertEquals(1, r.getResourceMetricsCount());
        Map<String, Object> resource = new HashMap<>();
        for (KeyValue kv : r.getResourceMetrics(0).getResource().getAttributesList()) {
            resource.put(kv.getKey(), kv.getValue().hasIntValue() ? (Object) kv.getValue().getIntValue()
                    : kv.getValue().getStringValue());
        }
        assertEquals(Map.of("service.name", TraceRounds.class.getName(), "process.executable.name",
                TraceRounds.class.getName(), "process.pid", pid, "host.name",
                InetAddress.getLocalHost().getHostName()), resource);
        ScopeMetrics scope = r.getResourceMetrics(0).getScopeMetrics(0);
        assertEquals("dyper", scope.getScope().getName());
        Map<String, Metric> metrics = new HashMap<>();
        scope.getMetricsList().forEach(m -> metrics.put(m.getName(), m));

        Element timing = site(report, "TIMING", FAST);
        Metric histogram = metrics.get("dyper.timing");
        assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
                histogram.getHistogram().getAggregationTemporality());
        HistogramDataPoint h = histogram.getHistogram().getDataPointsList().stream().filter(p -> p.getAttributesList()
                .contains(KeyValue.newBuilder().setKey("site").setValue(AnyValue.newBuilder().setStringValue(FAST))
                        .build())).findFirst().orElseThrow();
        assertEquals(Long.parseLong(timing.getAttribute("COUNT")), h.getCount());
        assertEquals(new BigDecimal(timing.getAttribute("TOTAL_NS")).movePointLeft(9).doubleValue(), h.getSum());
        assertEquals(new BigDecimal(timing.getAttribute("MIN_NS")).movePointLeft(9).doubleValue(), h.getMin());
        assertEquals(new BigDecimal(timing.getAttribute("MAX_NS")).movePointLeft(9).doubleValue(), h.getMax());
        long[] expected = new long[65];
        for (Element b : XmlReports.children(timing, "BUCKET")) {
            int index = new java.math.BigInteger(b.getAttribute("UPPER_NS")).bitLength() - 1;
            assertEquals(new BigDecimal(b.getAttribute("UPPER_NS")).movePointLeft(9).doubleValue(),
                    h.getExplicitBounds(index), "the bound of UPPER_NS " + b.getAttribute("UPPER_NS"));
            expected[index] = Long.parseLong(b.getAttribute("COUNT"));
        }
        assertEquals(Arrays.stream(expected).boxed().toList(), h.getBucketCountsList(), "every bucket");

        Map<String, Long> sums = new HashMap<>();
        for (String name : List.of("dyper.count", "dyper.calls")) {
            Metric m = metrics.get(name);
            assertTrue(m.getSum().getIsMonotonic(), name);
            assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, m.getSum()
                    .getAggregationTemporality(), name);
            for (NumberDataPoint p : m.getSum().getDataPointsList()) {
                sums.put(name + " " + p.getAttributes(0).getValue().getStringValue(), p.getAsInt());
            }
        }
        Element phase = site(report, "COUNTS", "org.dyper.samples.trace.Work.phaseTwo()");
        Element called = site(report, "CALLS", FAST);
        assertEquals(Map.of("dyper.count org.dyper.samples.trace.Work.phaseTwo()", Long.parseLong(phase
                .getAttribute("COUNT")), "dyper.calls " + FAST, Long.parseLong(called.getAttribute("COUNT"))), sums);
        Element values = site(report, "VALUES", FAST);
        for (String v : List.of("COUNT", "SUM", "MIN", "MAX")) {
            Metric m = metrics.get("dyper.values." + v.toLowerCase(java.util.Locale.ROOT));
            assertEquals(Long.parseLong(values.getAttribute(v)), m.getGauge().getDataPoints(0).getAsInt(), v);
        }
    }

    /**
     * A JDK HttpServer as the OTLP/HTTP receiver: every request's body decoded with the official classes
     * (opentelemetry-proto, test scope only), answered 200 with an empty ExportMetricsServiceResponse.
     */
    private static final class OtlpReceiver implements AutoCloseable {
        private final HttpServer server;
        private final List<ExportMetricsServiceRequest> received = new CopyOnWriteArrayList<>();
        private final List<String> authorizations = new CopyOnWriteArrayList<>();

        OtlpReceiver() throws Exception {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
            server.createContext("/v1/metrics", x -> {
                byte[] body = x.getRequestBody().readAllBytes();
                int status = 200;
                if (!"application/x-protobuf".equals(x.getRequestHeaders().getFirst("Content-Type"))) {
                    status = 415;
                } else {
                    received.add(ExportMetricsServiceRequest.parseFrom(body));
                    authorizations.add(x.getRequestHeaders().getFirst("Authorization"));
                }
                byte[] reply = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
                x.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                x.sendResponseHeaders(status, reply.length == 0 ? -1 : reply.length);
                x.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics";
        }

        List<ExportMetricsServiceRequest> received() {
            return received;
        }

        List<String> authorizations() {
            return authorizations;
        }

        @Override
        public void close() {
            server.stop(0);
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
