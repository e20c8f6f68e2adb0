package org.dyper.benchmarks.fleet;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Many simulated DYPER monitors in one JVM, speaking the monitor's protocol on a NATS server (docs/fleet.md): each
 * answers WHO on {@code dyper.who}, the read commands (PING, WHORU, REPORT) on {@code dyper.<id>.read} and INSTRUMENT
 * on {@code dyper.<id>.control}, announces itself on {@code dyper.announce} and says goodbye on {@code dyper.bye}, as
 * the real monitor's NATS link does. Its REPORT is synthetic but shaped like a real one (exact sites whose counts say
 * which monitor it is, CPU stacks of {@code --paths} paths), so that {@code dyper report --all} over it can be checked.
 * Not a test: the scale benchmark ({@code benchmarks/run-fleet}) runs it to find where WHO and {@code --all} bend.
 *
 * <p>Usage: {@code FleetSimulator --nats URL [--user U --password P] --monitors N [--per-connection K (default 1, as real monitors)] [--paths P]
 * [--main CLASS] [--host NAME]}; prints {@code READY N} when every monitor is subscribed, runs until standard input
 * ends, then prints what it answered.
 */
public final class FleetSimulator {
    private static final Pattern COMMAND = Pattern.compile("COMMAND\\s*=\\s*['\"]([A-Za-z]+)['\"]");

    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong bytesIn = new AtomicLong();
    private final AtomicLong bytesOut = new AtomicLong();

    /** One simulated monitor: its id on the broker and its canned replies. */
    private final class Monitor {
        final int n;
        final String id;
        final long pid;
        final String member;
        final String report;

        Monitor(int n, String host, String main, long start, int paths) {
            this.n = n;
            this.pid = 100_000 + n;
            this.id = host.replaceAll("[^A-Za-z0-9-]", "-") + "_" + pid + "_" + start;
            this.member = "<MONITOR ID='" + id + "' HOST='" + host + "' PID='" + pid + "' MAIN='" + main + "' START='"
                    + start + "' JAVA='" + System.getProperty("java.version") + "'/>";
            this.report = report(n, pid, main, start, paths);
        }

        String answer(String kind, byte[] data) {
            String message = new String(data, StandardCharsets.UTF_8);
            Matcher m = COMMAND.matcher(message);
            String command = m.find() ? m.group(1).toUpperCase(java.util.Locale.ROOT) : "";
            if (kind.equals("who")) {
                return "<DYPER_REPLY ID='" + pid + "'>" + member + "</DYPER_REPLY>";
            }
            if (kind.equals("control")) {
                if (command.equals("INSTRUMENT")) {
                    boolean insert = !message.contains("INSERT='FALSE'");
                    return "<DYPER_REPLY ID='" + pid + "'><PATCH MODEL='sim' CLASSES='" + (insert ? 2 : 3)
                            + "' PENDING='" + (insert ? 1 : 0) + "' NANOS='1500000' REDEFINE_NANOS='900000'"
                            + (insert ? " FIRSTID='1' LASTID='9'" : "") + "/></DYPER_REPLY>";
                }
                return "<DYPER_REPLY ID='" + pid + "'/>";
            }
            return switch (command) {
                case "PING" -> "<DYPER_REPLY ID='" + pid + "'>PONG</DYPER_REPLY>";
                case "WHORU" -> "<DYPER_REPLY ID='" + pid + "'><PROPERTY KEY='java.version'>"
                        + System.getProperty("java.version") + "</PROPERTY></DYPER_REPLY>";
                case "REPORT" -> report;
                case "INSTRUMENT", "SET", "CLEAR", "AGENT" -> "<DYPER_REPLY ID='" + pid + "'><ERROR>" + command
                        + " changes the program: it is answered only on dyper." + id + ".control</ERROR></DYPER_REPLY>";
                default -> "<DYPER_REPLY ID='" + pid + "'><ERROR>unknown command '" + command
                        + "' (simulated monitor)</ERROR></DYPER_REPLY>";
            };
        }
    }

