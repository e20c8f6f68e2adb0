package org.dyper.benchmarks.workloads;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP server under load, both in one JVM: the JDK's own {@code com.sun.net.httpserver} server (four handler
 * threads) answering 16 KB bodies, and four client threads sending requests over keep-alive connections
 * ({@code HttpURLConnection}) for the given seconds. Most of its CPU time is socket I/O (reads and writes in native
 * code) and the HTTP code around it. Prints the number of requests answered. Usage: {@code HttpServerWorkload seconds}.
 * <p>
 * The server sends with {@code TCP_NODELAY} ({@code sun.net.httpserver.nodelay}): without it, each response's body
 * waits for the acknowledgement of its headers, which the client delays by 40 ms, and the program is idle: about 90
 * requests a second and 0.2 s of CPU a second, instead of about 18,000 and 2 s (JDK 17 and 25, 2 cores).
 */
public final class HttpServerWorkload {
    private static final int CLIENTS = 4;

    private HttpServerWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        byte[] body = new byte[16 * 1024];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        // read once, when the server's configuration class is loaded: set before the server is made
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        ExecutorService handlers = Executors.newFixedThreadPool(4, r -> new Thread(r, "http-handler"));
        server.setExecutor(handlers);
        server.createContext("/data", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            exchange.getResponseHeaders().add("Content-Type", "application/octet-stream");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/data");
        AtomicLong answered = new AtomicLong();
        Thread[] clients = new Thread[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
            clients[c] = new Thread(() -> {
                byte[] buffer = new byte[8192];
                while (System.nanoTime() < end) {
                    try {
                        HttpURLConnection http = (HttpURLConnection) url.openConnection();
                        try (InputStream in = http.getInputStream()) {
                            while (in.read(buffer) >= 0) {
                                // the whole body is read, so that the connection is kept alive
                            }
                        }
                        if (http.getResponseCode() == 200) {
                            answered.incrementAndGet();
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "http-client-" + c);
            clients[c].start();
        }
        for (Thread t : clients) {
            t.join();
        }
        server.stop(0);
        handlers.shutdown();
        System.out.println("http requests answered " + answered.get());
    }
}
