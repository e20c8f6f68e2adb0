package org.dyper.runtime.wire;

import java.io.EOFException;
import java.io.FilterOutputStream;
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

    /** A message body whose length is known before it is written, so it can be streamed (CLASSMODEL's class files). */
    public interface Body {
        /** The exact number of UTF-8 bytes {@link #writeTo} writes. */
        long length();

        void writeTo(OutputStream out) throws IOException;

        static Body of(String xml) {
            byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
            return new Body() {
                @Override
                public long length() {
                    return bytes.length;
                }

                @Override
                public void writeTo(OutputStream out) throws IOException {
                    out.write(bytes);
                }
            };
        }
    }

    public static void write(OutputStream out, String xml) throws IOException {
        write(out, Body.of(xml));
    }

    /**
     * Writes one frame; throws (and the connection must be closed) if the body writes another number of bytes than
     * it announced.
     */
    public static void write(OutputStream out, Body body) throws IOException {
        long length = body.length();
        out.write((length + "\n").getBytes(StandardCharsets.US_ASCII));
        long[] written = {0};
        body.writeTo(new FilterOutputStream(out) {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
                written[0]++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                written[0] += len;
            }
        });
        if (written[0] != length) {
            throw new IOException("a message of " + length + " bytes came out as " + written[0]);
        }
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
        return new String(body(in, length(in, c, max)), StandardCharsets.UTF_8);
    }

    /**
     * The length of a frame whose first byte {@code first} was read already; the line feed after it is consumed.
     * Throws when the length is malformed or above {@code max}.
     */
    public static int length(InputStream in, int first, int max) throws IOException {
        long length = 0;
        int digits = 0;
        int c = first;
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
        return (int) length;
    }

    /** Exactly {@code length} bytes; throws at an early end of stream. */
    public static byte[] body(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        int n = 0;
        while (n < length) {
            int r = in.read(body, n, length - n);
            if (r < 0) {
                throw new EOFException("incomplete message: " + n + " of " + length + " bytes arrived");
            }
            n += r;
        }
        return body;
    }

    /** Reads and drops {@code length} bytes through a small buffer. */
    public static void skip(InputStream in, int length) throws IOException {
        byte[] sink = new byte[4096];
        int n = 0;
        while (n < length) {
            int r = in.read(sink, 0, Math.min(sink.length, length - n));
            if (r < 0) {
                throw new EOFException("incomplete message: " + n + " of " + length + " bytes arrived");
            }
            n += r;
        }
    }
}
