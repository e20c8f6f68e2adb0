package org.dyper.runtime.monitor.internal.server;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.wire.AuthFrame;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.TimedInput;

/**
 * One client connection. First the token: a small frame of a fixed shape ({@link AuthFrame}) that must arrive whole
 * within {@code authtimeout} of the connection, checked before any XML is parsed. Then request and reply frames: a
 * frame must arrive whole within {@code frametimeout} of its first byte, the next one must start within
 * {@code idletimeout} of the last message either way, and a message is read only once it fits the server's budget.
 * Pushes go through a bounded queue. Every deadline is a deadline, not a per-read timeout.
 */
final class Connection {
    private static final String STOP = new String("stop");
    private static final long MS = 1_000_000;

    private final Server server;
    private final Monitor m;
    private final Socket socket;
    private final TimedInput in;
    private final Object writeLock = new Object();
    private final ArrayBlockingQueue<String> pushes = new ArrayBlockingQueue<>(16);
    private final long accepted = System.nanoTime();
    private volatile OutputStream out;
    private volatile long lastActivity = accepted;
    /** When the write under way must be done by ({@code System.nanoTime()}); 0: none under way. */
    private volatile long writeDeadline;
    private volatile boolean authenticated;

    Connection(Server server, Socket socket) throws IOException {
        this.server = server;
        this.m = server.m;
        this.socket = socket;
        this.in = new TimedInput(socket);
    }

    /** A refusal or failure that ends the connection with one error reply. */
    private static final class Farewell extends IOException {
        Farewell(String message) {
            super(message, null);
        }
    }

    void serve() {
        String farewell = null;
        try {
            converse();
        } catch (Farewell | Frames.FrameException | EOFException | TimedInput.Expired e) {
            farewell = e.getMessage();
        } catch (Throwable ignored) {
            // the client went away (possibly mid-reply): only this connection ends
        } finally {
            if (farewell != null) {
                goodbye(farewell);
            }
            try {
                socket.close();
            } catch (Throwable ignored) {
                // already closed
            }
            server.ended(this, authenticated);
            pushes.clear();
            pushes.offer(STOP);
        }
    }

    private void converse() throws IOException {
        socket.setTcpNoDelay(true);
        AuthFrame.Offer offer = readAuth();
        if (offer == null) {
            return;
        }
        if (!server.tokenMatches(offer.token())) {
            throw new Farewell("access denied: wrong token");
        }
        authenticated = true;
        server.authenticated(this);
        out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        send(Frames.Body.of(m.reply("OK")));
        if (offer.push()) {
            m.daemon("dyper-monitor-push", this::pushLoop).start();
            server.pushClients.add(this);
        }
        InputStream buffered = new BufferedInputStream(in, 8192);
        long frameNanos = m.options.frameTimeoutMillis() * MS;
        while (true) {
            int first = nextFrame(buffered);
            if (first < 0) {
                return;
            }
            in.until(System.nanoTime() + frameNanos, "incomplete message: nothing more arrived within the time limit");
            int length = Frames.length(buffered, first, Frames.MAX_MESSAGE);
            Frames.Body reply;
            if (!acquire(length)) {
                Frames.skip(buffered, length);
                reply = Frames.Body.of(m.error("busy: messages of other clients fill the monitor's budget of "
                        + Server.MESSAGE_BUDGET + " bytes; try again"));
            } else {
                try {
                    String message = new String(Frames.body(buffered, length), StandardCharsets.UTF_8);
                    lastActivity = System.nanoTime();
                    reply = m.commands.handle(message);
                } finally {
                    server.budget.release(length);
                }
            }
            send(reply);
        }
    }

    /**
     * The first frame, read byte by byte straight from the socket (nothing is buffered for a client without the
     * token), by the {@code authtimeout} deadline; null when the client left before sending anything.
     */
    private AuthFrame.Offer readAuth() throws IOException {
        long limit = m.options.authTimeoutMillis();
        in.until(accepted + limit * MS, "access denied: no token within the time limit (authtimeout " + limit + " ms)");
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
        AuthFrame.Offer offer = AuthFrame.parse(Frames.body(in, length));
        if (offer == null) {
            throw new Farewell(denied());
        }
        return offer;
    }

    private static String denied() {
        return "access denied: the first message must be <DYPER AUTH='token'/>";
    }

    /** Waits for the first byte of the next frame; pushes sent meanwhile count as activity. -1 at the end. */
    private int nextFrame(InputStream buffered) throws IOException {
        long idle = m.options.idleTimeoutMillis();
        while (true) {
            in.until(lastActivity + idle * MS, "idle for " + idle + " ms: connection closed (idletimeout)");
            try {
                return buffered.read();
            } catch (TimedInput.Expired e) {
                if (System.nanoTime() - lastActivity < idle * MS) {
                    continue;  // a push went out while we waited
                }
                throw e;
            }
        }
    }

    /** Room for a message of {@code length} bytes in the server's budget, waiting at most {@code frametimeout}. */
    private boolean acquire(int length) throws IOException {
        try {
            return server.budget.tryAcquire(length, m.options.frameTimeoutMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
    }

    private void send(Frames.Body message) throws IOException {
        synchronized (writeLock) {
            writeDeadline = (System.nanoTime() + m.options.frameTimeoutMillis() * MS) | 1;  // never 0: 0 is "none"
            try {
                Frames.write(out, message);
            } finally {
                writeDeadline = 0;
            }
            lastActivity = System.nanoTime();
        }
    }

    /** Called by the server's watchdog: a write the client has not taken by its deadline ends the connection. */
    void checkWrite(long now) {
        long deadline = writeDeadline;
        if (deadline != 0 && now - deadline > 0) {
            try {
                socket.close();
            } catch (Throwable ignored) {
                // closed already
            }
        }
    }

    /**
     * Sends one error frame, then ends the output and reads (briefly, and at most 64 KiB) what the client still
     * sends, so that closing does not reset the connection and lose the reply.
     */
    private void goodbye(String message) {
        try {
            synchronized (writeLock) {
                OutputStream o = out != null ? out : socket.getOutputStream();
                writeDeadline = (System.nanoTime() + 1000 * MS) | 1;
                Frames.write(o, m.error(message));
                writeDeadline = 0;
            }
            socket.shutdownOutput();
            in.until(System.nanoTime() + 500 * MS, "");
            byte[] sink = new byte[512];
            int left = 64 << 10;
            int n;
            while (left > 0 && (n = in.read(sink)) >= 0) {
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
            try {
                socket.close();
            } catch (IOException ignored) {
                // already closed
            }
        }
    }
}