    /**
     * A REPORT reply: COUNTS site {@code Sim.tick()} = n, TIMING {@code Sim.work()} n calls of 1 µs each, CPU stacks of
     * {@code paths} paths, 16 frames deep, weight n+1 each (so a merged report's figures can be checked by arithmetic).
     */
    static String report(int n, long pid, String main, long start, int paths) {
        StringBuilder x = new StringBuilder(paths * 900 + 2048);
        long now = System.currentTimeMillis();
        x.append("<DYPER_REPLY ID='").append(pid).append("'><MONITOR_REPORT VERSION='1' PID='").append(pid)
                .append("' TIME='").append(now).append("' START='").append(start).append("' MAIN='").append(main)
                .append("' MONITOR='true' CHECKTIME='10'><INSTRUMENTATION EXACT='true' ACTIVE='true'>")
                .append("<DYPER_REPORT VERSION='1' PID='").append(pid).append("' TIME='").append(now).append("'>")
                .append("<COUNTS><SITE ID='1' NAME='sim.Sim.tick()' COUNT='").append(n).append("'/></COUNTS><CALLS/>")
                .append("<TIMING><SITE ID='2' NAME='sim.Sim.work()' COUNT='").append(n).append("' TOTAL_NS='")
                .append(n * 1000L).append("' MIN_NS='1000' MAX_NS='1000' MEAN_NS='1000'><BUCKET UPPER_NS='1024' COUNT='")
                .append(n).append("'/></SITE></TIMING><FAILURES TOTAL='0'/></DYPER_REPORT></INSTRUMENTATION>");
        long weight = n + 1;
        x.append("<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='").append(paths * 16L)
                .append("' NODE_LIMIT='200000' DROPPED='0'><VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='")
                .append(weight * paths).append("' EVENTS='").append(weight * paths).append("' OMITTED_PATHS='0' ")
                .append("OMITTED_WEIGHT='0' DROPPED='0' DROPPED_WEIGHT='0' THREAD_DROPPED='0' THREADS_OMITTED='0'>");
        for (int p = 0; p < paths; p++) {
            x.append("<PATH WEIGHT='").append(weight).append("'>");
            for (int d = 0; d < 16; d++) {
                x.append(d == 0 ? "" : ";").append("org.example.service.layer").append(d).append(".Handler")
                        .append(d < 15 ? d : p).append(".handle").append(d == 15 ? p % 7 : d);
            }
            x.append("</PATH>");
        }
        return x.append("</VIEW></STACKS></MONITOR_REPORT></DYPER_REPLY>").toString();
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        String user = null;
        String password = null;
        String host = "sim";
        String main = "org.example.SimulatedService";
        int monitors = 100;
        int perConnection = 1;
        int paths = 200;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--nats" -> url = args[++i];
                case "--user" -> user = args[++i];
                case "--password" -> password = args[++i];
                case "--monitors" -> monitors = Integer.parseInt(args[++i]);
                case "--per-connection" -> perConnection = Integer.parseInt(args[++i]);
                case "--paths" -> paths = Integer.parseInt(args[++i]);
                case "--main" -> main = args[++i];
                case "--host" -> host = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        if (url == null) {
            throw new IllegalArgumentException("--nats URL is needed");
        }
        new FleetSimulator().run(url, user, password, host, main, monitors, perConnection, paths);
    }

    private void run(String url, String user, String password, String host, String main, int monitors,
            int perConnection, int paths) throws Exception {
        long start = System.currentTimeMillis();
        List<Connection> connections = new ArrayList<>();
        List<Monitor> all = new ArrayList<>();
        Connection c = null;
        Dispatcher d = null;
        List<Monitor> onConnection = null;
        for (int n = 1; n <= monitors; n++) {
            if ((n - 1) % perConnection == 0) {
                Options.Builder b = new Options.Builder().server(url).connectionName("dyper-fleet-simulator")
                        .maxReconnects(-1).reconnectWait(Duration.ofMillis(500));
                if (user != null) {
                    b.userInfo(user, password == null ? "" : password);
                }
                c = Nats.connect(b.build());
                connections.add(c);
                d = c.createDispatcher();
                d.setPendingLimits(100_000, 512L << 20);
                // the server delivers a subject once per connection, however many subscriptions match there: one
                // WHO subscription per connection answers for each monitor on it (with one per connection, as real
                // monitors are, the broker's fan-out is the real one)
                List<Monitor> mine = new ArrayList<>();
                onConnection = mine;
                Connection conn = c;
                d.subscribe("dyper.who", msg -> mine.forEach(m -> reply(conn, m, "who", msg)));
            }
            Monitor m = new Monitor(n, host, main, start, paths);
            all.add(m);
            onConnection.add(m);
            Connection conn = c;
            d.subscribe("dyper." + m.id + ".read", msg -> reply(conn, m, "read", msg));
            d.subscribe("dyper." + m.id + ".control", msg -> reply(conn, m, "control", msg));
        }
        for (Connection conn : connections) {
            conn.flush(Duration.ofSeconds(30));
        }
        for (int i = 0; i < all.size(); i++) {
            Monitor m = all.get(i);
            connections.get(i / perConnection).publish("dyper.announce", m.member.getBytes(StandardCharsets.UTF_8));
        }
        System.out.println("READY " + monitors + " monitors on " + connections.size() + " connections, REPORT of "
                + all.get(0).report.length() + " bytes each");
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        while (in.readLine() != null) {
            // runs until standard input ends
        }
        for (int i = 0; i < all.size(); i++) {
            Monitor m = all.get(i);
            connections.get(i / perConnection).publish("dyper.bye", m.member.getBytes(StandardCharsets.UTF_8));
        }
        for (Connection conn : connections) {
            conn.flush(Duration.ofSeconds(5));
            conn.close();
        }
        System.out.println("answered " + answered.get() + " messages, " + bytesIn.get() + " bytes in, "
                + bytesOut.get() + " bytes out");
    }

    private void reply(Connection c, Monitor m, String kind, Message msg) {
        if (msg.getReplyTo() == null) {
            return;
        }
        byte[] data = msg.getData() == null ? new byte[0] : msg.getData();
        bytesIn.addAndGet(data.length);
        byte[] out = m.answer(kind, data).getBytes(StandardCharsets.UTF_8);
        c.publish(msg.getReplyTo(), out);
        bytesOut.addAndGet(out.length);
        answered.incrementAndGet();
    }
}
