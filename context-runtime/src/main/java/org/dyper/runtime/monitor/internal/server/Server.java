package org.dyper.runtime.monitor.internal.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.wire.Frames;

/**
 * The monitor's loopback command server: accepts connections within the limits (at most {@code maxconnections} in
 * all, and at most half of them still waiting to show the token), bounds the memory of the messages being handled,
 * and closes connections whose writes the client does not take. Per-connection work is in {@link Connection}.
 */
public final class Server {
    /**
     * Bytes of messages (past the token) being read and handled at once, across all connections: two of the largest,
     * so one client that is slow to send a large message does not hold up the others.
     */
    static final int MESSAGE_BUDGET = 2 * Frames.MAX_MESSAGE;

    final Monitor m;
    private final String token;
    private final ServerSocket socket;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Set<Connection> live = ConcurrentHashMap.newKeySet();
    public final Set<Connection> pushClients = ConcurrentHashMap.newKeySet();
    /** Not fair: small messages go ahead of a large one that waits for room (it waits at most frametimeout). */
    final Semaphore budget = new Semaphore(MESSAGE_BUDGET);

    public Server(Monitor m, String token) throws IOException {
        this.m = m;
        this.token = token;
        socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        m.daemon("dyper-monitor-accept", this::acceptLoop).start();
        m.daemon("dyper-monitor-watchdog", this::watchdog).start();
    }

    public int port() {
        return socket.getLocalPort();
    }

    int maxWaiting() {
        return (m.options.maxConnections() + 1) / 2;
    }

    public void close() {
        try {
            socket.close();
        } catch (Throwable ignored) {
            // exit goes on
        }
    }

    private void acceptLoop() {
        int n = 0;
        while (!socket.isClosed()) {
            Socket s;
            try {
                s = socket.accept();
            } catch (IOException e) {
                if (socket.isClosed()) {
                    return;
                }
                continue;
            } catch (Throwable t) {
                continue;
            }
            try {
                int max = m.options.maxConnections();
                if (open.incrementAndGet() > max) {
                    open.decrementAndGet();
                    refuse(s, "too many connections (limit " + max + ")");
                    continue;
                }
                if (waiting.incrementAndGet() > maxWaiting()) {
                    waiting.decrementAndGet();
                    open.decrementAndGet();
                    refuse(s, "too many connections without a token yet (limit " + maxWaiting() + ")");
                    continue;
                }
                Connection c = new Connection(this, s);
                live.add(c);
                m.daemon("dyper-monitor-conn-" + (++n), c::serve).start();
            } catch (Throwable t) {
                try {
                    s.close();
                } catch (Throwable ignored) {
                    // already gone
                }
            }
        }
    }

    /** One short error frame (it fits the socket's send buffer, so this never blocks), then the end. */
    private void refuse(Socket s, String why) {
        try (s) {
            Frames.write(s.getOutputStream(), m.error(why));
            s.shutdownOutput();
        } catch (Throwable ignored) {
            // gone
        }
    }

    boolean tokenMatches(String offered) {
        return offered != null && MessageDigest.isEqual(offered.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code c} showed the token: it no longer counts against the connections waiting for theirs. */
    void authenticated(Connection c) {
        waiting.decrementAndGet();
    }

    void ended(Connection c, boolean wasAuthenticated) {
        if (live.remove(c)) {
            pushClients.remove(c);
            open.decrementAndGet();
            if (!wasAuthenticated) {
                waiting.decrementAndGet();
            }
        }
    }

    public void push(String message) {
        for (Connection c : pushClients) {
            c.push(message);
        }
    }

    /**
     * Once a second: closes connections stuck in a write past its deadline (a client that does not read), and ends
     * the program when the process that launched it ({@code launcher} option: {@code dyper run}) is gone, which
     * only a SIGKILL of the launcher leaves behind (it passes every other signal on, see docs/monitor.md).
     */
    private void watchdog() {
        long launcherPid = m.options.launcherPid();
        // the handle knows the process's start time, so a reused pid does not pass for the launcher
        ProcessHandle launcher = launcherPid > 0 ? ProcessHandle.of(launcherPid).orElse(null) : null;
        while (!socket.isClosed()) {
            try {
                Thread.sleep(1000);
                long now = System.nanoTime();
                for (Connection c : live) {
                    c.checkWrite(now);
                }
                if (launcherPid > 0 && (launcher == null || !launcher.isAlive())) {
                    System.err.println("dyper: the launcher of this program (process " + launcherPid + ") is gone: "
                            + "ending the program as SIGTERM would");
                    System.exit(143);
                }
            } catch (InterruptedException e) {
                return;
            } catch (Throwable ignored) {
                // next round
            }
        }
    }
}
