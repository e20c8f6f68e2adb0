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

        /** What to warn of before connecting (a .creds file other users may read), or null. */
        public String warning() {
            return creds == null ? null : org.dyper.runtime.monitor.CredsFile.exposed(creds);
        }
    }

    private final Connection connection;
    private final String url;
    /** This client's replies come on {@code inbox + n} (one subscription, {@code inbox + "*"}). */
    private final String inbox;
    private final java.util.concurrent.atomic.AtomicLong next = new java.util.concurrent.atomic.AtomicLong();
    /** The requests waiting for an answer, by reply subject. */
    private final Map<String, Request> byReply = new ConcurrentHashMap<>();
    /** ... and by subject: a permissions violation there ends them at once. */
    private final Map<String, Request> bySubject = new ConcurrentHashMap<>();
    private final List<String> refused = java.util.Collections.synchronizedList(new ArrayList<>());

    private NatsFleet(Connection connection, String url) {
        this.connection = connection;
        this.url = url;
        this.inbox = connection.createInbox() + ".";
        connection.createDispatcher(m -> {
            Request r = byReply.get(m.getSubject());
            if (r != null) {
                r.message(m);
            }
        }).subscribe(inbox + "*");
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
        Answer[] answers = new Answer[members.size()];
        send(members, message, control, deadline, (i, a) -> answers[i] = a);
        return List.of(answers);
    }

    /**
     * Sends to every member at once (at most {@link #WINDOW} waiting at a time) and gives each answer to
     * {@code each} on this thread as it comes; a member's place in the window is freed only once {@code each} has
     * taken its answer, so at most {@link #WINDOW} replies are held here whatever the number of members. A reply the
     * monitor split in parts (header {@value #PART_HEADER}) is put together again here.
     */
    @Override
    public void send(List<Member> members, String message, boolean control, Duration deadline, Each each) {
        byte[] data = message.getBytes(StandardCharsets.UTF_8);
        long end = System.nanoTime() + deadline.toNanos();
        java.util.concurrent.BlockingQueue<Request> came = new java.util.concurrent.LinkedBlockingQueue<>();
        Request[] requests = new Request[members.size()];
        boolean[] given = new boolean[members.size()];
        int sent = 0;
        int waiting = 0;
        int done = 0;
        try {
            while (done < members.size()) {
                // at most WINDOW requests out at once: a thousand REPORTs of 150 kB answered together overran this
                // connection's pending limit on the server, which then closed it as a slow consumer
                // (benchmarks/run-fleet); and the replies are folded in before more are asked for
                while (sent < members.size() && waiting < WINDOW && System.nanoTime() < end) {
                    Member m = members.get(sent);
                    Request r = new Request(sent, "dyper." + m.id() + (control ? ".control" : ".read"),
                            inbox + next.incrementAndGet(), came);
                    requests[sent++] = r;
                    waiting++;
                    byReply.put(r.replyTo, r);
                    bySubject.put(r.subject, r);
                    try {
                        connection.publish(r.subject, r.replyTo, data);
                    } catch (RuntimeException e) {
                        r.fail("cannot send on " + r.subject + ": " + e.getMessage());
                    }
                }
                long left = end - System.nanoTime();
                Request r = left <= 0 ? null : came.poll(left, TimeUnit.NANOSECONDS);
                if (r == null) {
                    break;
                }
                waiting--;
                done++;
                forget(r);
                given[r.index] = true;
                each.accept(r.index, answer(members.get(r.index), r));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = 0; i < members.size(); i++) {
            if (given[i]) {
                continue;
            }
            Member m = members.get(i);
            String subject = "dyper." + m.id() + (control ? ".control" : ".read");
            if (requests[i] != null) {
                forget(requests[i]);
            }
            String parts = requests[i] == null ? null : requests[i].partsCame();
            String why = connection.getStatus() != Connection.Status.CONNECTED
                    ? "the connection to the NATS server was lost while waiting on " + subject
                    : "did not answer on " + subject + " within " + deadline.toMillis() + " ms" + (parts == null ? ""
                    : ": " + parts + " of its reply came (a server that lets a monitor send fewer messages per "
                    + "request drops the rest: allow_responses {max: " + MAX_PARTS + "}, docs/fleet.md)");
            each.accept(i, new Answer(m, null, name(m) + (why.startsWith("did") ? " " : ": ") + why));
        }
    }

    private void forget(Request r) {
        byReply.remove(r.replyTo);
        bySubject.remove(r.subject, r);
    }

    /** One member's answer from its finished request. */
    private Answer answer(Member m, Request r) {
        if (r.reply != null) {
            return new Answer(m, new String(r.reply, StandardCharsets.UTF_8), null);
        }
        String refusal = r.refused ? refusal(r.subject) : null;
        return new Answer(m, null, name(m) + ": " + (refusal != null ? refusal : r.error));
    }

    /** The header of a reply the monitor sent in parts: {@code "i n"}, part i (from 0) of n. */
    public static final String PART_HEADER = "Dyper-Part";
    /** At most this many parts make one reply. */
    public static final int MAX_PARTS = 1024;

    /** One request waiting for its reply (or its parts), filled on jnats' dispatcher thread. */
    private static final class Request {
        final int index;
        final String subject;
        final String replyTo;
        final java.util.concurrent.BlockingQueue<Request> done;
        private byte[][] parts;
        private int got;
        private boolean finished;
        volatile byte[] reply;
        volatile String error;
        volatile boolean refused;

        Request(int index, String subject, String replyTo, java.util.concurrent.BlockingQueue<Request> done) {
            this.index = index;
            this.subject = subject;
            this.replyTo = replyTo;
            this.done = done;
        }

        synchronized void message(Message m) {
            if (finished) {
                return;
            }
            if (m.isStatusMessage()) {
                // the server says no one subscribes to the subject (no responders)
                fail(m.getStatus().getCode() == io.nats.client.support.Status.NO_RESPONDERS_CODE
                        ? "no monitor answers on " + subject + " (the JVM ended, or is not connected now)"
                        : "the NATS server answered " + m.getStatus().getMessageWithCode());
                return;
            }
            String part = m.getHeaders() == null ? null : m.getHeaders().getFirst(PART_HEADER);
            if (part == null) {
                finish(m.getData());
                return;
            }
            String[] f = part.trim().split(" ");
            int i;
            int n;
            try {
                i = Integer.parseInt(f[0]);
                n = Integer.parseInt(f[1]);
            } catch (RuntimeException e) {
                fail("a reply part with the header " + PART_HEADER + ": '" + part + "' (expected 'i n')");
                return;
            }
            if (n < 1 || n > MAX_PARTS || i < 0 || i >= n || parts != null && parts.length != n) {
                fail("a reply part " + part + " that does not fit (at most " + MAX_PARTS + " parts)");
                return;
            }
            if (parts == null) {
                parts = new byte[n][];
            }
            if (parts[i] == null) {
                parts[i] = m.getData() == null ? new byte[0] : m.getData();
                got++;
            }
            if (got == n) {
                int size = 0;
                for (byte[] p : parts) {
                    size += p.length;
                }
                byte[] whole = new byte[size];
                int at = 0;
                for (byte[] p : parts) {
                    System.arraycopy(p, 0, whole, at, p.length);
                    at += p.length;
                }
                parts = null;
                finish(whole);
            }
        }

        /** "3 of 27 parts" when some parts of a reply in parts came, else null. */
        synchronized String partsCame() {
            return parts == null || finished ? null : got + " of " + parts.length + " parts";
        }

        private void finish(byte[] data) {
            finished = true;
            reply = data == null ? new byte[0] : data;
            done.add(this);
        }

        synchronized void fail(String why) {
            if (!finished) {
                finished = true;
                error = why;
                done.add(this);
            }
        }

        synchronized void refuse(String why) {
            if (!finished) {
                refused = true;
                fail(why);
            }
        }
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
                            ? " (this user has no control rights: a command that changes the program or reads its"
                            + " class files needs a user allowed to publish on dyper.*.control, docs/fleet.md)" : "");
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
                Request waiting = f.bySubject.get(m.group(1));
                if (waiting != null) {
                    waiting.refuse(error);
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
