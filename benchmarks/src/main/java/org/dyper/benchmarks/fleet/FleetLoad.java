package org.dyper.benchmarks.fleet;

import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.NatsFleet;

/**
 * The client side of the fleet scale benchmark ({@code benchmarks/run-fleet}): against monitors on a NATS server
 * (simulated by {@link FleetSimulator}, or real JVMs) it measures, round by round, the WHO scatter-gather until
 * {@code --expect} answers (first, half, all), how many of them {@code dyper ctl --nats who}'s default 1 s deadline
 * sees, {@code --all PING} and {@code --all REPORT} through {@link NatsFleet} (wall time, bytes), and the whole
 * {@code dyper report --nats URL --all} (merge and page) in this JVM. Prints one line per measurement and the
 * medians.
 *
 * <p>Usage: {@code FleetLoad --nats URL [--user U --password P] --expect N [--rounds R] [--report-rounds R]}.
 */
public final class FleetLoad {
    private FleetLoad() {
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        String user = null;
        String password = null;
        int expect = 0;
        int rounds = 5;
        int reportRounds = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nats" -> url = args[++i];
                case "--user" -> user = args[++i];
                case "--password" -> password = args[++i];
                case "--expect" -> expect = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--report-rounds" -> reportRounds = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Options.Builder b = new Options.Builder().server(url).connectionName("dyper-fleet-load");
        if (user != null) {
            b.userInfo(user, password == null ? "" : password);
        }
        NatsFleet.Login login = new NatsFleet.Login(url, user, password, null, null);
        double[][] who = new double[rounds][];
        int[] seenInOneSecond = new int[rounds];
        double[] ping = new double[rounds];
        try (Connection c = Nats.connect(b.build()); NatsFleet fleet = NatsFleet.connect(login, Duration.ofSeconds(5))) {
            for (int r = 0; r < rounds; r++) {
                who[r] = gather(c, expect, Duration.ofSeconds(60));
                seenInOneSecond[r] = fleet.who(Duration.ofSeconds(1)).size();
                List<Fleet.Member> members = fleet.who(Duration.ofSeconds(Math.max(2, expect / 100)));
                long t0 = System.nanoTime();
                List<Fleet.Answer> pongs = fleet.send(members, "<DYPER COMMAND='PING'/>", false, Duration.ofSeconds(60));
                ping[r] = (System.nanoTime() - t0) / 1e6;
                System.out.printf(Locale.ROOT, "round %d: who first %.1f ms, half %.1f ms, all %d in %.1f ms; "
                        + "who (1 s deadline) saw %d; --all PING %d/%d answered in %.1f ms%n", r + 1, who[r][0],
                        who[r][1], (int) who[r][3], who[r][2], seenInOneSecond[r], pongs.stream()
                                .filter(Fleet.Answer::ok).count(), members.size(), ping[r]);
            }
            double[] report = new double[reportRounds];
            double[] cli = new double[reportRounds];
            double[] cpu = new double[reportRounds];
            List<Fleet.Member> members = fleet.who(Duration.ofSeconds(Math.max(2, expect / 100)));
            Path dir = Files.createTempDirectory("fleet-load");
            for (int r = 0; r < reportRounds; r++) {
                long t0 = System.nanoTime();
                List<Fleet.Answer> answers = fleet.send(members, "<DYPER COMMAND='REPORT'><REPORT TYPE='ALL'/></DYPER>",
                        false, Duration.ofSeconds(120));
                report[r] = (System.nanoTime() - t0) / 1e6;
                long bytes = answers.stream().filter(Fleet.Answer::ok).mapToLong(a -> a.reply().length()).sum();
                long ok = answers.stream().filter(Fleet.Answer::ok).count();
                answers = null;
                System.gc();
                ManagementFactory.getMemoryPoolMXBeans().forEach(java.lang.management.MemoryPoolMXBean::resetPeakUsage);
                long cpu0 = processCpuNanos();
                long t1 = System.nanoTime();
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                List<String> argv = new ArrayList<>(Arrays.asList("report", "--nats", url, "--all", "--timeout",
                        "120000", "--out", dir.resolve("fleet.html").toString()));
                if (user != null) {
                    argv.addAll(List.of("--user", user, "--password", password == null ? "" : password));
                }
                int code = Main.run(argv.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of());
                cli[r] = (System.nanoTime() - t1) / 1e6;
                cpu[r] = (processCpuNanos() - cpu0) / 1e6;
                System.out.printf(Locale.ROOT, "report round %d: --all REPORT %d/%d answered in %.1f ms (%.1f MB of "
                        + "replies); dyper report --nats --all: exit %d in %.1f ms wall, %.1f ms CPU (this JVM), page "
                        + "%.1f MB%s%n", r + 1, ok, members.size(), report[r], bytes / 1e6, code, cli[r], cpu[r],
                        Files.exists(dir.resolve("fleet.html")) ? Files.size(dir.resolve("fleet.html")) / 1e6 : 0,
                        code == 0 ? "" : " " + err.toString(
                                StandardCharsets.UTF_8).trim());
                // the old generation's peak is what the report held at once (young collections reclaim the rest)
                long old = 0;
                long all = 0;
                for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
                    if (pool.getType() == java.lang.management.MemoryType.HEAP) {
                        all += pool.getPeakUsage().getUsed();
                        if (pool.getName().contains("Old") || pool.getName().contains("Tenured")) {
                            old += pool.getPeakUsage().getUsed();
                        }
                    }
                }
                System.out.printf(Locale.ROOT, "report round %d: heap peaks during dyper report: old generation "
                        + "%.0f MB, all heap pools %.0f MB (max heap %.0f MB)%n", r + 1, old / 1e6, all / 1e6,
                        Runtime.getRuntime().maxMemory() / 1e6);
            }
            System.out.printf(Locale.ROOT, "MEDIANS %d monitors: who all %.1f ms; who (1 s) saw %d; --all PING %.1f ms;"
                    + " --all REPORT %.1f ms; dyper report --all %.1f ms wall, %.1f ms CPU%n", expect,
                    median(Arrays.stream(who).mapToDouble(w -> w[2]).toArray()),
                    (int) median(Arrays.stream(seenInOneSecond).asDoubleStream().toArray()), median(ping),
                    median(report), median(cli), median(cpu));
        }
    }

    /** WHO as a raw scatter-gather: ms to the first answer, to half of {@code expect}, to all; and how many came. */
    static double[] gather(Connection c, int expect, Duration deadline) throws Exception {
        String inbox = c.createInbox();
        Subscription sub = c.subscribe(inbox);
        c.flush(Duration.ofSeconds(5));
        long t0 = System.nanoTime();
        c.publish(NatsFleet.WHO, inbox, "<DYPER COMMAND='WHO'/>".getBytes(StandardCharsets.UTF_8));
        double first = -1;
        double half = -1;
        double all = -1;
        int n = 0;
        long end = t0 + deadline.toNanos();
        while (n < expect && System.nanoTime() < end) {
            Message m = sub.nextMessage(Duration.ofNanos(Math.max(1, end - System.nanoTime())));
            if (m == null) {
                break;
            }
            n++;
            double ms = (System.nanoTime() - t0) / 1e6;
            if (n == 1) {
                first = ms;
            }
            if (n == (expect + 1) / 2) {
                half = ms;
            }
            if (n == expect) {
                all = ms;
            }
        }
        sub.unsubscribe();
        return new double[] {first, half, all, n};
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length == 0 ? Double.NaN : v[(v.length - 1) / 2];
    }
}
