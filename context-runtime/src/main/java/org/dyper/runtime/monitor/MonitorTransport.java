package org.dyper.runtime.monitor;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Map;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.RegistryFiles;

/**
 * The monitor's transport for another service that speaks it ({@code dyper patchd}): length-prefixed frames
 * (docs/monitor.md, "Framing") and registry entries only their owner can read. The monitor and {@link MonitorClient}
 * use the same code.
 */
public final class MonitorTransport {
    /** The largest message a server accepts: 1 MiB. */
    public static final int MAX_MESSAGE = Frames.MAX_MESSAGE;

    private MonitorTransport() {
    }

    /** A frame that breaks the framing rules; the connection cannot be resynchronised after it and must close. */
    public static final class BadFrameException extends IOException {
        BadFrameException(String message) {
            super(message, null);
        }
    }

    /**
     * Reads one frame of at most {@code max} bytes; null at a clean end of stream. {@code started} (may be null) runs
     * once the frame's first byte arrived (a server then arms its deadline for the rest).
     */
    public static String readFrame(InputStream in, int max, Runnable started) throws IOException {
        try {
            return Frames.read(in, max, started);
        } catch (Frames.FrameException e) {
            throw new BadFrameException(e.getMessage());
        }
    }

    /** Writes {@code xml} as one frame and flushes it. */
    public static void writeFrame(OutputStream out, String xml) throws IOException {
        Frames.write(out, xml);
    }

    /** Creates {@code dir} and its missing parents with rwx------ (existing folders are left as they are). */
    public static void createPrivateDirectories(Path dir) throws IOException {
        RegistryFiles.createPrivateDirectories(dir);
    }

    /** Writes {@code fields} as a registry entry with rw------- from the start, whole or not at all; returns the file. */
    public static Path writePrivateEntry(Path file, Map<String, String> fields) throws IOException {
        return RegistryFiles.writePrivate(file, fields);
    }
}
