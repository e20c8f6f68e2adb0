package org.dyper.runtime.monitor;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.Xml;

/**
 * A connection to a DYPER monitor: it presents the token, then sends commands and reads replies, one frame each
 * (framing in docs/monitor.md). Not thread-safe; one request at a time.
 */
public final class MonitorClient implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final long pid;

    private MonitorClient(Socket socket, long pid) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.pid = pid;
    }

    /** Connects to the monitor of {@code entry} and authenticates; {@code push}: also receive pushed messages. */
    public static MonitorClient connect(MonitorEntry entry, boolean push) throws IOException {
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), entry.port()), 5000);
            MonitorClient c = new MonitorClient(s, entry.pid());
            String reply = c.request("<DYPER AUTH='" + Xml.esc(entry.token()) + "'" + (push ? " PUSH='true'" : "")
                    + "/>");
            if (!reply.contains(">OK<")) {
                throw new IOException("the monitor of process " + entry.pid() + " refused the connection: " + reply);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** The message for {@code command} with optional XML data (may be null). */
    public String message(String command, String data) {
        return "<DYPER PID='" + pid + "' COMMAND='" + Xml.esc(command) + "'>" + (data == null ? "" : data)
                + "</DYPER>";
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

    public void send(String xml) throws IOException {
        Frames.write(out, xml);
    }

    /** The next frame (a reply or a pushed message); throws at end of stream. */
    public String receive() throws IOException {
        String frame = Frames.read(in, Frames.MAX_REPLY, null);
        if (frame == null) {
            throw new IOException("the monitor closed the connection");
        }
        return frame;
    }

    /** Read timeout for {@link #receive()}, in milliseconds; 0 waits forever. */
    public void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
