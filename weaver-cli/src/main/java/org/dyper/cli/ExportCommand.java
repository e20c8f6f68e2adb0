package org.dyper.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.otlp.OtlpMetrics;
import org.dyper.cli.otlp.OtlpPusher;
import org.dyper.cli.whatif.WhatIfCommand;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper export PID --prometheus PORT | --otlp URL}: a monitored JVM's exact figures for the metrics tools
 * people already run, from outside the program. With {@code --prometheus}, each scrape of {@code /metrics} asks the
 * DYPER monitor for its REPORT (INSTRUMENTATION) and writes the exact sections in Prometheus's text format (counters;
 * timing as a histogram with the report's log2 buckets). With {@code --otlp}, the same figures are pulled every
 * {@code --interval} and pushed as OpenTelemetry metrics over OTLP/HTTP ({@link OtlpMetrics}, {@link OtlpPusher}).
 * Both can run at once. No metrics library enters the program. Runs until the program ends or Ctrl-C.
 */
final class ExportCommand implements CliCommand<ExportCommand.Parsed> {
    /** {@code port}: -1 without --prometheus; {@code otlp}: null without --otlp. */
    record Parsed(long pid, Path dir, int port, URI otlp, Map<String, String> headers, long intervalMs) {
    }

    static final long DEFAULT_INTERVAL_MS = 10_000;
    /** Tries of one push answered 429, 502, 503 or 504, and the wait before the second (doubled each time). */
    static final int PUSH_ATTEMPTS = 5;
    static final long FIRST_BACKOFF_MS = 250;
    static final Duration PUSH_TIMEOUT = Duration.ofSeconds(10);

