package org.dyper.runtime.wire;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The server of this transport, shared by the monitor ({@code <DYPER>}) and the patch service ({@code <DYPATCH>}):
 * the accept loop on a socket file (or a loopback TCP port where none can be made), the connection caps (at most
 * {@code maxConnections} in all, at most half of them still waiting to show the token), the token check before any
 * XML parser sees a byte, the deadlines, a budget for the messages being handled, and pushes. What a message means is
 * the {@link Handler}'s. Replies are {@code <ROOT_REPLY ID='pid'>...</ROOT_REPLY>}.
 *
 * <p>Per connection: first the token, a small frame of a fixed shape ({@link AuthFrame}) that must arrive whole
 * within {@code authMillis} of the connection. Then request and reply frames: a frame must arrive whole within
 * {@code frameMillis} of its first byte, the next one must start within {@code idleMillis} of the last message either
 * way, and a message is read only once it fits the budget. A reply the client does not take within
 * {@code frameMillis} ends the connection. Every deadline is a deadline, not a per-read timeout.
 */
public final class WireServer implements Closeable {
    private static final String STOP = new String("stop");
    private static final long MS = 1_000_000;

    /** What the server allows; {@code idleMillis} 0: no idle limit. */
    public record Limits(int maxConnections, long authMillis, long frameMillis, long idleMillis, int messageBudget) {
        /** Two of the largest messages: one client slow to send a large message does not hold up the others. */
        public static final int DEFAULT_BUDGET = 2 * Frames.MAX_MESSAGE;
    }

    /** Answers one message (never throws: a failure is an error reply). */
    public interface Handler {
        Frames.Body handle(String message);
    }

    private final String root;
    private final String name;
    private final long pid;
    private final String token;
    private final Limits limits;
    private final Handler handler;
    private final BiFunction<String, Runnable, Thread> threads;
    private final String threadPrefix;
    private final ServerSocketChannel server;
    private final Endpoint endpoint;
    private final String fallback;
    /** The socket file's owner (this process's user), or null (TCP, or unknown). */
    private final java.nio.file.attribute.UserPrincipal owner;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Set<Session> live = ConcurrentHashMap.newKeySet();
    private final Set<Session> pushClients = ConcurrentHashMap.newKeySet();
    /** Not fair: small messages go ahead of a large one that waits for room (it waits at most frameMillis). */
    private final Semaphore budget;

    /**
     * Starts listening and accepting. {@code root}: the protocol's root element ({@code DYPER}); {@code name}: the
     * server in messages ({@code monitor}). {@code socketFile}: where to listen (null, or a path that cannot hold a
     * socket file: a loopback TCP port, and {@link #fallback()} says why); a stale file there (left by a killed
     * process of the same pid) is replaced. {@code threads} makes the server's daemon threads (named
     * {@code threadPrefix-...}), not started.
     */
    public WireServer(String root, String name, long pid, String token, Path socketFile, Limits limits, Handler handler,
                      BiFunction<String, Runnable, Thread> threads, String threadPrefix) throws IOException {
        this.root = root;
        this.name = name;
        this.pid = pid;
        this.token = token;
        this.limits = limits;
        this.handler = handler;
        this.threads = threads;
        this.threadPrefix = threadPrefix;
        this.budget = new Semaphore(limits.messageBudget());
        ServerSocketChannel s = null;
        Endpoint e = null;
        String why = socketFile == null ? "no socket file asked for" : Endpoint.socketFileProblem(socketFile);
        if (why == null) {
            try {
                Path file = socketFile.toAbsolutePath();
                Files.deleteIfExists(file);
                s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                s.bind(UnixDomainSocketAddress.of(file), 50);
                e = Endpoint.socketFile(file);
            } catch (IOException | RuntimeException | LinkageError failed) {
                why = "no socket file at " + socketFile + ": " + failed;
                if (s != null) {
                    s.close();
                }
                s = null;
            }
        }
        if (s == null) {
            s = ServerSocketChannel.open();
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
            e = Endpoint.tcp(((InetSocketAddress) s.getLocalAddress()).getPort());
        }
        this.server = s;
        this.endpoint = e;
        this.fallback = e.socket() == null ? why : null;
        java.nio.file.attribute.UserPrincipal user = null;
        if (e.socket() != null) {
            try {
                user = Files.getOwner(e.socket());
            } catch (IOException | RuntimeException unknown) {
                // the folder's permissions are the check
            }
        }
        this.owner = user;
        start("accept", this::acceptLoop);
    }

    /** Where clients connect. */
    public Endpoint endpoint() {
        return endpoint;
    }

    /** Why the server listens on a TCP port rather than a socket file; null when it has a socket file. */
    public String fallback() {
        return fallback;
    }

