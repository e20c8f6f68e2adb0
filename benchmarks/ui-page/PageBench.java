import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * benchmarks/run-ui-page's driver: headless Chromium through its DevTools protocol (a WebSocket of the JDK's own
 * HttpClient, so nothing but a JDK and Chromium is needed), on the real `dyper ui` page. It opens one JVM's flame
 * graph since the start, refreshes until the tree has NODES nodes, and prints the page's JavaScript heap (after a
 * collection) before and after, the time a refresh takes (fetch, tree, draw), and the frames per second while idle,
 * zooming (clicks on frames), searching and refreshing (requestAnimationFrame callbacks counted in the page).
 *
 * Usage: java PageBench.java CHROMIUM URL PID NODES SECONDS PROFILE_DIR [SCREENSHOT.png]
 *
 * With NODES "measure:METHOD" (benchmarks/ui-screenshot) it instead opens the JVM, waits for METHOD in the flame graph,
 * clicks its widest frame, clicks "Measure exactly", waits for its exact figures and saves SCREENSHOT.png.
 */
public final class PageBench {
    private static final Pattern ID = Pattern.compile("^\\{\"id\":(\\d+),");
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<String>> waiting = new ConcurrentHashMap<>();

    private PageBench(String ws) {
        StringBuilder part = new StringBuilder();
        socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(ws), new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket s, CharSequence data, boolean last) {
                part.append(data);
                if (last) {
                    String text = part.toString();
                    part.setLength(0);
                    Matcher m = ID.matcher(text);
                    if (m.find()) {
                        CompletableFuture<String> f = waiting.remove(Integer.parseInt(m.group(1)));
                        if (f != null) {
                            f.complete(text);
                        }
                    }
                }
                s.request(1);
                return null;
            }
        }).join();
    }

    /** One DevTools command; its whole answer as JSON text. */
    private String send(String method, String params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<String> f = new CompletableFuture<>();
        waiting.put(id, f);
        socket.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true).join();
        String answer = f.get(15, TimeUnit.MINUTES);
        if (answer.contains("\"exceptionDetails\"") || answer.startsWith("{\"id\":" + id + ",\"error\"")) {
            throw new IllegalStateException(method + ": " + answer);
        }
        return answer;
    }

    /** Evaluates an expression in the page (a promise is awaited); returns its string value. */
    private String eval(String expression) throws Exception {
        String answer = send("Runtime.evaluate", "{\"expression\":" + quote(expression)
                + ",\"awaitPromise\":true,\"returnByValue\":true}");
        Matcher m = Pattern.compile("\"value\":(\"(?:[^\"\\\\]|\\\\.)*\"|[^,}]*)").matcher(answer);
        if (!m.find()) {
            return "";
        }
        String v = m.group(1);
        return v.startsWith("\"") ? unquote(v) : v;
    }

    private double metric(String name) throws Exception {
        String answer = send("Performance.getMetrics", "{}");
        Matcher m = Pattern.compile("\"name\":\"" + name + "\",\"value\":([0-9.eE+-]+)").matcher(answer);
        if (!m.find()) {
            throw new IllegalStateException("no metric " + name + ": " + answer);
        }
        return Double.parseDouble(m.group(1));
    }

    /** The JavaScript heap in use after a full collection, MB. */
    private String heap() throws Exception {
        send("HeapProfiler.collectGarbage", "{}");
        send("HeapProfiler.collectGarbage", "{}");
        return String.format("JS heap %.1f MB used of %.1f MB, %d DOM nodes", metric("JSHeapUsedSize") / 1e6,
                metric("JSHeapTotalSize") / 1e6, (long) metric("Nodes"));
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    static String unquote(String q) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < q.length() - 1; i++) {
            char c = q.charAt(i);
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char n = q.charAt(++i);
            switch (n) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'u' -> {
                    b.append((char) Integer.parseInt(q.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> b.append(n);
            }
        }
        return b.toString();
    }

    /** In the page: frames per second over SECONDS while ACTION runs once per frame (its argument: the frame's number). */
    private static final String FPS = """
            window.benchFps = (seconds, action) => new Promise(done => {
              let frames = 0, worst = 0, long = 0;
              const t0 = performance.now(), end = t0 + seconds * 1000;
              let last = t0;
              const tick = t => {
                frames++;
                const gap = t - last;
                if (gap > worst) worst = gap;
                if (gap > 50) long++;
                last = t;
                if (t >= end) {
                  const s = (t - t0) / 1000;
                  done((frames / s).toFixed(1) + " fps, worst frame " + worst.toFixed(0) + " ms, "
                    + long + " frame(s) over 50 ms");
                  return;
                }
                if (action) action(frames);
                requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            });
            window.benchUntil = (test, ms) => new Promise((done, fail) => {
              const end = performance.now() + ms;
              const poll = () => test() ? done(true) : performance.now() > end ? fail(new Error("timed out"))
                : setTimeout(poll, 50);
              poll();
            });
            "installed";
            """;

    public static void main(String[] args) throws Exception {
        String chromium = args[0];
        String url = args[1];
        String pid = args[2];
        String what = args[3];
        int seconds = Integer.parseInt(args[4]);
        Path profile = Path.of(args[5]);
        Process browser = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1400,1000", "--force-device-scale-factor=1",
                "--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String ws = null;
            BufferedReader err = new BufferedReader(new InputStreamReader(browser.getErrorStream(),
                    StandardCharsets.UTF_8));
            for (String line; (line = err.readLine()) != null; ) {
                int at = line.indexOf("ws://");
                if (at >= 0) {
                    ws = line.substring(at).trim();
                    break;
                }
            }
            if (ws == null) {
                throw new IllegalStateException("chromium printed no DevTools address");
            }
            Thread drain = new Thread(() -> {
                try {
                    err.transferTo(java.io.Writer.nullWriter());
                } catch (IOException e) {
                    // the browser ended
                }
            });
            drain.setDaemon(true);
            drain.start();
            String port = URI.create(ws).getPort() + "";
            String list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher page = Pattern.compile("\"type\": ?\"page\"[^}]*?\"webSocketDebuggerUrl\": ?\"([^\"]+)\"|"
                    + "\"webSocketDebuggerUrl\": ?\"([^\"]+page[^\"]+)\"").matcher(list);
            if (!page.find()) {
                throw new IllegalStateException("no page target in " + list);
            }
            PageBench b = new PageBench(page.group(1) != null ? page.group(1) : page.group(2));
            Path shot = args.length > 6 ? Path.of(args[6]) : null;
            if (what.startsWith("measure:")) {
                b.shot(url, pid, what.substring("measure:".length()), shot);
            } else {
                b.run(url, pid, Integer.parseInt(what), seconds, shot);
            }
        } finally {
            browser.destroy();
            browser.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The page in use: METHOD's widest frame clicked and measured, its exact figures shown; a screenshot. */
    private void shot(String url, String pid, String method, Path screenshot) throws Exception {
        load(url);
        eval("document.querySelector('[data-open=\"" + pid + "\"]').click();"
                + "benchUntil(() => document.body.dataset.ready === 'true', 120000)");
        String widest = "(() => { const fs = Dyper.flame.frames().filter(f => f.name === " + quote(method)
                + " && !f.faded); fs.sort((a, b) => b.width - a.width); return fs[0]; })()";
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!"true".equals(eval("String(!!" + widest + ")"))) {
            if (System.nanoTime() > until) {
                throw new IllegalStateException(method + " not in the flame graph within 5 minutes");
            }
            Thread.sleep(1000); // the page refreshes every 5 s by itself; this only looks
        }
        eval("(() => { const f = " + widest + ", box = Dyper.flame.canvas.getBoundingClientRect();"
                + " Dyper.flame.canvas.dispatchEvent(new MouseEvent('click', { clientX: box.left + f.x + f.width / 2,"
                + " clientY: box.top + f.y + f.height / 2, bubbles: true })); return 'clicked'; })()");
        eval("document.getElementById('measure').click(); benchUntil(() => Number(document.getElementById("
                + "'measure-figures').dataset.calls || 0) > 0, 180000)");
        // two more refreshes, so the table and the histogram show a few seconds of calls
        eval("(() => { const n = Number(document.body.dataset.refreshed); return benchUntil(() =>"
                + " Number(document.body.dataset.refreshed) >= n + 2, 60000); })()");
        eval("window.scrollTo(0, 0); 'top'");
        // down to the exact figures' table, below the flame graph
        String bottom = eval("String(Math.ceil(document.getElementById('exact-calls').getBoundingClientRect().bottom"
                + " + 8))");
        String shot = send("Page.captureScreenshot", "{\"format\":\"png\",\"captureBeyondViewport\":true,"
                + "\"clip\":{\"x\":0,\"y\":0,\"width\":1400,\"height\":" + bottom + ",\"scale\":1}}");
        Matcher m = Pattern.compile("\"data\":\"([^\"]+)\"").matcher(shot);
        if (!m.find()) {
            throw new IllegalStateException("no screenshot: " + shot);
        }
        Files.write(screenshot, java.util.Base64.getDecoder().decode(m.group(1)));
        System.out.println(eval("document.getElementById('measure-name').textContent + ': '"
                + " + document.getElementById('measure-figures').textContent"));
    }

    private void load(String url) throws Exception {
        send("Performance.enable", "{}");
        send("Page.enable", "{}");
        send("Page.navigate", "{\"url\":" + quote(url) + "}");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!"true".equals(eval("document.body && document.body.dataset.listed || ''"))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the page did not list the JVMs within 30 s");
            }
            Thread.sleep(100); // polling the page for a condition, with the deadline above
        }
        eval(FPS);
    }

    private void run(String url, String pid, int nodes, int seconds, Path screenshot) throws Exception {
        load(url);
        System.out.println("page loaded, JVM list shown: " + heap());
        eval("document.getElementById('paused').checked = true;"
                + "document.getElementById('window').value = 'start'; Dyper.ui.state.window = 'start';"
                + "document.querySelector('[data-open=\"" + pid + "\"]').click();"
                + "benchUntil(() => document.body.dataset.ready === 'true', 120000)");
        // refresh until the tree holds NODES nodes (the program's walkers fill the monitor's paths meanwhile)
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
        String n;
        while (true) {
            n = eval("Dyper.ui.refresh().then(() => String(Dyper.flame.tree.f.length))");
            System.out.println("  " + n + " nodes");
            if (Integer.parseInt(n) >= nodes || System.nanoTime() > until) {
                break;
            }
            Thread.sleep(5000); // the page's own refresh period: the monitor gathers more paths meanwhile
        }
        System.out.println("flame graph: " + n + " nodes, "
                + eval("String(Dyper.flame.tree.names.length)") + " distinct frames, "
                + eval("String(Dyper.ui.timing.paths)") + " paths, " + eval("String(Dyper.ui.timing.bytes)")
                + " bytes of JSON, depth " + eval("String(Dyper.flame.tree.maxDepth + 1)"));
        System.out.println("after the first draw: " + heap());
        StringBuilder times = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            times.append("\n  ").append(eval("Dyper.ui.refresh().then(() => { const t = Dyper.ui.timing;"
                    + " return 'fetch ' + t.fetchMs.toFixed(0) + ' ms (monitor, server, network), parse '"
                    + " + t.parseMs.toFixed(0) + ' ms, tree ' + t.treeMs.toFixed(0) + ' ms, draw and tables '"
                    + " + t.drawMs.toFixed(0) + ' ms'; })"));
        }
        System.out.println("a refresh (5 in a row):" + times);
        System.out.println("after 5 refreshes: " + heap());
        System.out.println("idle: " + eval("benchFps(" + seconds + ")"));
        System.out.println("zooming (a click on a random frame each frame, Escape every 8th): " + eval("benchFps("
                + seconds + ", i => { const f = Dyper.flame;"
                + " if (i % 8 === 0) { document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })); return; }"
                + " const rows = f.rows.filter((r, d) => d > 0 && r.length); if (!rows.length) return;"
                + " const r = rows[Math.floor(Math.random() * rows.length)], k = 4 * Math.floor(Math.random() * r.length / 4);"
                + " const box = f.canvas.getBoundingClientRect(), depth = f.rows.indexOf(r);"
                + " f.canvas.dispatchEvent(new MouseEvent('click', { clientX: box.left + r[k + 1] + r[k + 2] / 2,"
                + "   clientY: box.top + depth * 18 + 9, bubbles: true })); })"));
        System.out.println("searching (a new query each frame): " + eval("benchFps(" + seconds
                + ", i => { const q = ['a', 'ManyPaths.b', '/\\\\.(c|e)$/', 'leaf', 'ManyPaths.e', ''][i % 6];"
                + " const s = document.getElementById('search'); s.value = q;"
                + " s.dispatchEvent(new Event('input')); })"));
        eval("document.getElementById('search').value = ''; document.getElementById('search')"
                + ".dispatchEvent(new Event('input')); document.dispatchEvent(new KeyboardEvent('keydown',"
                + " { key: 'Escape' })); 'ok'");
        System.out.println("refreshing (one refresh after another): " + eval("(() => { let go = true, count = 0;"
                + " const loop = async () => { while (go) { await Dyper.ui.refresh(); count++; } };"
                + " loop(); return benchFps(" + seconds + ").then(r => { go = false; return r + ', '"
                + " + count + ' refreshes'; }); })()"));
        System.out.println("at the end: " + heap());
        if (screenshot != null) {
            String shot = send("Page.captureScreenshot", "{\"format\":\"png\"}");
            Matcher m = Pattern.compile("\"data\":\"([^\"]+)\"").matcher(shot);
            if (m.find()) {
                Files.write(screenshot, java.util.Base64.getDecoder().decode(m.group(1)));
            }
        }
    }
}