    @Override
    public Help help() {
        return new Help("export", "serve or push a running program's exact figures (Prometheus, OpenTelemetry)",
                "dyper export PID (--prometheus PORT | --otlp URL) [--interval T] [--otlp-header K=V]... [--dir DIR]",
                InputOptions.help(new Options())
                        .addOption(Option.builder().longOpt("prometheus").hasArg().argName("PORT")
                                .desc("serve http://127.0.0.1:PORT/metrics (0: any free port, printed)").build())
                        .addOption(Option.builder().longOpt("otlp").hasArg().argName("URL")
                                .desc("push OTLP/HTTP protobuf metrics to URL (e.g. http://127.0.0.1:4318/v1/metrics)")
                                .build())
                        .addOption(Option.builder().longOpt("otlp-header").hasArg().argName("K=V")
                                .desc("an HTTP header for every push (authentication); repeatable").build())
                        .addOption(Option.builder().longOpt("interval").hasArg().argName("T")
                                .desc("time between OTLP pushes: 10s (default), 2m, 500ms").build())
                        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                                .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build()),
                "Each scrape, or each push, asks the program's DYPER monitor for its REPORT and exports the exact\n"
                        + "figures: counts, calls, timing (histogram with the report's log2 buckets, sum and count),\n"
                        + "values, locks, allocations and field writes, labelled site and id (docs/cli.md). OTLP:\n"
                        + "cumulative Sums and Histograms, pushed every --interval and once more at the end; 429 and\n"
                        + "503 are retried with backoff. Loopback only for --prometheus; it ends when the program ends\n"
                        + "(exit 0) or on Ctrl-C. A scrape the monitor does not answer is 503.",
                true);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError {
        List<String> args = line.getArgList();
        if (args.size() != 1) {
            throw new UsageError("give one process id: dyper export PID --prometheus PORT (see dyper ctl who)");
        }
        long pid;
        try {
            pid = Long.parseLong(args.get(0).trim());
        } catch (NumberFormatException e) {
            pid = -1;
        }
        if (pid <= 0) {
            throw new UsageError("'" + args.get(0) + "' is not a process id (see dyper ctl who)");
        }
        if (!line.hasOption("prometheus") && !line.hasOption("otlp")) {
            throw new UsageError("say how to export: --prometheus PORT, --otlp URL, or both");
        }
        int port = -1;
        if (line.hasOption("prometheus")) {
            try {
                port = Integer.parseInt(line.getOptionValue("prometheus").trim());
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 0 || port > 65535) {
                throw new UsageError("--prometheus " + line.getOptionValue("prometheus") + ": a port is 0 to 65535");
            }
        }
        URI otlp = line.hasOption("otlp") ? otlpUrl(line.getOptionValue("otlp")) : null;
        Map<String, String> headers = new LinkedHashMap<>();
        String[] given = line.getOptionValues("otlp-header");
        if (given != null) {
            if (otlp == null) {
                throw new UsageError("--otlp-header goes with --otlp URL");
            }
            for (String h : given) {
                int eq = h.indexOf('=');
                String name = eq < 0 ? "" : h.substring(0, eq).strip();
                if (eq <= 0 || !name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+") || h.substring(eq + 1).matches(
                        ".*[\\r\\n].*")) {
                    throw new UsageError("--otlp-header " + h + ": give NAME=VALUE (an HTTP header name, a value on "
                            + "one line)");
                }
                if (RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                    throw new UsageError("--otlp-header " + name + ": set by Dyper or by HTTP itself, not settable");
                }
                headers.put(name, h.substring(eq + 1).strip());
            }
        }
        long interval = DEFAULT_INTERVAL_MS;
        if (line.hasOption("interval")) {
            if (otlp == null) {
                throw new UsageError("--interval is the time between OTLP pushes: it goes with --otlp URL");
            }
            interval = WhatIfCommand.millis(line.getOptionValue("interval"), "--interval");
        }
        Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
        return new Parsed(pid, dir, port, otlp, headers, interval);
    }

    /** Headers the JDK's client or OTLP itself sets. */
    private static final Set<String> RESTRICTED = Set.of("content-type", "content-length", "host", "connection",
            "expect", "upgrade", "transfer-encoding");

    private static URI otlpUrl(String v) throws UsageError {
        URI u;
        try {
            u = new URI(v.strip());
        } catch (URISyntaxException e) {
            throw new UsageError("--otlp " + v + ": not a URL (" + e.getReason() + ")");
        }
        if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                || u.getHost() == null) {
            throw new UsageError("--otlp " + v + ": give an http:// or https:// URL, e.g. "
                    + "http://127.0.0.1:4318/v1/metrics");
        }
        return u;
    }

    @Override
    public int run(Parsed p, Context context) throws CommandFailure, IOException {
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(p.dir(), p.pid());
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
        Element first = report(entry, p.pid()); // fails now, not at the first scrape, when the monitor does not answer
        OtlpExport otlp = null;
        if (p.otlp() != null) {
            otlp = new OtlpExport(entry, p, context);
            otlp.first(first); // fails now when the receiver cannot be reached or refuses
        }
        HttpServer server = null;
        if (p.port() >= 0) {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), p.port()), 16);
            } catch (IOException e) {
                throw new CommandFailure(ExitCode.IO_ERROR, "--prometheus " + p.port() + ": cannot listen on "
                        + "127.0.0.1:" + p.port() + " (" + e.getMessage() + ")");
            }
            server.createContext("/metrics", x -> serve(x, entry, p.pid()));
            server.createContext("/", x -> reply(x, 404, "dyper export: the figures are at /metrics\n"));
            server.start();
            context.out().println("dyper: export: process " + p.pid() + "'s figures on http://127.0.0.1:"
                    + server.getAddress().getPort() + "/metrics");
        }
        if (otlp != null) {
            context.out().println("dyper: export: process " + p.pid() + "'s figures pushed to " + p.otlp()
                    + " every " + seconds(Long.toString(p.intervalMs() * 1_000_000)) + " s");
            otlp.start();
        }
        context.out().flush();
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch finished = new CountDownLatch(1);
        Optional<ProcessHandle> target = ProcessHandle.of(p.pid());
        target.ifPresent(h -> h.onExit().thenRun(done::countDown));
        if (target.isEmpty()) {
            done.countDown();
        }
        HttpServer serving = server;
        Thread hook = new Thread(() -> {
            done.countDown(); // Ctrl-C: the last push happens on the main thread, which the JVM waits for here
            try {
                finished.await(PUSH_TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "dyper-export-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        int exit = ExitCode.OK;
        try {
            done.await();
            if (serving != null) {
                serving.stop(0);
            }
            boolean ended = target.map(h -> !h.isAlive()).orElse(true);
            if (otlp != null && !otlp.last(ended)) {
                exit = ExitCode.IO_ERROR;
            }
            context.out().println(ended ? "dyper: export: process " + p.pid() + " ended"
                    : "dyper: export: stopped");
            context.out().flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            finished.countDown();
            if (serving != null) {
                serving.stop(0);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already
            }
        }
        return exit;
    }

    private static void serve(HttpExchange x, MonitorEntry entry, long pid) throws IOException {
        if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
            reply(x, 405, "GET /metrics\n");
            return;
        }
        String text;
        try {
            text = metrics(entry, pid);
        } catch (CommandFailure | IOException | RuntimeException e) {
            reply(x, 503, "dyper export: " + e.getMessage() + "\n");
            return;
        }
        x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        reply(x, 200, text);
    }

    private static void reply(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (!x.getResponseHeaders().containsKey("Content-Type")) {
            x.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        }
        x.sendResponseHeaders(status, x.getRequestMethod().equals("HEAD") ? -1 : bytes.length);
        try (OutputStream o = x.getResponseBody()) {
            if (!x.getRequestMethod().equals("HEAD")) {
                o.write(bytes);
            }
        }
    }

    /** The program's exact figures now, in Prometheus's text format. */
    static String metrics(MonitorEntry entry, long pid) throws CommandFailure, IOException {
        return prometheus(report(entry, pid));
    }

    /** The program's DYPER_REPORT now (null: it reports no exact figures), asked with REPORT (INSTRUMENTATION). */
    static Element report(MonitorEntry entry, long pid) throws CommandFailure, IOException {
        String reply;
        try (WireClient c = entry.connect(false)) {
            c.timeout(30_000);
            reply = c.command("REPORT", "<REPORT TYPE='INSTRUMENTATION'/>");
        } catch (ConnectException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, "process " + pid + " does not answer on "
                    + entry.endpoint());
        }
        Element root;
        try {
            root = MonitorReply.parse(reply);
        } catch (MonitorReply.MalformedException e) {
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + ": unreadable reply: "
                    + e.getMessage());
        }
        Element error = Xml.child(root, "ERROR");
        if (error != null) {
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + ": the monitor answered ERROR: "
                    + error.getTextContent());
        }
        return Xml.find(root, "DYPER_REPORT");
    }

    /** A DYPER_REPORT (null: the program reports no exact figures) as Prometheus text. */
    static String prometheus(Element report) {
        StringBuilder out = new StringBuilder(4096);
        Metric count = new Metric(out, "dyper_count_total", "counter",
                "Executions counted by woven code (the report's COUNTS)");
        Metric calls = new Metric(out, "dyper_calls_total", "counter",
                "Calls counted at call sites (the report's CALLS)");
        Metric timing = new Metric(out, "dyper_timing_seconds", "histogram",
                "Exact call times (the report's TIMING), in the report's log2 buckets");
        Metric tmin = new Metric(out, "dyper_timing_min_seconds", "gauge", "Shortest call (TIMING MIN_NS)");
        Metric tmax = new Metric(out, "dyper_timing_max_seconds", "gauge", "Longest call (TIMING MAX_NS)");
        Metric vcount = new Metric(out, "dyper_values_count", "gauge", "Values recorded (VALUES COUNT)");
        Metric vsum = new Metric(out, "dyper_values_sum", "gauge", "Sum of the values recorded (VALUES SUM)");
        Metric vmin = new Metric(out, "dyper_values_min", "gauge", "Smallest value recorded (VALUES MIN)");
        Metric vmax = new Metric(out, "dyper_values_max", "gauge", "Largest value recorded (VALUES MAX)");
        Metric acq = new Metric(out, "dyper_lock_acquisitions_total", "counter", "Lock acquisitions (LOCKS)");
        Metric cont = new Metric(out, "dyper_lock_contended_total", "counter", "Contended acquisitions (LOCKS)");
        Metric wait = new Metric(out, "dyper_lock_wait_seconds_total", "counter", "Time waited for locks (LOCKS)");
        Metric hold = new Metric(out, "dyper_lock_hold_seconds_total", "counter", "Time locks were held (LOCKS)");
        Metric alloc = new Metric(out, "dyper_allocations_total", "counter",
                "Objects and arrays allocated, per site (ALLOCATIONS SITE) and per type (TYPE)");
        Metric writes = new Metric(out, "dyper_field_writes_total", "counter", "Field writes (FIELDS)");
        if (report != null) {
            for (Element s : sites(report, "COUNTS", "SITE")) {
                count.add(labels(s), s.getAttribute("COUNT"));
            }
            for (Element s : sites(report, "CALLS", "SITE")) {
                calls.add(labels(s), s.getAttribute("COUNT"));
            }
            for (Element s : sites(report, "TIMING", "SITE")) {
                String l = labels(s);
                long cumulative = 0;
                for (Element b : Xml.children(s)) {
                    if (b.getTagName().equals("BUCKET")) {
                        cumulative += Long.parseLong(b.getAttribute("COUNT"));
                        timing.add("_bucket", l + ",le=\"" + seconds(b.getAttribute("UPPER_NS")) + "\"",
                                Long.toString(cumulative));
                    }
                }
                timing.add("_bucket", l + ",le=\"+Inf\"", s.getAttribute("COUNT"));
                timing.add("_sum", l, seconds(s.getAttribute("TOTAL_NS")));
                timing.add("_count", l, s.getAttribute("COUNT"));
                tmin.add(l, seconds(s.getAttribute("MIN_NS")));
                tmax.add(l, seconds(s.getAttribute("MAX_NS")));
            }
            for (Element s : sites(report, "VALUES", "SITE")) {
                String l = labels(s);
                vcount.add(l, s.getAttribute("COUNT"));
                vsum.add(l, s.getAttribute("SUM"));
                vmin.add(l, s.getAttribute("MIN"));
                vmax.add(l, s.getAttribute("MAX"));
            }
            for (String kind : List.of("SITE", "LOCK_CLASS")) {
                for (Element s : sites(report, "LOCKS", kind)) {
                    String l = kind.equals("SITE") ? labels(s) : "lock_class=\"" + esc(s.getAttribute("NAME")) + "\"";
                    acq.add(l, s.getAttribute("ACQUISITIONS"));
                    cont.add(l, s.getAttribute("CONTENDED"));
                    wait.add(l, seconds(s.getAttribute("WAIT_NS")));
                    hold.add(l, seconds(s.getAttribute("HOLD_NS")));
                }
            }
            for (Element s : sites(report, "ALLOCATIONS", "SITE")) {
                alloc.add(labels(s), s.getAttribute("COUNT"));
            }
            for (Element s : sites(report, "ALLOCATIONS", "TYPE")) {
                alloc.add("type=\"" + esc(s.getAttribute("NAME")) + "\",id=\"" + s.getAttribute("ID") + "\"",
                        s.getAttribute("COUNT"));
            }
            for (Element s : sites(report, "FIELDS", "FIELD")) {
                writes.add("field=\"" + esc(s.getAttribute("NAME")) + "\",id=\"" + s.getAttribute("ID") + "\"",
                        s.getAttribute("WRITES"));
            }
        }
        return out.toString();
    }

    /** One metric family: HELP and TYPE written before its first sample (families without samples are left out). */
    private static final class Metric {
        final StringBuilder out;
        final String name;
        final String type;
        final String help;
        boolean started;

        Metric(StringBuilder out, String name, String type, String help) {
            this.out = out;
            this.name = name;
            this.type = type;
            this.help = help;
        }

        void add(String labels, String value) {
            add("", labels, value);
        }

        void add(String suffix, String labels, String value) {
            if (!started) {
                out.append("# HELP ").append(name).append(' ').append(help).append('\n');
                out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
                started = true;
            }
            out.append(name).append(suffix).append('{').append(labels).append("} ").append(value).append('\n');
        }
    }

    private static List<Element> sites(Element report, String section, String tag) {
        Element s = Xml.child(report, section);
        return s == null ? List.of() : Xml.children(s).stream().filter(e -> e.getTagName().equals(tag)).toList();
    }

    private static String labels(Element site) {
        return "site=\"" + esc(site.getAttribute("NAME")) + "\",id=\"" + site.getAttribute("ID") + "\"";
    }

    /** A label value as Prometheus's text format writes it: backslash, quote and line feed escaped. */
    static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Nanoseconds as exact decimal seconds. */
    static String seconds(String ns) {
        BigDecimal s = new BigDecimal(ns.trim()).movePointLeft(9).stripTrailingZeros();
        return s.signum() == 0 ? "0" : s.toPlainString();
    }
}
