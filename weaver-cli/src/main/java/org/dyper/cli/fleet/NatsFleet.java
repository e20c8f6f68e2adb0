package org.dyper.cli.fleet;

import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.Subscription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The monitored JVMs a NATS server reaches (docs/fleet.md). WHO is a scatter-gather: one message on {@code dyper.who},
 * every monitor answers on one inbox until the deadline. A command goes to each JVM's subject, {@code dyper.<id>.read}
 * or, when it changes the program, {@code dyper.<id>.control}; the requests are all sent at once and the answers
 * gathered until the deadline. What the server refuses (a user without the right to publish there) ends that JVM's
 * request at once, with the server's words.
 */
public final class NatsFleet implements Fleet {
    /** At most this many requests of one {@link #send} wait for their answers at once. */
    static final int WINDOW = 32;

    /** The subject every monitor answers WHO on (the runtime's NatsLink says the same). */
    public static final String WHO = "dyper.who";

    /** How to reach the server: its URL and at most one of user and password, token or a .creds file. */
    public record Login(String url, String user, String password, String token, Path creds) {
        public Login {
            if (url == null || !url.matches("(?i)(nats|tls|ws|wss)://.+")) {
                throw new IllegalArgumentException("--nats needs a URL nats://host:port or tls://host:port, not '"
                        + url + "'");
            }
            if (creds != null && !Files.isReadable(creds)) {
                throw new IllegalArgumentException("--creds " + creds + ": cannot read it");
            }
        }
    }

    private final Connection connection;
    private final String url;
    /** The requests waiting for an answer, by subject: a permissions violation there ends them at once. */
    private final Map<String, CompletableFuture<Message>> pending = new ConcurrentHashMap<>();
    private final List<String> refused = java.util.Collections.synchronizedList(new ArrayList<>());

    private NatsFleet(Connection connection, String url) {
        this.connection = connection;
        this.url = url;
    }

