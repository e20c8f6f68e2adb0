package org.dyper.natsbridge;

import io.nats.client.Connection;
import io.nats.client.ConnectionListener;
import io.nats.client.Consumer;
import io.nats.client.Dispatcher;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.Headers;
import io.nats.client.impl.DaemonTimerConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * The monitor's connection to a NATS server. It speaks to the runtime only in JDK types, because the runtime loads it
 * in a class loader of its own: {@code settings} (below), a {@code handler} that answers one message
 * ({@code (kind, xml) -> reply}, kind {@code who}, {@code read} or {@code control}: the subject it came on), a thread
 * factory (the monitor's own daemon threads) and a log line sink.
 *
 * <p>Settings: {@code url}; {@code user} and {@code password}, {@code token}, or {@code creds} (a .creds file); the
 * subjects {@code who}, {@code read}, {@code control} (subscribed), {@code announce} and {@code bye} (published at
 * (re)connect and at the end; the payloads are the handler's answer to kind {@code announce} and {@code bye}),
 * {@code name} (the connection's name), {@code pid} (for error replies), {@code maxmessage} (bytes; bigger requests are
 * refused). Every message that did not come on one of the three subscribed subjects, or has no reply subject, is
 * dropped and counted. A reply bigger than the server's max_payload goes in numbered parts ({@link #PART_HEADER}).
 *
 * <p>{@link #run} connects, retrying with backoff until {@link #close}; the buffers are bounded (1 MiB while
 * disconnected, 10,000 outgoing messages, 1,000 pending requests per subject, over that they are dropped).
 */
public final class NatsBridge implements Runnable, AutoCloseable, Supplier<String> {
    private final Map<String, String> settings;
    private final BiFunction<String, String, String> handler;
    private final ThreadFactory threads;
    private final java.util.function.Consumer<String> log;
    private final ExecutorService executor;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private volatile Connection connection;
    private volatile boolean closed;
    private volatile String state = "connecting";

    public NatsBridge(Map<String, String> settings, BiFunction<String, String, String> handler, ThreadFactory threads,
            java.util.function.Consumer<String> log) {
        this.settings = Map.copyOf(settings);
        this.handler = handler;
        this.threads = threads;
        this.log = log;
        this.executor = new ThreadPoolExecutor(0, 64, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), threads,
                new ThreadPoolExecutor.CallerRunsPolicy());
    }

    private String setting(String key) {
        String v = settings.get(key);
        return v == null || v.isBlank() ? null : v;
    }

    Options options() {
        Options.Builder b = new Options.Builder()
                .server(setting("url"))
                .connectionName(settings.getOrDefault("name", "dyper-monitor"))
                .maxReconnects(-1)
                .reconnectDelayHandler(attempt -> Duration.ofMillis(Math.min(4000, 100L << Math.min(6, attempt))))
                .reconnectJitter(Duration.ofMillis(100))
                .connectionTimeout(Duration.ofSeconds(5))
                .reconnectBufferSize(1L << 20)
                .maxMessagesInOutgoingQueue(10_000)
                .discardMessagesWhenOutgoingQueueFull()
                // jnats' write watchdog would start a java.util.Timer that is no daemon
                .socketWriteTimeout((Duration) null)
                .executor(executor)
                .connectThreadFactory(threads)
                .callbackThreadFactory(threads)
                .errorListener(new Errors())
                .connectionListener(this::event);
        if (setting("user") != null) {
            b.userInfo(setting("user"), settings.getOrDefault("password", ""));
        }
        if (setting("token") != null) {
            b.token(setting("token").toCharArray());
        }
        if (setting("creds") != null) {
            b.authHandler(Nats.credentials(setting("creds")));
        }
        return b.build();
    }

    /** Connects (on the calling thread, retrying with backoff), subscribes and announces; returns when connected. */
    @Override
    public void run() {
        try {
            Connection c = DaemonTimerConnection.connect(options(), true, "dyper-monitor-nats-timer");
            if (closed) {
                c.close();
                return;
            }
            connection = c;
            Dispatcher who = c.createDispatcher();
            Dispatcher commands = c.createDispatcher();
            subscribe(who, "who");
            subscribe(commands, "read");
            subscribe(commands, "control");
            state = "connected";
            log.accept("connected to " + redacted(c.getConnectedUrl()) + " as " + settings.get("id"));
            announce("announce");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            state = "failed: " + t;
            log.accept("not connected (" + t + "); the monitor goes on without NATS");
        }
    }

    /** A URL without its password or token: {@code nats://user:***@host:4222}, {@code nats://***@host:4222}. */
    static String redacted(String url) {
        return url == null ? null
                : url.replaceAll("//([^:/@]*):[^@/]*@", "//$1:***@").replaceAll("//[^:/@]+@", "//***@");
    }

    private void subscribe(Dispatcher d, String kind) {
        String subject = settings.get(kind);
        d.subscribe(subject, m -> answer(kind, subject, m));
        d.setPendingLimits(1000, 64L << 20);
    }

    private void answer(String kind, String subject, Message m) {
        String replyTo = m.getReplyTo();
        if (!subject.equals(m.getSubject()) || replyTo == null || replyTo.isEmpty()) {
            dropped.incrementAndGet();
            return;
        }
        long max = Long.parseLong(settings.getOrDefault("maxmessage", "16777216"));
        String reply;
        byte[] data = m.getData();
        if (data == null || data.length > max) {
            reply = error("a message of " + (data == null ? 0 : data.length) + " bytes (at most " + max + ")");
        } else {
            try {
                reply = handler.apply(kind, new String(data, StandardCharsets.UTF_8));
            } catch (Throwable t) {
                reply = error("internal error: " + t);
            }
        }
        byte[] out = reply.getBytes(StandardCharsets.UTF_8);
        Connection c = connection;
        if (c == null) {
            return;
        }
        long limit = c.getMaxPayload();
        try {
            if (limit > 0 && out.length > limit) {
                parts(c, replyTo, out, limit);
            } else {
                c.publish(replyTo, out);
            }
            answered.incrementAndGet();
        } catch (RuntimeException e) {
            dropped.incrementAndGet();
        }
    }

    /** The header that numbers the parts of a reply bigger than the server's max_payload: {@code "i n"}. */
    static final String PART_HEADER = "Dyper-Part";
    /** At most this many parts (the server's allow_responses must let a monitor publish as many on one reply). */
    static final int MAX_PARTS = 1024;
    /** Room left in each part for its header (HPUB counts the headers in the payload). */
    static final int HEADER_ROOM = 128;

    /**
     * A reply bigger than the server's {@code max_payload}: sent in parts of at most max_payload, each numbered in
     * the header {@value #PART_HEADER} ({@code "i n"}), which the client puts together again in order (NatsFleet);
     * where the server has no headers, or it would take more than {@value #MAX_PARTS} parts, an ERROR saying so.
     */
    private void parts(Connection c, String replyTo, byte[] out, long limit) {
        int room = (int) Math.min(Integer.MAX_VALUE, limit - HEADER_ROOM);
        long n = room <= 0 ? Long.MAX_VALUE : (out.length + (long) room - 1) / room;
        if (!c.getServerInfo().isHeadersSupported() || n > MAX_PARTS) {
            c.publish(replyTo, error("the reply has " + out.length + " bytes, more than " + (n > MAX_PARTS ? MAX_PARTS
                    + " parts of" : "") + " the server's max_payload of " + limit + " bytes" + (n > MAX_PARTS ? ""
                    : " (and the server takes no headers to send it in parts)") + ": ask for less (a REPORT TYPE), "
                    + "or raise max_payload").getBytes(StandardCharsets.UTF_8));
            return;
        }
        for (int i = 0; i < n; i++) {
            Headers h = new Headers().put(PART_HEADER, i + " " + n);
            c.publish(replyTo, h, java.util.Arrays.copyOfRange(out, i * room, (int) Math.min(out.length,
                    (long) (i + 1) * room)));
        }
    }

    private String error(String message) {
        String text = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return "<DYPER_REPLY ID='" + settings.getOrDefault("pid", "0") + "'><ERROR>" + text
                + "</ERROR></DYPER_REPLY>";
    }

    private void announce(String what) {
        Connection c = connection;
        String subject = setting(what);
        if (c == null || subject == null) {
            return;
        }
        try {
            c.publish(subject, handler.apply(what, "").getBytes(StandardCharsets.UTF_8));
        } catch (Throwable ignored) {
            // an announcement is a courtesy: WHO finds the monitor either way
        }
    }

    private void event(Connection c, ConnectionListener.Events type) {
        switch (type) {
            case DISCONNECTED -> {
                if (!closed && "connected".equals(state)) {
                    state = "disconnected";
                    log.accept("lost the connection to the NATS server; reconnecting with backoff");
                }
            }
            case RECONNECTED -> {
                reconnects.incrementAndGet();
                state = "connected";
                log.accept("reconnected to " + redacted(c.getConnectedUrl()));
                announce("announce");
            }
            default -> {
                // CONNECTED is handled in run(); the rest changes nothing here
            }
        }
    }

    /** The state for the monitor's report: connected, disconnected, ..., with counters. */
    @Override
    public String get() {
        return state + " answered=" + answered.get() + " dropped=" + dropped.get() + " reconnects=" + reconnects.get();
    }

    /** Says goodbye (bounded), closes the connection and its threads; never throws. */
    @Override
    public void close() {
        closed = true;
        Connection c = connection;
        if (c != null) {
            try {
                announce("bye");
                c.flush(Duration.ofMillis(300));
            } catch (Throwable ignored) {
                // the broker is gone: nothing to say goodbye to
            }
            try {
                c.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable ignored) {
                // closing anyway
            }
        }
        executor.shutdownNow();
    }

    /** Counts what the server refused or dropped; one line per kind of error, not per message. */
    private final class Errors implements ErrorListener {
        private final java.util.Set<String> said = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void errorOccurred(Connection conn, String error) {
            if (said.add(error) && said.size() < 20) {
                log.accept("the NATS server says: " + error);
            }
        }

        @Override
        public void exceptionOccurred(Connection conn, Exception exp) {
            // connection failures: the reconnect loop handles them, the DISCONNECTED event says it once
        }

        @Override
        public void slowConsumerDetected(Connection conn, Consumer consumer) {
            dropped.incrementAndGet();
        }
    }
}
