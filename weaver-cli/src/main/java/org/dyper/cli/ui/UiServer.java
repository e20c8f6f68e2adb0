package org.dyper.cli.ui;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP side of {@code dyper ui}: the JDK's own server on the loopback interface, a fixed pool of threads, and
 * the checks every request passes before {@link Api} or the page sees it: the {@code Host} names this server
 * (against DNS rebinding), an {@code Origin} (when a browser sends one) is this server, and the request carries the
 * token (a cookie after the first visit, or {@code Authorization: Bearer}).
 */
final class UiServer {
    /**
     * Threads that serve requests (and one more per live stream, {@link Live#MAX_STREAMS}); more requests wait in a
     * queue of {@link #QUEUE}, beyond that their connection is closed unanswered.
     */
    static final int THREADS = 8;
    static final int QUEUE = 64;
    /** The largest request body (a pasted model and its modes). */
    static final int MAX_BODY = 1 << 20;

    private final HttpServer server;
    private final String token;
    private final String session;
    private final String cookie;
    private final Api api;
    private final ThreadPoolExecutor pool;
    private final int port;

    private UiServer(HttpServer server, String token, String session, Api api, ThreadPoolExecutor pool) {
        this.server = server;
        this.token = token;
        this.session = session;
        this.api = api;
        this.pool = pool;
        this.port = server.getAddress().getPort();
        this.cookie = "dyper-ui-" + port;
    }

