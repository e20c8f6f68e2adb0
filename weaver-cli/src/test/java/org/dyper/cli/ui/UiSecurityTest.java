package org.dyper.cli.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.cli.Main;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dyper ui}'s server refuses what it must: requests without the token or with a wrong one, foreign Host and
 * Origin headers, state changes without an Origin, connections from outside the loopback interface; the token leaves
 * the address bar after the first visit and appears nowhere but the first line {@code dyper ui} prints.
 */
class UiSecurityTest {
    @TempDir
    Path dir;
    private UiServer server;

    @BeforeEach
    void start() throws IOException {
        Files.createDirectories(dir.resolve("registry"));
        server = UiServer.start(0, new Api(dir.resolve("registry"), dir.resolve("cache"), new Page()));
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    /** One HTTP/1.1 exchange on a raw socket, so any Host and Origin can be sent. */
    record Response(int status, Map<String, List<String>> headers, String body) {
        String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null ? null : v.get(0);
        }
    }

    private Response http(String method, String target, String body, String... headers) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(30_000);
            StringBuilder req = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
            boolean host = false;
            for (String h : headers) {
                req.append(h).append("\r\n");
                host |= h.toLowerCase(Locale.ROOT).startsWith("host:");
            }
            if (!host) {
                req.append("Host: 127.0.0.1:").append(server.port()).append("\r\n");
            }
            byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (!req.toString().contains("Content-Length:")) {
                req.append("Content-Length: ").append(b.length).append("\r\n");
            }
            req.append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.write(b);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            // the head, then as many bytes as Content-Length says (a server may keep the connection open)
            while (!all.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
                int b1 = in.read();
                if (b1 < 0) {
                    break;
                }
                all.write(b1);
            }
            String head = all.toString(StandardCharsets.ISO_8859_1);
            java.util.regex.Matcher length = java.util.regex.Pattern.compile("(?i)\r\ncontent-length: *(\\d+)")
                    .matcher(head);
            if (length.find()) {
                all.write(in.readNBytes(Integer.parseInt(length.group(1))));
            } else {
                in.transferTo(all);
            }
            String text = all.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            String[] lines = text.substring(0, end).split("\r\n");
            Map<String, List<String>> hs = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                hs.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>())
                        .add(lines[i].substring(colon + 1).trim());
            }
            return new Response(Integer.parseInt(lines[0].split(" ")[1]), hs, text.substring(end + 4));
        }
    }

    private String bearer() {
        return "Authorization: Bearer " + server.token();
    }

    /** The session cookie the first visit with the token sets. */
    private String cookie() throws IOException {
        Response r = http("GET", "/?token=" + server.token(), null);
        assertEquals(303, r.status(), r.body());
        String set = r.header("Set-Cookie");
        return "Cookie: " + set.substring(0, set.indexOf(';'));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("no token", "GET", "/api/jvms", List.of(), 401),
                Arguments.of("no token for the page", "GET", "/", List.of(), 401),
                Arguments.of("a wrong bearer token", "GET", "/api/jvms", List.of("Authorization: Bearer 00ff"), 403),
                Arguments.of("a wrong cookie", "GET", "/api/jvms", List.of("Cookie: dyper-ui-PORT=00ff"), 403),
                Arguments.of("a wrong token in the address", "GET", "/?token=00ff", List.of(), 403),
                Arguments.of("the token on another path", "GET", "/api/jvms?token=TOKEN", List.of(), 403),
                Arguments.of("a foreign Host (DNS rebinding)", "GET", "/api/jvms",
                        List.of("Host: evil.example:PORT", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a foreign Host with the right port", "GET", "/api/jvms",
                        List.of("Host: 192.168.1.7:PORT", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a Host with another port", "GET", "/api/jvms",
                        List.of("Host: 127.0.0.1:1", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a foreign Origin", "GET", "/api/jvms",
                        List.of("Origin: http://evil.example", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a cross-site fetch", "GET", "/api/jvms",
                        List.of("Sec-Fetch-Site: cross-site", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a foreign Origin on POST", "POST", "/api/jvms/1/pin",
                        List.of("Origin: http://localhost:1", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("no token for the event stream", "GET", "/api/jvms/1/events", List.of(), 401),
                Arguments.of("a wrong cookie for the event stream", "GET", "/api/jvms/1/events",
                        List.of("Cookie: dyper-ui-PORT=00ff"), 403),
                Arguments.of("a foreign Origin on the event stream", "GET", "/api/jvms/1/events",
                        List.of("Origin: http://evil.example", "Authorization: Bearer TOKEN"), 403),
                Arguments.of("a foreign Host on the event stream", "GET", "/api/jvms/1/events",
                        List.of("Host: evil.example:PORT", "Authorization: Bearer TOKEN"), 403));
    }

    @ParameterizedTest(name = "{0}: {4}")
    @MethodSource("refusals")
    void refused(String what, String method, String target, List<String> headers, int status) throws IOException {
        List<String> hs = headers.stream().map(h -> h.replace("TOKEN", server.token())
                .replace("PORT", Integer.toString(server.port()))).toList();
        Response r = http(method, target.replace("TOKEN", server.token()), method.equals("POST") ? "{}" : null,
                hs.toArray(String[]::new));
        assertEquals(status, r.status(), what + ": " + r.body());
        assertFalse(r.body().contains(server.token()), "the token is never echoed");
        assertEquals(null, r.header("Set-Cookie"), what + ": no cookie");
    }

    @Test
    void theTokenBecomesAnHttpOnlyStrictCookieAndLeavesTheAddress() throws IOException {
        Response first = http("GET", "/?token=" + server.token(), null);
        assertEquals(303, first.status());
        assertEquals("/", first.header("Location"), "a redirect to an address without the token");
        String set = first.header("Set-Cookie");
        assertTrue(set.matches("dyper-ui-" + server.port() + "=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict"), set);
        assertFalse(set.contains(server.token()), "the cookie is a session of its own, not the token");
        Response page = http("GET", "/", null, cookie());
        assertEquals(200, page.status(), page.body());
        assertTrue(page.header("Content-Type").startsWith("text/html"), page.header("Content-Type"));
        assertFalse(page.body().contains(server.token()), "the page does not hold the token");
        assertEquals("no-store", page.header("Cache-Control"));
        String policy = page.header("Content-Security-Policy");
        assertTrue(policy.startsWith("default-src 'none'; script-src 'nonce-"), policy);
        assertTrue(policy.contains("connect-src 'self'"), policy);
        // the page loads nothing: no script, style sheet, image or frame from anywhere, let alone the network
        // (the SVG namespace name the histogram's elements are made in is a name, not an address anything loads)
        String body = page.body().replace("\"http://www.w3.org/2000/svg\"", "\"SVG namespace\"");
        for (String loads : List.of("<script src", "<link", "<img", "<iframe", "http://", "https://", "@import")) {
            assertFalse(body.contains(loads), "the page contains " + loads);
        }
        Response api = http("GET", "/api/jvms", null, cookie());
        assertEquals(200, api.status(), api.body());
        assertEquals("{\"dir\":" + Json.write(dir.resolve("registry").toString()) + ",\"jvms\":[],",
                api.body().substring(0, api.body().indexOf("\"attachable\"")));
        assertEquals(200, http("GET", "/api/jvms", null, bearer()).status(), "Bearer works for scripts");
        assertEquals(200, http("GET", "/api/jvms", null, "Host: localhost:" + server.port(), bearer()).status());
    }

    @Test
    void aStateChangeFromThePageMustCarryItsOrigin() throws IOException {
        String cookie = cookie();
        Response none = http("POST", "/api/jvms/1/pin", "{}", cookie);
        assertEquals(403, none.status(), none.body());
        assertEquals("refused: a POST from the page must carry an Origin\n", none.body());
        Response own = http("POST", "/api/jvms/1/pin", "{}", cookie, "Origin: http://127.0.0.1:" + server.port());
        assertEquals(404, own.status(), "past the checks: no such process");
        assertEquals("{\"error\":\"no monitored process 1 in " + dir.resolve("registry") + " (attach it first)\"}",
                own.body());
    }

    @Test
    void onlyTheLoopbackInterfaceListens() throws IOException {
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface n : NetworkInterface.networkInterfaces().toList()) {
            if (n.isUp() && !n.isLoopback()) {
                n.inetAddresses().filter(a -> !a.isLinkLocalAddress()).forEach(others::add);
            }
        }
        Skip.unless(!others.isEmpty(), "this machine has no network address but loopback to try");
        for (InetAddress a : others) {
            assertThrows(IOException.class, () -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(a, server.port()), 5_000);
                }
            }, "port " + server.port() + " on " + a);
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 5_000);
            assertTrue(s.isConnected());
        }
    }

    @Test
    void aBodyLargerThanTheLimitIsRefused() throws IOException {
        // refused on its declared length, before a byte of it is read
        Response r = http("POST", "/api/jvms/1/model", "{", bearer(), "Origin: http://127.0.0.1:" + server.port(),
                "Content-Length: " + (UiServer.MAX_BODY + 1));
        assertEquals(413, r.status(), r.body());
        assertEquals("refused: the request body is larger than 1048576 bytes\n", r.body());
    }

    /** An event stream opened on a raw socket: the status line and headers read, the body left to read. */
    private record Opened(Socket socket, int status, String head) {
        /** Reads until the stream ends (EOF) or the deadline; returns what came. */
        String rest(Duration deadline) throws IOException {
            socket.setSoTimeout((int) deadline.toMillis());
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private Opened stream(String target, String... headers) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        s.setSoTimeout(30_000);
        StringBuilder req = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port()
                + "\r\nAccept: text/event-stream\r\n");
        for (String h : headers) {
            req.append(h).append("\r\n");
        }
        s.getOutputStream().write(req.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return new Opened(s, Integer.parseInt(text.split(" ")[1]), text);
    }

    /**
     * A registry entry for this test's own JVM whose monitor port nothing listens on: a process the UI knows, whose
     * poller fails each second (so its streams get {@code failed} events and stay open).
     */
    private long deafProcess() throws IOException {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        long pid = ProcessHandle.current().pid();
        org.dyper.runtime.wire.RegistryFiles.writePrivate(dir.resolve("registry").resolve(pid + ".monitor"),
                Map.of("pid", Long.toString(pid), "port", Integer.toString(port), "main", "Deaf", "start",
                        Long.toString(System.currentTimeMillis()), "token", "00"));
        return pid;
    }

    /**
     * Live streams: without the token none opens (401 at once, nothing held); with it at most {@link Live#MAX_STREAMS}
     * are open, one more is refused with 429; a stream whose client went away frees its place; stopping the UI ends
     * the streams.
     */
    @Test
    void eventStreamsAreCappedAndEndWithTheUi() throws Exception {
        long pid = deafProcess();
        String events = "/api/jvms/" + pid + "/events";
        for (int i = 0; i < 20; i++) {
            Opened none = stream(events);
            assertEquals(401, none.status(), none.head());
            none.socket().close();
        }
        List<Opened> open = new ArrayList<>();
        try {
            for (int i = 0; i < Live.MAX_STREAMS; i++) {
                Opened o = stream(events, bearer());
                open.add(o);
                assertEquals(200, o.status(), o.head());
                assertTrue(o.head().toLowerCase(Locale.ROOT).contains("content-type: text/event-stream"), o.head());
            }
            Opened refused = stream(events, bearer(), "Connection: close");
            assertEquals(429, refused.status(), refused.head());
            assertTrue(refused.rest(Duration.ofSeconds(30)).contains("\"error\":\"8 live streams are open in this "
                    + "dyper ui (the most it serves): close a page, or poll the API\""));
            refused.socket().close();
            // the monitor does not answer: each stream hears so, and stays open
            byte[] first = new byte[200];
            int n = open.get(0).socket().getInputStream().read(first);
            assertTrue(new String(first, 0, n, StandardCharsets.UTF_8).contains("retry: 2000"));
            String failed = org.dyper.testsupport.Await.until("a failed event", () -> {
                byte[] b = new byte[4096];
                int k = open.get(1).socket().getInputStream().read(b);
                return new String(b, 0, Math.max(k, 0), StandardCharsets.UTF_8);
            }, t -> t.contains("event: failed"), org.dyper.testsupport.Await.MINUTE);
            assertTrue(failed.contains("\"status\":502"), failed);
            // a client that goes away frees its place once the server's next write fails
            open.remove(0).socket().close();
            Opened again = org.dyper.testsupport.Await.until("a place for a new stream", () -> {
                Opened o = stream(events, bearer());
                if (o.status() != 200) {
                    o.socket().close();
                }
                return o;
            }, o -> o.status() == 200, org.dyper.testsupport.Await.MINUTE);
            open.add(again);
            server.stop();
            for (Opened o : open) {
                String rest = o.rest(Duration.ofSeconds(30));  // EOF: the stream ended (no read timeout)
                assertFalse(rest.contains("event: changed"), rest);
            }
        } finally {
            for (Opened o : open) {
                o.socket().close();
            }
        }
    }

    /** {@code dyper ui} itself: its first line is the address with the token, which nothing else it prints holds. */
    @Test
    void theTokenIsOnlyInTheFirstLine() throws Exception {
        server.stop();
        Running ui = Processes.start(List.of(Processes.currentJava().toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "ui", "--no-open", "--dir",
                dir.resolve("registry").toString(), "--port", "0"));
        try {
            String url = ui.line(0, Duration.ofSeconds(60));
            assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/\\?token=[0-9a-f]{64}"), url);
            String token = url.substring(url.indexOf("token=") + 6);
            int port = Integer.parseInt(url.replaceAll("http://127\\.0\\.0\\.1:(\\d+)/.*", "$1"));
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            for (String path : List.of("/?token=" + token, "/", "/api/jvms", "/api/jvms/1", "/nothing")) {
                client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                        .build(), java.net.http.HttpResponse.BodyHandlers.discarding());
            }
            Processes.signal(ui.process().pid(), "TERM");
            assertEquals(143, ui.awaitExit(Duration.ofSeconds(60)), ui.stderr());
            assertEquals(List.of(url), ui.lines(), "stdout: the address alone");
            assertFalse(ui.stderr().contains(token), ui.stderr());
            assertTrue(ui.stderr().startsWith("dyper: ui: serving the monitors of " + dir.resolve("registry")
                    + " on 127.0.0.1:" + port + " (loopback only)"), ui.stderr());
        } finally {
            ui.close();
        }
    }
}
