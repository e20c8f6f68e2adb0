package org.dyper.cli.otlp;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * Sends OTLP/HTTP protobuf requests ({@code POST}, {@code application/x-protobuf}) to one URL with the user's headers.
 * 429, 502, 503 and 504 are retried with exponential backoff (a {@code Retry-After} in seconds is honoured); every
 * other failure is one {@link PushException} naming the URL and what went wrong: no connection, no answer in time,
 * or the status with the first line of the body. Since every push carries cumulative figures, a push that fails is
 * made good by the next one: nothing is queued.
 */
public final class OtlpPusher {
    private static final Set<Integer> RETRIED = Set.of(429, 502, 503, 504);
    private static final long MAX_RETRY_AFTER_MS = 30_000;

    private final URI url;
    private final Map<String, String> headers;
    private final int attempts;
    private final long firstBackoffMs;
    private final Duration timeout;
    private final HttpClient http;

    /** Why a push did not go through. */
    public static final class PushException extends Exception {
        private static final long serialVersionUID = 1L;

        PushException(String message) {
            super(message);
        }
    }

    /** What the receiver said about an accepted request: a partial success, or nothing. */
    public record Accepted(int tries, long rejectedPoints, String message) {
    }

    /**
     * @param attempts       tries for a retried status, the first included (at least 1)
     * @param firstBackoffMs the wait before the second try; doubled before each further one
     */
    public OtlpPusher(URI url, Map<String, String> headers, int attempts, long firstBackoffMs, Duration timeout) {
        this.url = url;
        this.headers = Map.copyOf(headers);
        this.attempts = Math.max(1, attempts);
        this.firstBackoffMs = firstBackoffMs;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public URI url() {
        return url;
    }

    /** Sends {@code body}; returns when the receiver accepted it (2xx), else throws saying why. */
    public Accepted push(byte[] body) throws PushException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        HttpRequest request = b.build();
        long backoff = firstBackoffMs;
        for (int tryNo = 1; ; tryNo++) {
            HttpResponse<byte[]> r;
            try {
                r = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (HttpConnectTimeoutException e) {
                throw new PushException("--otlp " + url + ": cannot connect (no answer within "
                        + timeout.toSeconds() + " s)");
            } catch (ConnectException e) {
                throw new PushException("--otlp " + url + ": cannot connect ("
                        + (e.getMessage() == null ? "connection refused" : e.getMessage()) + ")");
            } catch (HttpTimeoutException e) {
                throw new PushException("--otlp " + url + ": no answer within " + timeout.toSeconds() + " s");
            } catch (IOException e) {
                throw new PushException("--otlp " + url + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            }
            int status = r.statusCode();
            if (status / 100 == 2) {
                return accepted(tryNo, r);
            }
            String said = "HTTP " + status + firstLine(r.body());
            if (!RETRIED.contains(status)) {
                throw new PushException("--otlp " + url + ": " + said);
            }
            if (tryNo >= attempts) {
                throw new PushException("--otlp " + url + ": " + said + " (gave up after " + tryNo + " tries)");
            }
            long wait = r.headers().firstValue("Retry-After").map(OtlpPusher::retryAfterMs).orElse(backoff);
            Thread.sleep(wait); // the backoff itself
            backoff *= 2;
        }
    }

    private static long retryAfterMs(String v) {
        try {
            return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Long.parseLong(v.trim()) * 1000));
        } catch (NumberFormatException e) {
            return MAX_RETRY_AFTER_MS; // an HTTP date: wait the longest we wait
        }
    }

    /** ": " and the first non-blank line of a body (cut at 200 characters), or nothing. */
    static String firstLine(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        for (String line : s.split("\\R")) {
            String t = line.strip();
            if (!t.isEmpty()) {
                StringBuilder clean = new StringBuilder();
                t.codePoints().limit(200).forEach(c -> clean.appendCodePoint(Character.isISOControl(c) ? '?' : c));
                return ": " + clean;
            }
        }
        return "";
    }

    /** An ExportMetricsServiceResponse's partial_success (field 1: rejected_data_points 1, error_message 2). */
    private static Accepted accepted(int tries, HttpResponse<byte[]> r) {
        boolean proto = r.headers().firstValue("Content-Type").map(t -> t.startsWith("application/x-protobuf"))
                .orElse(false);
        if (!proto) {
            return new Accepted(tries, 0, "");
        }
        ProtoReader response = new ProtoReader(r.body());
        long rejected = 0;
        String message = "";
        while (response.next()) {
            if (response.field() == 1 && response.isLength()) {
                ProtoReader partial = response.message();
                while (partial.next()) {
                    if (partial.field() == 1 && partial.isVarint()) {
                        rejected = partial.varint();
                    } else if (partial.field() == 2 && partial.isLength()) {
                        message = partial.string();
                    } else {
                        partial.skip();
                    }
                }
            } else {
                response.skip();
            }
        }
        return new Accepted(tries, rejected, message);
    }
}
