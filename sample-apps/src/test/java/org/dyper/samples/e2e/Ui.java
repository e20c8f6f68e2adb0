package org.dyper.samples.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.openqa.selenium.json.Json;

/** A {@code dyper ui} process for a test: its address and token, and JSON requests to its API with the token. */
final class Ui implements AutoCloseable {
    record Answer(int status, String text, Object json) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map() {
            return (Map<String, Object>) json;
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list(String key) {
            return (List<Map<String, Object>>) map().get(key);
        }
    }

    final Running process;
    final String url;
    final String token;
    final int port;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private Ui(Running process, String url) {
        this.process = process;
        this.url = url;
        this.token = url.substring(url.indexOf("token=") + 6);
        this.port = Integer.parseInt(url.replaceAll("http://127\\.0\\.0\\.1:(\\d+)/.*", "$1"));
    }

    /** {@code dyper ui --no-open --dir registry} in a JVM of its own (it ends by a signal, as a user ends it). */
    static Ui start(Path registry, Path cache) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Processes.currentJava().toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "ui", "--no-open", "--dir",
                registry.toString());
        pb.environment().put("XDG_CACHE_HOME", cache.toString());
        Running r = Processes.start(pb);
        String first = r.line(0, Duration.ofSeconds(60));
        return new Ui(r, first);
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    Answer get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).GET());
    }

    Answer post(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base() + path)).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer delete(String path, String json) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base() + path))
                .method("DELETE", HttpRequest.BodyPublishers.ofString(json)));
    }

    private Answer send(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(b.header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(150)).build(), HttpResponse.BodyHandlers.ofString());
        String type = r.headers().firstValue("Content-Type").orElse("");
        Object json = type.startsWith("application/json") ? new Json().toType(r.body(), Object.class) : null;
        return new Answer(r.statusCode(), r.body(), json);
    }

    /** One Server-Sent Event: its name and its JSON data; {@code null} name: the stream ended. */
    record Event(String name, Map<String, Object> data) {
    }

    /** An open event stream ({@code GET .../events} with the token), read by a thread of its own. */
    final class Events implements AutoCloseable {
        final int status;
        private final java.util.concurrent.BlockingQueue<Event> queue = new java.util.concurrent.LinkedBlockingQueue<>();
        private final java.util.stream.Stream<String> lines;

        @SuppressWarnings("unchecked")
        private Events(HttpResponse<java.util.stream.Stream<String>> r) {
            this.status = r.statusCode();
            this.lines = r.body();
            Thread t = new Thread(() -> {
                String name = "message";
                StringBuilder data = new StringBuilder();
                try {
                    for (String line : (Iterable<String>) lines::iterator) {
                        if (line.isEmpty()) {
                            if (data.length() > 0) {
                                queue.add(new Event(name, (Map<String, Object>) new Json().toType(data.toString(),
                                        Object.class)));
                            }
                            name = "message";
                            data.setLength(0);
                        } else if (line.startsWith("event: ")) {
                            name = line.substring(7);
                        } else if (line.startsWith("data: ")) {
                            data.append(line.substring(6));
                        }
                    }
                } catch (RuntimeException closed) {
                    // closed by the test
                } finally {
                    queue.add(new Event(null, Map.of()));
                }
            }, "events-reader");
            t.setDaemon(true);
            t.start();
        }

        /** The next event that {@code wanted} accepts (others skipped); fails at the deadline. */
        Event next(String what, java.util.function.Predicate<Event> wanted, Duration deadline) throws Exception {
            long end = System.nanoTime() + deadline.toNanos();
            while (true) {
                Event e = queue.poll(end - System.nanoTime(), java.util.concurrent.TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("no event: " + what + " within " + deadline);
                }
                if (wanted.test(e)) {
                    return e;
                }
                if (e.name() == null) {
                    throw new AssertionError("the stream ended before an event: " + what);
                }
            }
        }

        @Override
        public void close() {
            lines.close();
        }
    }

    Events events(String path) throws IOException, InterruptedException {
        return new Events(client.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofLines()));
    }

    /** Ends it as Ctrl-C would; returns its exit code. */
    int stop() throws Exception {
        Processes.signal(process.process().pid(), "TERM");
        return process.awaitExit(Duration.ofSeconds(120));
    }

    @Override
    public void close() {
        process.close();
    }
}
