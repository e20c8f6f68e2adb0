package org.dyper.runtime.monitor.internal.nats;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.dyper.runtime.monitor.CommandAccess;
import org.dyper.runtime.monitor.CredsFile;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.Options;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The monitor on a NATS server (docs/fleet.md): on its own daemon thread {@code dyper-monitor-nats} it loads the
 * bridge (jnats in {@link IsolatedJars}, never the program's) and answers the DYPER commands on
 * {@code dyper.<id>.read} and {@code dyper.<id>.control}, and WHO on {@code dyper.who}. A command that changes the
 * program ({@link CommandAccess}) is answered only on the control subject. Nothing here blocks the program: a server
 * that is down is retried by the bridge in the background.
 */
public final class NatsLink {
    /** The subjects; {@code <id>} is host, pid and start time ({@link #id}). */
    public static final String WHO = "dyper.who";
    public static final String ANNOUNCE = "dyper.announce";
    public static final String BYE = "dyper.bye";
    /** The largest reply sent (above the server's max_payload the bridge sends it in parts, docs/fleet.md). */
    static final long MAX_REPLY = 64L << 20;

    private final Monitor m;
    private final Options.Nats options;
    private volatile String id;
    private volatile String host;
    private volatile AutoCloseable bridge;
    private volatile java.util.function.Supplier<?> status;

    private NatsLink(Monitor m, Options.Nats options) {
        this.m = m;
        this.options = options;
    }

    /** Starts joining {@code options.url()} in the background; never throws. */
    public static NatsLink start(Monitor m, Options.Nats options) {
        NatsLink link = new NatsLink(m, options);
        m.daemon("dyper-monitor-nats", link::connect).start();
        return link;
    }

    /** The JVM's id on the broker: host, pid and start time, each a subject token ([A-Za-z0-9-] only). */
    public static String id(String host, long pid, long startMillis) {
        return host.replaceAll("[^A-Za-z0-9-]", "-") + "_" + pid + "_" + startMillis;
    }

    public static String readSubject(String id) {
        return "dyper." + id + ".read";
    }

    public static String controlSubject(String id) {
        return "dyper." + id + ".control";
    }

    private void connect() {
        m.awaitStarted();
        try {
            host = hostName();
            id = id(host, m.pid, m.startMillis);
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("url", options.url());
            put(settings, "user", options.user());
            put(settings, "password", options.password());
            put(settings, "token", options.token());
            put(settings, "creds", options.creds());
            String exposed = options.creds() == null ? null : CredsFile.exposed(java.nio.file.Path.of(options.creds()));
            if (exposed != null) {
                System.err.println("dyper: nats: warning: " + exposed);
            }
            settings.put("id", id);
            settings.put("pid", Long.toString(m.pid));
            settings.put("name", "dyper-monitor " + id + " " + m.mainClass);
            settings.put("who", WHO);
            settings.put("read", readSubject(id));
            settings.put("control", controlSubject(id));
            settings.put("announce", ANNOUNCE);
            settings.put("bye", BYE);
            settings.put("maxmessage", Long.toString(Frames.MAX_MESSAGE));
            ClassLoader loader = IsolatedJars.load(NatsLink.class.getClassLoader());
            Class<?> type = Class.forName("org.dyper.natsbridge.NatsBridge", true, loader);
            BiFunction<String, String, String> handler = this::answer;
            AtomicInteger n = new AtomicInteger();
            ThreadFactory threads = r -> m.daemon("dyper-monitor-nats-" + n.incrementAndGet(), r);
            Consumer<String> log = line -> System.err.println("dyper: nats: " + line);
            Object b = type.getConstructor(Map.class, BiFunction.class, ThreadFactory.class, Consumer.class)
                    .newInstance(settings, handler, threads, log);
            bridge = (AutoCloseable) b;
            status = (java.util.function.Supplier<?>) b;
            ((Runnable) b).run();
        } catch (Throwable t) {
            try {
                System.err.println("dyper: nats: not joining " + redacted(options.url()) + ": " + Monitor.describe(t));
            } catch (Throwable ignored) {
                // nowhere to say it
            }
        }
    }

    /** A URL without its password or token, for messages: {@code nats://user:***@host:4222}, {@code nats://***@h:1}. */
    public static String redacted(String url) {
        return url == null ? null
                : url.replaceAll("//([^:/@]*):[^@/]*@", "//$1:***@").replaceAll("//[^:/@]+@", "//***@");
    }

    private static void put(Map<String, String> settings, String key, String value) {
        if (value != null) {
            settings.put(key, value);
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Throwable e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "localhost" : env;
        }
    }

    /** The bridge's handler: one message on {@code kind}'s subject, one reply; never throws. */
    String answer(String kind, String message) {
        try {
            switch (kind) {
                case "who":
                    return m.reply(member(null));
                case "announce":
                    return member(null);
                case "bye":
                    return member(System.currentTimeMillis());
                case "read":
                case "control":
                    return command(kind.equals("control"), message);
                default:
                    return m.error("no such subject kind '" + kind + "'");
            }
        } catch (Throwable t) {
            return m.error("internal error: " + t);
        }
    }

    /** The monitor as WHO lists it: {@code <MONITOR ID HOST PID MAIN START JAVA [END]/>}. */
    private String member(Long end) {
        return "<MONITOR ID='" + Xml.esc(id) + "' HOST='" + Xml.esc(host) + "' PID='" + m.pid + "' MAIN='"
                + Xml.esc(m.mainClass) + "' START='" + m.startMillis + "' JAVA='"
                + Xml.esc(System.getProperty("java.version", "")) + "'" + (end == null ? "" : " END='" + end + "'")
                + "/>";
    }

    private String command(boolean control, String message) throws Exception {
        if (!control) {
            Element root;
            try {
                root = Xml.parse(message);
            } catch (Xml.BadXml e) {
                return m.error(e.getMessage());
            }
            String command = Xml.attr(root, "COMMAND") != null ? Xml.attr(root, "COMMAND") : Xml.attr(root, "XCOMMAND");
            if (CommandAccess.controlOnly(command, !Xml.children(root).isEmpty())) {
                return m.error((command == null ? "a message without COMMAND" : command.trim())
                        + (CommandAccess.of(command) == CommandAccess.Access.CONTROL_READ
                        ? " reads the program's class files" : " changes the program")
                        + ": it is answered only on " + controlSubject(id) + ", not on "
                        + readSubject(id) + " (NATS permissions decide who may publish there; docs/fleet.md)");
            }
            String pid = Xml.attr(root, "PID");
            if (CommandAccess.of(command) != null && command.trim().equalsIgnoreCase("WHORU")
                    && (pid == null || pid.trim().equals(Long.toString(m.pid)))) {
                return m.reply(m.commands.whoru("the JVM arguments, program arguments, environment and system "
                        + "properties often hold passwords and keys: they are answered only on " + controlSubject(id)
                        + ", not on " + readSubject(id) + " (docs/fleet.md)"));
            }
        }
        Frames.Body body = m.commands.handle(message);
        if (body.length() > MAX_REPLY) {
            return m.error("the reply has " + body.length() + " bytes, more than " + MAX_REPLY + " over NATS");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) body.length());
        body.writeTo(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The id, once the link has started (null before). */
    public String id() {
        return id;
    }

    /** The bridge's state and counters, or why there is none. */
    public String status() {
        java.util.function.Supplier<?> s = status;
        return s == null ? "starting" : String.valueOf(s.get());
    }

    /** Says goodbye and closes, at most about a second; never throws. */
    public void close() {
        AutoCloseable b = bridge;
        if (b == null) {
            return;
        }
        Thread t = m.daemon("dyper-monitor-nats-close", () -> {
            try {
                b.close();
            } catch (Throwable ignored) {
                // the program is ending
            }
        });
        t.start();
        try {
            t.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