    /** The reply frame holding {@code body}. */
    public String reply(String body) {
        if (body == null || body.isEmpty()) {
            return "<" + root + "_REPLY ID='" + pid + "'/>";
        }
        return "<" + root + "_REPLY ID='" + pid + "'>" + body + "</" + root + "_REPLY>";
    }

    /** The error reply for {@code message}. */
    public String error(String message) {
        return reply("<ERROR>" + Xml.text(message) + "</ERROR>");
    }

    /** Sends {@code message} to every client that asked for pushes (through a bounded queue each). */
    public void push(String message) {
        for (Session c : pushClients) {
            c.push(message);
        }
    }

    /** Whether some client asked for pushes. */
    public boolean pushing() {
        return !pushClients.isEmpty();
    }

    /** Stops accepting; removes the socket file. Connections already open run on until they end. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException | RuntimeException ignored) {
            // exit goes on
        }
        if (endpoint.socket() != null) {
            try {
                Files.deleteIfExists(endpoint.socket());
            } catch (IOException | RuntimeException ignored) {
                // a stale socket file is replaced by the next server of this pid
            }
        }
    }

    private void start(String name, Runnable body) {
        threads.apply(threadPrefix + "-" + name, body).start();
    }

    private int maxWaiting() {
        return (limits.maxConnections() + 1) / 2;
    }

    private void acceptLoop() {
        int n = 0;
        while (server.isOpen()) {
            SocketChannel s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!server.isOpen()) {
                    return;
                }
                continue;
            } catch (Throwable t) {
                continue;
            }
            try {
                Link link = new Link(s);
                if (!owner(s)) {
                    refuse(link, "access denied: only the user who runs process " + pid + " may connect");
                    continue;
                }
                int max = limits.maxConnections();
                if (open.incrementAndGet() > max) {
                    open.decrementAndGet();
                    refuse(link, "too many connections (limit " + max + ")");
                    continue;
                }
                if (waiting.incrementAndGet() > maxWaiting()) {
                    waiting.decrementAndGet();
                    open.decrementAndGet();
                    refuse(link, "too many connections without a token yet (limit " + maxWaiting() + ")");
                    continue;
                }
                Session c = new Session(link);
                live.add(c);
                start("conn-" + (++n), c::serve);
            } catch (Throwable t) {
                try {
                    s.close();
                } catch (Throwable ignored) {
                    // already gone
                }
            }
        }
    }

    /**
     * Whether the peer on a socket file runs as the user who owns it (a second check after the folder's permissions,
     * which already keep other users out); true on TCP and where the system does not tell the peer's user.
     */
    private boolean owner(SocketChannel s) {
        if (owner == null) {
            return true;
        }
        try {
            return owner.equals(s.getOption(jdk.net.ExtendedSocketOptions.SO_PEERCRED).user());
        } catch (IOException | RuntimeException | LinkageError e) {
            return true;
        }
    }

    /** One short error frame (it fits the socket's send buffer; at most a second), then the end. */
    private void refuse(Link link, String why) {
        try (link) {
            link.writeBy(System.nanoTime() + 1000 * MS);
            Frames.write(link.output(), error(why));
            link.shutdownOutput();
        } catch (Throwable ignored) {
            // gone
        }
    }

