package org.dyper.runtime.instrument;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.Xml;

/**
 * A connection to a DYPATCH service ({@code dyper patchd}), found by its registry entry {@code <dir>/<pid>.patchd}:
 * it presents the token, then sends commands (PING, MODEL, PATCH, DIRECTORY) and reads replies, one frame each. JDK
 * only, so code inside a monitored JVM (the monitor's own detailing) can ask a service for patched classes and hand
 * the PATCH reply to {@link RuntimePatcher}. Not thread-safe; one request at a time.
 */
public final class PatchServiceClient implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final long pid;

    private PatchServiceClient(Socket socket, long pid) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.pid = pid;
    }

    /** Connects to the patch service of process {@code pid} registered in {@code dir} and authenticates. */
    public static PatchServiceClient connect(Path dir, long pid) throws IOException {
        Path file = dir.resolve(pid + ".patchd");
        if (!Files.isRegularFile(file)) {
            throw new IOException("no patch service for process " + pid + " (no " + file + ")");
        }
        Map<String, String> entry = RegistryFiles.read(file);
        int port;
        try {
            port = Integer.parseInt(entry.get("port"));
        } catch (RuntimeException e) {
            throw new IOException(file + ": not a complete patch service entry");
        }
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            PatchServiceClient c = new PatchServiceClient(s, pid);
            String reply = c.request("<DYPATCH AUTH='" + Xml.esc(entry.get("token")) + "'/>");
            if (!reply.contains(">OK<")) {
                throw new IOException("the patch service of process " + pid + " refused the connection: " + reply);
            }
            return c;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** Sends {@code command} with optional XML data (may be null) and returns the reply. */
    public String command(String command, String data) throws IOException {
        return request("<DYPATCH PID='" + pid + "' COMMAND='" + Xml.esc(command) + "'>" + (data == null ? "" : data)
                + "</DYPATCH>");
    }

    /** Sends one raw message and returns the reply frame. */
    public String request(String xml) throws IOException {
        Frames.write(out, xml);
        String frame = Frames.read(in, Frames.MAX_REPLY, null);
        if (frame == null) {
            throw new IOException("the patch service closed the connection");
        }
        return frame;
    }

    /** Read timeout for replies, in milliseconds; 0 waits forever. */
    public void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
