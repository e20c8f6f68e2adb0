package org.dyper.cli.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link OtlpPusher} against a JDK HttpServer playing the OTLP receiver: what arrives (method, content type, the
 * user's headers, a body the official decoder reads), retries with backoff for 429 and 503, and the one-line errors a
 * user reads for every other failure.
 */
class OtlpPusherTest {
    /** What the receiver answers, one per request (the last one repeated): status, then body. */
    private final List<Object[]> answers = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();
    private final List<byte[]> bodies = Collections.synchronizedList(new ArrayList<>());
    private HttpServer server;

    private URI receiver() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        server.createContext("/v1/metrics", x -> {
            seen.add(x.getRequestMethod() + " " + x.getRequestHeaders().getFirst("Content-Type") + " "
                    + x.getRequestHeaders().getFirst("Authorization"));
            bodies.add(x.getRequestBody().readAllBytes());
            Object[] a = answers.size() > 1 ? answers.remove(0) : answers.get(0);
            byte[] body = a[1] instanceof byte[] b ? b : ((String) a[1]).getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().set("Content-Type", a[1] instanceof byte[] ? "application/x-protobuf"
                    : "text/plain");
            if (a.length > 2) {
                x.getResponseHeaders().set("Retry-After", (String) a[2]);
            }
            x.sendResponseHeaders((int) a[0], body.length == 0 ? -1 : body.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static OtlpPusher pusher(URI url) {
        return new OtlpPusher(url, Map.of("Authorization", "Bearer s3cret"), 3, 10, Duration.ofSeconds(5));
    }

    private static byte[] request() throws Exception {
        return OtlpMetrics.request(Xml.parse(OtlpMetricsTest.REPORT), OtlpMetricsTest.TARGET, "");
    }

    @Test
    void aPushArrivesAsProtobufWithTheUsersHeaders() throws Exception {
        answers.add(new Object[] {200, ExportMetricsServiceResponse.getDefaultInstance().toByteArray()});
        OtlpPusher.Accepted a = pusher(receiver()).push(request());
        assertEquals(new OtlpPusher.Accepted(1, 0, ""), a);
        assertEquals(List.of("POST application/x-protobuf Bearer s3cret"), List.copyOf(seen));
        assertEquals(ExportMetricsServiceRequest.parseFrom(request()),
                ExportMetricsServiceRequest.parseFrom(bodies.get(0)));
    }

    @Test
    void aPartialSuccessIsPassedOn() throws Exception {
        answers.add(new Object[] {200, ExportMetricsServiceResponse.newBuilder().setPartialSuccess(
                ExportMetricsPartialSuccess.newBuilder().setRejectedDataPoints(3).setErrorMessage("too old"))
                .build().toByteArray()});
        assertEquals(new OtlpPusher.Accepted(1, 3, "too old"), pusher(receiver()).push(request()));
    }

    @ParameterizedTest(name = "{0} twice, then 200")
    @CsvSource({"429", "503", "502", "504"})
    void retriedStatusesAreTriedAgainWithTheSameFigures(int status) throws Exception {
        answers.add(new Object[] {status, "busy", "0"});
        answers.add(new Object[] {status, "busy"});
        answers.add(new Object[] {200, new byte[0]});
        assertEquals(3, pusher(receiver()).push(request()).tries());
        assertEquals(3, bodies.size());
        for (byte[] b : bodies) {
            assertEquals(ExportMetricsServiceRequest.parseFrom(request()), ExportMetricsServiceRequest.parseFrom(b));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "401 | \\n  bad token for tenant 7\\nsecond line | HTTP 401: bad token for tenant 7",
            "404 | 404 page not found | HTTP 404: 404 page not found",
            "400 |  | HTTP 400",
            "500 | boom | HTTP 500: boom",
            "503 | overloaded\\n | HTTP 503: overloaded (gave up after 3 tries)"})
    void otherFailuresAreOneLineNamingTheUrl(int status, String body, String said) throws Exception {
        answers.add(new Object[] {status, body == null ? "" : body.replace("\\n", "\n")});
        URI url = receiver();
        OtlpPusher.PushException e = assertThrows(OtlpPusher.PushException.class, () -> pusher(url).push(request()));
        assertEquals("--otlp " + url + ": " + said, e.getMessage());
        assertEquals(status == 503 ? 3 : 1, bodies.size(), "tries");
    }

    @Test
    void anUnreachableReceiverIsSaidSo() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI url = URI.create("http://127.0.0.1:" + port + "/v1/metrics");
        OtlpPusher.PushException e = assertThrows(OtlpPusher.PushException.class, () -> pusher(url).push(request()));
        assertEquals("--otlp " + url + ": cannot connect (connection refused)", e.getMessage()
                .replace("Connection refused", "connection refused"));
    }
}