    private boolean tokenMatches(String offered) {
        return offered != null && MessageDigest.isEqual(offered.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    private void ended(Session c, boolean wasAuthenticated) {
        if (live.remove(c)) {
            pushClients.remove(c);
            open.decrementAndGet();
            if (!wasAuthenticated) {
                waiting.decrementAndGet();
            }
        }
    }

    /** A refusal or failure that ends the connection with one error reply. */
    private static final class Farewell extends IOException {
        Farewell(String message) {
            super(message, null);
        }
    }

    /** One client connection. */
    private final class Session {
        private final Link link;
        private final Object writeLock = new Object();
        private final ArrayBlockingQueue<String> pushes = new ArrayBlockingQueue<>(16);
        private final long accepted = System.nanoTime();
        private volatile OutputStream out;
        private volatile long lastActivity = accepted;
        private volatile boolean authenticated;

        Session(Link link) {
            this.link = link;
        }

        void serve() {
            String farewell = null;
            try {
                converse();
            } catch (Farewell | Frames.FrameException | EOFException | Link.Expired e) {
                farewell = e.getMessage();
            } catch (Throwable ignored) {
                // the client went away (possibly mid-reply): only this connection ends
            } finally {
                if (farewell != null) {
                    goodbye(farewell);
                }
                link.close();
                ended(this, authenticated);
                pushes.clear();
                pushes.offer(STOP);
            }
        }

        private void converse() throws IOException {
            AuthFrame.Offer offer = readAuth();
            if (offer == null) {
                return;
            }
            if (!tokenMatches(offer.token())) {
                throw new Farewell("access denied: wrong token");
            }
            authenticated = true;
            waiting.decrementAndGet();
            out = new BufferedOutputStream(link.output(), 8192);
            send(Frames.Body.of(reply("OK")));
            if (offer.push()) {
                start("push", this::pushLoop);
                pushClients.add(this);
            }
            InputStream buffered = new BufferedInputStream(link.input(), 8192);
            long frameNanos = limits.frameMillis() * MS;
            while (true) {
                int first = nextFrame(buffered);
                if (first < 0) {
                    return;
                }
                link.readBy(System.nanoTime() + frameNanos, "incomplete message: nothing more arrived within the "
                        + "time limit");
                int length = Frames.length(buffered, first, Frames.MAX_MESSAGE);
                Frames.Body reply = null;
                if (!acquire(length)) {
                    Frames.skip(buffered, length);
                    reply = Frames.Body.of(error("busy: messages of other clients fill the " + name + "'s budget of "
                            + limits.messageBudget() + " bytes; try again"));
                } else {
                    try {
                        byte[] body = Frames.body(buffered, length);
                        lastActivity = System.nanoTime();
                        String message;
                        try {
                            message = Xml.message(body);
                        } catch (Xml.BadXml e) {
                            message = null;
                            reply = Frames.Body.of(error(e.getMessage()));
                        }
                        if (message != null) {
                            reply = handler.handle(message);
                        }
                    } finally {
                        budget.release(length);
                    }
                }
                send(reply);
            }
        }

        /**
         * The first frame, read byte by byte straight from the link (nothing is buffered for a client without the
         * token), by the {@code authMillis} deadline; null when the client left before sending anything.
         */
        private AuthFrame.Offer readAuth() throws IOException {
            long limit = limits.authMillis();
            link.readBy(accepted + limit * MS, "access denied: no token within the time limit (authtimeout " + limit
                    + " ms)");
            InputStream in = link.input();
            int first = in.read();
            if (first < 0) {
                return null;
            }
            int length;
            try {
                length = Frames.length(in, first, AuthFrame.MAX_BYTES);
            } catch (Frames.FrameException e) {
                if (e.getMessage().startsWith("message too large")) {
                    throw new Farewell(denied() + " of at most " + AuthFrame.MAX_BYTES + " bytes");
                }
                throw e;
            }
            AuthFrame.Offer offer = AuthFrame.parse(Frames.body(in, length), root);
            if (offer == null) {
                throw new Farewell(denied());
            }
            return offer;
        }

        private String denied() {
            return "access denied: the first message must be <" + root + " AUTH='token'/>";
        }

        /** Waits for the first byte of the next frame; pushes sent meanwhile count as activity. -1 at the end. */
        private int nextFrame(InputStream buffered) throws IOException {
            long idle = limits.idleMillis();
            if (idle <= 0) {
                link.readBy(Long.MAX_VALUE, "");
                return buffered.read();
            }
            while (true) {
                link.readBy(lastActivity + idle * MS, "idle for " + idle + " ms: connection closed (idletimeout)");
                try {
                    return buffered.read();
                } catch (Link.Expired e) {
                    if (System.nanoTime() - lastActivity < idle * MS) {
                        continue;  // a push went out while we waited
                    }
                    throw e;
                }
            }
        }

        /** Room for a message of {@code length} bytes in the budget, waiting at most {@code frameMillis}. */
        private boolean acquire(int length) throws IOException {
            try {
                return budget.tryAcquire(length, limits.frameMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }

        private void send(Frames.Body message) throws IOException {
            synchronized (writeLock) {
                link.writeBy(System.nanoTime() + limits.frameMillis() * MS);
                Frames.write(out, message);
                lastActivity = System.nanoTime();
            }
        }

        /**
         * Sends one error frame, then ends the output and reads (briefly, and at most 64 KiB) what the client still
         * sends, so that closing does not reset the connection and lose the reply.
         */
        private void goodbye(String message) {
            try {
                synchronized (writeLock) {
                    link.writeBy(System.nanoTime() + 1000 * MS);
                    OutputStream o = out != null ? out : link.output();
                    Frames.write(o, error(message));
                }
                link.shutdownOutput();
                link.readBy(System.nanoTime() + 500 * MS, "");
                byte[] sink = new byte[512];
                int left = 64 << 10;
                int n;
                while (left > 0 && (n = link.input().read(sink)) >= 0) {
                    left -= n;
                }
            } catch (Throwable ignored) {
                // gone, or still talking: close anyway
            }
        }

        void push(String message) {
            pushes.offer(message);
        }

        private void pushLoop() {
            try {
                while (true) {
                    String message = pushes.take();
                    if (message == STOP) {
                        return;
                    }
                    send(Frames.Body.of(message));
                }
            } catch (Throwable e) {
                link.close();
            }
        }
    }
}
