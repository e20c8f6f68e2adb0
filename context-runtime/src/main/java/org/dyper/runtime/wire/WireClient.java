package org.dyper.runtime.wire;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A client of a server of this transport (the monitor, {@code <DYPER>}, or the patch service, {@code <DYPATCH>}):
 * it connects to the {@link Endpoint}, presents the token in the first frame, then sends commands and reads replies,
 * one frame each. When the server's process ends, the error says so ({@link #connect}'s {@code peer}). Not
 * thread-safe; one request at a time (pushed messages are read with {@link #receive}).
 */
public final class WireClient implements Closeable {
    /** How long {@link #connect} waits for a TCP connection. */
    public static final int CONNECT_MILLIS = 5000;

    private final Link link;
    private final InputStream in;
    private final String root;
    private final long pid;
    private final String peer;
    private final String process;
    /** A frame the server sent before the connection broke under a send: the next {@link #receive}'s answer. */
    private String early;

    WireClient(Link link, String root, long pid, String service, String process) {
        this.link = link;
        this.in = new BufferedInputStream(link.input(), 8192);
        this.root = root;
        this.pid = pid;
        this.process = process;
        this.peer = "the " + service + " of " + process;
    }

    /**
     * Connects to {@code endpoint} and authenticates. {@code root} is the protocol's root element ({@code DYPER},
     * {@code DYPATCH}); {@code pid} the process the server serves; {@code service} and {@code process} name them in
     * errors ({@code "monitor"}, {@code "process 42 (com.acme.Main)"}); {@code push}: also receive pushed messages.
     */
    public static WireClient connect(Endpoint endpoint, String root, long pid, String token, boolean push,
                                     String service, String process) throws IOException {
        Link link = endpoint.connect(CONNECT_MILLIS);
        try {
            WireClient c = new WireClient(link, root, pid, service, process);
            String reply = c.request("<" + root + " AUTH='" + Xml.esc(token) + "'" + (push ? " PUSH='true'" : "")
                    + "/>");
            if (!reply.contains(">OK<")) {
                throw new IOException(c.peer + " refused the connection: " + reply);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            link.close();
            throw e;
        }
    }

    /**
     * Connects to the server registered in {@code entry} (its {@code socket} or {@code port}, and its {@code token});
     * {@code service} names it in messages ({@code "patch service"}).
     */
    public static WireClient connect(Path entry, String root, long pid, String service) throws IOException {
        if (!Files.isRegularFile(entry)) {
            throw new IOException("no " + service + " for process " + pid + " (no " + entry + ")");
        }
        Map<String, String> fields = RegistryFiles.read(entry);
        Endpoint endpoint;
        try {
            endpoint = Endpoint.of(fields);
        } catch (IllegalArgumentException e) {
            throw new IOException(entry + ": not a complete " + service + " entry");
        }
        if (fields.get("token") == null) {
            throw new IOException(entry + ": not a complete " + service + " entry");
        }
        return connect(endpoint, root, pid, fields.get("token"), false, service, "process " + pid);
    }

    /** The message for {@code command} with optional XML data (may be null). */
    public String message(String command, String data) {
        return "<" + root + " PID='" + pid + "' COMMAND='" + Xml.esc(command) + "'>" + (data == null ? "" : data)
                + "</" + root + ">";
    }

    /** Sends {@code command} with optional XML data and returns the reply. */
    public String command(String command, String data) throws IOException {
        return request(message(command, data));
    }

    /** Sends one raw message and returns the next frame. */
    public String request(String xml) throws IOException {
        send(xml);
        return receive();
    }

    /**
     * Sends one frame. When the server has already answered and closed (a refusal: too many connections, access
     * denied), the send fails with a broken pipe or a reset while that answer waits unread: it becomes the next
     * {@link #receive}'s frame, so the caller reads the server's reason, not the pipe's.
     */
    public void send(String xml) throws IOException {
        try {
            Frames.write(link.output(), xml);
        } catch (IOException e) {
            String answered = unread();
            if (answered == null) {
                throw ended(e);
            }
            early = answered;
        }
    }

    /** A frame already received on a connection whose sending side broke, or null. */
    private String unread() {
        try {
            return Frames.read(in, Frames.MAX_REPLY, null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The next frame (a reply or a pushed message); throws at the end of the stream. */
    public String receive() throws IOException {
        if (early != null) {
            String frame = early;
            early = null;
            return frame;
        }
        String frame;
        try {
            frame = Frames.read(in, Frames.MAX_REPLY, null);
        } catch (Link.Expired e) {
            throw e;
        } catch (IOException e) {
            throw ended(e);
        }
        if (frame == null) {
            throw ended(null);
        }
        return frame;
    }

    /**
     * The error for a connection that broke: when the server's process is gone, that it ended (and nothing about
     * resets); else that the server closed the connection, with the cause.
     */
    private IOException ended(IOException cause) {
        if (!alive(pid)) {
            return new Ended(process + " ended", cause);
        }
        return new IOException(peer + " closed the connection" + (cause == null ? "" : " (" + cause.getMessage()
                + ")"), cause);
    }

    /** Whether process {@code pid} still runs, waiting a moment for one that is going down to be gone. */
    private static boolean alive(long pid) {
        java.util.Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty()) {
            return false;
        }
        try {
            p.get().onExit().get(500, java.util.concurrent.TimeUnit.MILLISECONDS);
            return false;
        } catch (java.util.concurrent.TimeoutException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return p.get().isAlive();
        } catch (java.util.concurrent.ExecutionException | RuntimeException e) {
            return p.get().isAlive();
        }
    }

    /** The server's process ended while the client talked to it. */
    public static final class Ended extends IOException {
        Ended(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Read timeout for {@link #receive()}, in milliseconds: the longest wait for data; 0 waits for ever. */
    public void timeout(int millis) throws IOException {
        link.timeout(millis);
    }

    @Override
    public void close() throws IOException {
        link.close();
    }
}
