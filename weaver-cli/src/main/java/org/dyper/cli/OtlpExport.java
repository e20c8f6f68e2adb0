package org.dyper.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.dyper.cli.otlp.OtlpMetrics;
import org.dyper.cli.otlp.OtlpPusher;
import org.dyper.runtime.monitor.MonitorEntry;
import org.w3c.dom.Element;

/**
 * {@code dyper export --otlp}'s pushing: the figures pulled and pushed every interval on a daemon thread, those of
 * the last successful pull kept for the push at the end (a program that has ended cannot be asked any more).
 */
final class OtlpExport {
    private final MonitorEntry entry;
    private final ExportCommand.Parsed p;
    private final CliCommand.Context context;
    private final OtlpPusher pusher;
    private final OtlpMetrics.Target target;
    private final String version;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "dyper-export-otlp");
        t.setDaemon(true);
        return t;
    });
    private volatile Element lastReport;
    private volatile long lastPulled;
    private String lastProblem = "";

    OtlpExport(MonitorEntry entry, ExportCommand.Parsed p, CliCommand.Context context) {
        this.entry = entry;
        this.p = p;
        this.context = context;
        this.pusher = new OtlpPusher(p.otlp(), p.headers(), ExportCommand.PUSH_ATTEMPTS, ExportCommand.FIRST_BACKOFF_MS,
                ExportCommand.PUSH_TIMEOUT);
        String main = entry.mainClass() == null || entry.mainClass().equals("unknown") ? "" : entry.mainClass();
        this.target = new OtlpMetrics.Target(p.pid(), main, host(), entry.startMillis());
        String v = ExportCommand.class.getPackage().getImplementationVersion();
        this.version = v == null ? "" : v;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    void first(Element report) throws CommandFailure {
        lastReport = report;
        lastPulled = System.currentTimeMillis();
        try {
            warnPartial(pusher.push(OtlpMetrics.request(report, target, version)));
        } catch (OtlpPusher.PushException e) {
            throw new CommandFailure(ExitCode.IO_ERROR, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure(ExitCode.IO_ERROR, "--otlp " + p.otlp() + ": interrupted");
        }
    }

    void start() {
        timer.scheduleWithFixedDelay(this::tick, p.intervalMs(), p.intervalMs(), TimeUnit.MILLISECONDS);
    }

    /** One periodic push; a failure is said once (and its end too), and the next push makes it good. */
    private synchronized void tick() {
        try {
            lastReport = ExportCommand.report(entry, p.pid());
            lastPulled = System.currentTimeMillis();
        } catch (CommandFailure | IOException | RuntimeException e) {
            problem("dyper: export: process " + p.pid() + ": " + e.getMessage() + " (pushing its last figures)");
        }
        try {
            warnPartial(pusher.push(OtlpMetrics.request(lastReport, target, version)));
            if (!lastProblem.isEmpty()) {
                context.err().println("dyper: export: pushes to " + p.otlp() + " go through again");
                lastProblem = "";
            }
        } catch (OtlpPusher.PushException e) {
            problem("dyper: export: " + e.getMessage() + " (the next push carries the cumulative figures)");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void problem(String message) {
        if (!message.equals(lastProblem)) {
            context.err().println(message);
            context.err().flush();
            lastProblem = message;
        }
    }

    private void warnPartial(OtlpPusher.Accepted a) {
        if (a.rejectedPoints() > 0 || !a.message().isEmpty()) {
            problem("dyper: export: " + p.otlp() + " rejected " + a.rejectedPoints() + " data points"
                    + (a.message().isEmpty() ? "" : ": " + a.message()));
        }
    }

    /**
     * The push at the end: fresh figures when the program still answers (Ctrl-C), else those of the last pull.
     * False when it did not go through.
     */
    synchronized boolean last(boolean ended) {
        timer.shutdownNow();
        String age = "";
        if (!ended) {
            try {
                lastReport = ExportCommand.report(entry, p.pid());
                lastPulled = System.currentTimeMillis();
            } catch (CommandFailure | IOException | RuntimeException e) {
                age = " (" + e.getMessage() + ")";
            }
        }
        if (ended || !age.isEmpty()) {
            age = ", pulled " + (System.currentTimeMillis() - lastPulled) + " ms before" + age;
        }
        try {
            pusher.push(OtlpMetrics.request(lastReport, target, version));
            context.out().println("dyper: export: last figures" + age + " pushed to " + p.otlp());
            return true;
        } catch (OtlpPusher.PushException e) {
            context.err().println("dyper: export: the last push failed: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
