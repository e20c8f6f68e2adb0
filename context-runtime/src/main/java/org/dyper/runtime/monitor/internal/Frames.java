package org.dyper.runtime.monitor.internal;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The wire framing of the monitor protocol: every message is its length in bytes as ASCII decimal digits (at most
 * 10), a line feed, then that many bytes of UTF-8 XML. Nothing else travels on a connection.
 */
public final class Frames {
    /** Largest message either side accepts: 1 MiB. Replies may be larger (see {@link #MAX_REPLY}). */
    public static final int MAX_MESSAGE = 1 << 20;
    /** Largest reply a client accepts by default (a CLASSMODEL with class files can be big). */
    public static final int MAX_REPLY = 256 << 20;

    private Frames() {
    }

    /** A frame that breaks the rules; the connection cannot be resynchronised after it. */
    public static final class FrameException extends IOException {
        public FrameException(String message) {
            super(message, null);
        }
    }

    public static void write(OutputStream out, String xml) throws IOException {
        byte[] body = xml.getBytes(StandardCharsets.UTF_8);
        out.write((body.length + "\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /**
     * Reads one frame; returns null at a clean end of stream (before any byte of a frame). {@code started} (may be
     * null) runs once the first byte of a frame has arrived, so a server can put a deadline on the rest.
     */
    public static String read(InputStream in, int max, Runnable started) throws IOException {
        int c = in.read();
        if (c < 0) {
            return null;
        }
        if (started != null) {
            started.run();
        }
        long length = 0;
        int digits = 0;
        while (c != '\n') {
            if (c < 0) {
                throw new FrameException("incomplete message: the connection ended inside the length");
            }
            if (c < '0' || c > '9' || digits == 10) {
                throw new FrameException("bad frame: expected the message length in decimal digits and a line feed"
                        + " before the XML");
            }
            length = length * 10 + (c - '0');
            digits++;
            c = in.read();
        }
        if (digits == 0) {
            throw new FrameException("bad frame: empty length");
        }
        if (length > max) {
            throw new FrameException("message too large: " + length + " bytes (limit " + max + ")");
        }
        byte[] body = new byte[(int) length];
        int n = 0;
        while (n < body.length) {
            int r = in.read(body, n, body.length - n);
            if (r < 0) {
                throw new EOFException("incomplete message: " + n + " of " + length + " bytes arrived");
            }
            n += r;
        }
        return new String(body, StandardCharsets.UTF_8);
    }
}