    /** Connects within {@code timeout}; a server that is down or refuses the login is an IOException saying so. */
    public static NatsFleet connect(Login login, Duration timeout) throws IOException {
        Holder holder = new Holder();
        Options.Builder b = new Options.Builder().server(login.url()).connectionName("dyper ctl")
                .connectionTimeout(timeout).noReconnect().errorListener(holder).maxReconnects(0);
        if (login.user() != null) {
            b.userInfo(login.user(), login.password() == null ? "" : login.password());
        }
        if (login.token() != null) {
            b.token(login.token().toCharArray());
        }
        if (login.creds() != null) {
            b.authHandler(Nats.credentials(login.creds().toString()));
        }
        Options options = b.build();
        // jnats waits out the whole connection timeout after the server refused the login (-ERR, then it closes):
        // connect on a daemon thread and give up as soon as the server has said why
        CompletableFuture<Connection> connecting = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                connecting.complete(Nats.connect(options));
            } catch (Throwable e) {
                connecting.completeExceptionally(e);
            }
        }, "dyper-nats-connect");
        t.setDaemon(true);
        t.start();
        try {
            CompletableFuture.anyOf(connecting, holder.refused).get();
            if (!connecting.isDone() || connecting.isCompletedExceptionally()) {
                connecting.thenAccept(NatsFleet::closeQuietly);
                throw new IOException(holder.refused.getNow("refused"));
            }
            NatsFleet f = new NatsFleet(connecting.get(), login.url());
            holder.fleet = f;
            return f;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting to " + login.url());
        } catch (IOException | ExecutionException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            List<String> said = holder.errors.stream().filter(x -> x != null && !x.equals("null")).distinct().toList();
            String why = said.isEmpty() ? cause.getMessage() : String.join("; ", said);
            throw new IOException("cannot connect to the NATS server " + login.url() + ": " + why
                    + (why.toLowerCase(java.util.Locale.ROOT).contains("authorization")
                    ? " (wrong user, password, token or .creds?)" : ""), cause);
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public List<Member> who(Duration deadline) throws IOException {
        String inbox = connection.createInbox();
        Subscription sub = connection.subscribe(inbox);
        Map<String, Member> members = new LinkedHashMap<>();
        // the answers that came within the deadline are read then, parsed after: parsing a thousand of them as they
        // come took longer than the deadline on a busy machine and left JVMs out (benchmarks/run-fleet)
        List<byte[]> came = new ArrayList<>();
        try {
            connection.publish(WHO, inbox, "<DYPER COMMAND='WHO'/>".getBytes(StandardCharsets.UTF_8));
            long end = System.nanoTime() + deadline.toNanos();
            for (long left = deadline.toNanos(); left > 0; left = end - System.nanoTime()) {
                Message m = sub.nextMessage(Duration.ofNanos(left));
                if (m == null) {
                    break;
                }
                came.add(m.getData());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            sub.unsubscribe();
        }
        for (byte[] data : came) {
            Member member = member(new String(data, StandardCharsets.UTF_8));
            if (member != null) {
                members.putIfAbsent(member.id(), member);
            }
        }
        String refusal = refusal(WHO);
        if (refusal != null) {
            throw new IOException(refusal);
        }
        List<Member> list = new ArrayList<>(members.values());
        list.sort(Comparator.comparing(Member::host).thenComparing(Member::mainClass).thenComparingLong(Member::pid));
        return list;
    }

    /** The member a WHO reply names ({@code <DYPER_REPLY><MONITOR ID HOST PID MAIN START JAVA/>}), or null. */
    static Member member(String reply) {
        try {
            Element root = MonitorReply.parse(reply);
            Element m = root.getTagName().equals("MONITOR") ? root : Xml.child(root, "MONITOR");
            if (m == null || m.getAttribute("ID").isEmpty()) {
                return null;
            }
            return new Member(m.getAttribute("ID"), m.getAttribute("HOST"), Long.parseLong(m.getAttribute("PID")),
                    m.getAttribute("MAIN"), Long.parseLong(m.getAttribute("START")), m.getAttribute("JAVA"));
        } catch (Exception e) {
            return null;
        }
    }

    @Override
    public List<Answer> send(List<Member> members, String message, boolean control, Duration deadline) {
        byte[] data = message.getBytes(StandardCharsets.UTF_8);
        List<CompletableFuture<Message>> futures = new ArrayList<>();
        List<String> subjects = new ArrayList<>();
        long end = System.nanoTime() + deadline.toNanos();
        // at most WINDOW requests out at once: a thousand REPORTs of 150 kB answered together overran this
        // connection's pending limit on the server, which then closed it as a slow consumer (benchmarks/run-fleet)
        java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(WINDOW);
        for (Member m : members) {
            String subject = "dyper." + m.id() + (control ? ".control" : ".read");
            subjects.add(subject);
            CompletableFuture<Message> f;
            try {
                if (!window.tryAcquire(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    futures.add(new CompletableFuture<>());  // never sent: it times out below, named
                    continue;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                futures.add(CompletableFuture.failedFuture(e));
                continue;
            }
            try {
                // with the deadline (and a margin): jnats' own default request timeout is far shorter, and it
                // cancels a request past it as it cancels one nobody subscribes to (benchmarks/run-fleet, 1,000 JVMs)
                f = connection.requestWithTimeout(subject, data, deadline.plusSeconds(5));
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            f.whenComplete((reply, failure) -> window.release());
            pending.put(subject, f);
            futures.add(f);
        }
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            Member m = members.get(i);
            String subject = subjects.get(i);
            String name = name(m);
            try {
                Message reply = futures.get(i).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
                answers.add(new Answer(m, new String(reply.getData(), StandardCharsets.UTF_8), null));
            } catch (TimeoutException e) {
                futures.get(i).cancel(true);
                answers.add(new Answer(m, null, name + " did not answer on " + subject + " within "
                        + deadline.toMillis() + " ms"));
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                String refusal = refusal(subject);
                Throwable cause = e.getCause() == null ? e : e.getCause();
                // jnats cancels a request that the server says no one subscribes to (no responders)
                String why = refusal != null ? refusal : cause instanceof java.util.concurrent.CancellationException
                        && connection.getStatus() != Connection.Status.CONNECTED
                        ? "the connection to the NATS server was lost while waiting on " + subject
                        : cause instanceof java.util.concurrent.CancellationException
                        ? "no monitor answers on " + subject + " (the JVM ended, or is not connected now)"
                        : "no answer on " + subject + ": " + cause;
                answers.add(new Answer(m, null, name + ": " + why));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                answers.add(new Answer(m, null, name + ": interrupted"));
            } finally {
                pending.remove(subject);
            }
        }
        return answers;
    }

    /** A member as errors name it: its id, main class, host and pid ({@link Fleet#describe(Member)}). */
    public static String name(Member m) {
        boolean known = m.mainClass() != null && !m.mainClass().isEmpty() && !m.mainClass().equals("?");
        return "JVM " + m.id() + " (" + (known ? m.mainClass() + ", " : "") + "pid " + m.pid() + " on " + m.host()
                + ")";
    }

    @Override
    public String describe(Member m) {
        return name(m);
    }

    /** The server's refusal to let this user publish on {@code subject}, or null. */
    private String refusal(String subject) {
        synchronized (refused) {
            for (String r : refused) {
                if (r.contains("\"" + subject + "\"")) {
                    return "the NATS server refused: " + r + (subject.endsWith(".control")
                            ? " (this user has no control rights: changing a program needs a user allowed to publish"
                            + " on dyper.*.control, docs/fleet.md)" : "");
                }
            }
        }
        return null;
    }

    @Override
    public String describe() {
        return url;
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final Pattern PUBLISH_VIOLATION =
            Pattern.compile("(?i)permissions violation for publish to \"([^\"]+)\"");

    /** The server's errors: while connecting, the reason; later, refused publications end their requests. */
    private static final class Holder implements ErrorListener {
        final List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        /** Completed by the server's first error while connecting: a refused login, too many connections, ... */
        final CompletableFuture<String> refused = new CompletableFuture<>();
        volatile NatsFleet fleet;

        @Override
        public void errorOccurred(Connection conn, String error) {
            NatsFleet f = fleet;
            if (f == null) {
                errors.add(error);
                refused.complete(error);
                return;
            }
            f.refused.add(error);
            Matcher m = PUBLISH_VIOLATION.matcher(error);
            if (m.find()) {
                CompletableFuture<Message> waiting = f.pending.get(m.group(1));
                if (waiting != null) {
                    waiting.completeExceptionally(new IOException(error));
                }
            }
        }

        @Override
        public void exceptionOccurred(Connection conn, Exception exp) {
            if (fleet == null) {
                errors.add(String.valueOf(exp.getMessage()));
            }
        }
    }
}