    /** Starts a server on {@code 127.0.0.1:port} (0: any free port). */
    static UiServer start(int port, Api api) throws IOException {
        // the JDK server's own bounds (read once, when its first server is made): connections, idle ones, and how
        // long a request may take to arrive and its response to be taken
        System.setProperty("jdk.httpserver.maxConnections", "64");
        System.setProperty("sun.net.httpserver.maxIdleConnections", "16");
        System.setProperty("sun.net.httpserver.idleInterval", "30");
        System.setProperty("sun.net.httpserver.maxReqTime", "30");
        System.setProperty("sun.net.httpserver.maxRspTime", "120");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 32);
        AtomicInteger n = new AtomicInteger();
        // a live stream holds its thread: THREADS are left for requests when every stream is open
        int threads = THREADS + Live.MAX_STREAMS;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "dyper-ui-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }, (r, executor) -> {
                    // a full queue: the connection is closed unanswered rather than the accept thread blocked
                    throw new java.util.concurrent.RejectedExecutionException("dyper ui: too many requests");
                });
        server.setExecutor(pool);
        byte[] random = new byte[32];
        SecureRandom rng = new SecureRandom();
        rng.nextBytes(random);
        String token = HexFormat.of().formatHex(random);
        rng.nextBytes(random);
        String session = HexFormat.of().formatHex(random);
        UiServer ui = new UiServer(server, token, session, api, pool);
        server.createContext("/", ui::handle);
        server.start();
        return ui;
    }

    int port() {
        return port;
    }

    /** The URL to open: the only place the token appears. */
    String url() {
        return "http://127.0.0.1:" + port + "/?token=" + token;
    }

    String token() {
        return token;
    }

    void stop() {
        api.live().close();
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            Headers h = x.getRequestHeaders();
            x.getResponseHeaders().set("Cache-Control", "no-store");
            x.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
            x.getResponseHeaders().set("Referrer-Policy", "no-referrer");
            x.getResponseHeaders().set("X-Frame-Options", "DENY");
            String host = h.getFirst("Host");
            if (!ourHost(host)) {
                text(x, 403, "refused: Host '" + host + "' is not this server (127.0.0.1:" + port + " or localhost:"
                        + port + ")");
                return;
            }
            String origin = h.getFirst("Origin");
            if (origin != null && !ourOrigin(origin)) {
                text(x, 403, "refused: a request from another site (Origin '" + origin + "')");
                return;
            }
            if ("cross-site".equals(h.getFirst("Sec-Fetch-Site"))) {
                text(x, 403, "refused: a request from another site");
                return;
            }
            URI uri = x.getRequestURI();
            String given = query(uri.getRawQuery(), "token");
            if (given != null) {
                if (!x.getRequestMethod().equals("GET") || !uri.getPath().equals("/") || !same(given, token)) {
                    text(x, 403, "refused: wrong token");
                    return;
                }
                // the token becomes a cookie the page's own requests carry, and leaves the address bar
                x.getResponseHeaders().add("Set-Cookie", cookie + "=" + session
                        + "; Path=/; HttpOnly; SameSite=Strict");
                x.getResponseHeaders().set("Location", "/");
                x.sendResponseHeaders(303, -1);
                return;
            }
            String bearer = h.getFirst("Authorization");
            boolean byCookie = same(cookieValue(h.get("Cookie")), session);
            boolean byBearer = bearer != null && bearer.startsWith("Bearer ") && same(bearer.substring(7).trim(),
                    token);
            if (!byCookie && !byBearer) {
                if (bearer != null || cookieValue(h.get("Cookie")) != null) {
                    text(x, 403, "refused: wrong token");
                } else {
                    text(x, 401, "dyper ui: open the address dyper ui printed (with its token), or send "
                            + "Authorization: Bearer TOKEN");
                }
                return;
            }
            if (!byBearer && !x.getRequestMethod().equals("GET") && origin == null) {
                // a browser always sends Origin on POST and DELETE: a state change without it is not from the page
                text(x, 403, "refused: a " + x.getRequestMethod() + " from the page must carry an Origin");
                return;
            }
            String length = h.getFirst("Content-Length");
            if (length != null && length.matches("\\d{1,18}") && Long.parseLong(length) > MAX_BODY) {
                x.getResponseHeaders().set("Connection", "close");  // the body is never read: end the connection
                text(x, 413, "refused: the request body is larger than " + MAX_BODY + " bytes");
                return;
            }
            api.serve(new Api.Request(x.getRequestMethod(), uri.getPath(), uri.getRawQuery(), body(x)),
                    new Api.Reply() {
                        @Override
                        public void stream(String type, Api.Pump pump) throws IOException {
                            x.getResponseHeaders().set("Content-Type", type);
                            // the connection ends with the stream (never kept for another request)
                            x.getResponseHeaders().set("Connection", "close");
                            x.sendResponseHeaders(200, 0);  // chunked: as long as the stream lasts
                            try (OutputStream out = x.getResponseBody()) {
                                pump.pump(out);
                            }
                        }

                        @Override
                        public void send(int status, String type, byte[] body, List<String[]> headers)
                                throws IOException {
                            for (String[] kv : headers) {
                                x.getResponseHeaders().set(kv[0], kv[1]);
                            }
                            x.getResponseHeaders().set("Content-Type", type);
                            x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                            if (body.length > 0) {
                                try (OutputStream out = x.getResponseBody()) {
                                    out.write(body);
                                }
                            }
                        }
                    });
        } catch (TooLarge e) {
            text(x, 413, e.getMessage());
        } catch (IOException e) {
            // the browser went away: nothing to answer
        } catch (RuntimeException e) {
            try {
                text(x, 500, "dyper ui: internal error: " + e);
            } catch (IOException ignored) {
                // the connection is gone
            }
        }
    }

    private static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message, null, false, false);
        }
    }

    private static String body(HttpExchange x) throws IOException {
        try (InputStream in = x.getRequestBody()) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) > 0) {
                b.write(buf, 0, n);
                if (b.size() > MAX_BODY) {
                    throw new TooLarge("refused: the request body is larger than " + MAX_BODY + " bytes");
                }
            }
            return b.toString(StandardCharsets.UTF_8);
        }
    }

    private boolean ourHost(String host) {
        if (host == null) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals("127.0.0.1:" + port) || h.equals("localhost:" + port) || h.equals("[::1]:" + port);
    }

    private boolean ourOrigin(String origin) {
        String o = origin.toLowerCase(Locale.ROOT);
        return o.equals("http://127.0.0.1:" + port) || o.equals("http://localhost:" + port)
                || o.equals("http://[::1]:" + port);
    }

    private String cookieValue(List<String> headers) {
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            for (String part : header.split(";")) {
                String p = part.trim();
                if (p.startsWith(cookie + "=")) {
                    return p.substring(cookie.length() + 1);
                }
            }
        }
        return null;
    }

    static String query(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        for (String part : rawQuery.split("&")) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part : part.substring(0, eq);
            if (key.equals(name)) {
                return java.net.URLDecoder.decode(eq < 0 ? "" : part.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** Compares in constant time. */
    private static boolean same(String given, String expected) {
        if (given == null) {
            return false;
        }
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static void text(HttpExchange x, int status, String message) throws IOException {
        byte[] b = (message + "\n").getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        x.sendResponseHeaders(status, b.length);
        try (OutputStream out = x.getResponseBody()) {
            out.write(b);
        }
    }
}
