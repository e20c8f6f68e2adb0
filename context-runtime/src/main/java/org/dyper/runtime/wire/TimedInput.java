package org.dyper.runtime.wire;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A socket's input under a deadline: each read waits at most until the deadline, so a client that trickles one byte
 * at a time cannot stretch a time limit the way it stretches a per-read timeout.
 */
public final class TimedInput extends InputStream {
    /** The deadline passed; the message says which limit, as the reply to the client puts it. */
    public static final class Expired extends SocketTimeoutException {
        Expired(String why) {
            super(why);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private long deadline;
    private String why = "the time limit passed";

    public TimedInput(Socket socket) throws IOException {
        this.socket = socket;
        this.in = socket.getInputStream();
        this.deadline = System.nanoTime();
    }

    /** From now on reads fail with {@code why} once {@code System.nanoTime()} passes {@code deadlineNanos}. */
    public void until(long deadlineNanos, String why) {
        this.deadline = deadlineNanos;
        this.why = why;
    }

    private void arm() throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new Expired(why);
        }
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000));
    }

    @Override
    public int read() throws IOException {
        arm();
        try {
            return in.read();
        } catch (SocketTimeoutException e) {
            throw new Expired(why);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        arm();
        try {
            return in.read(b, off, len);
        } catch (SocketTimeoutException e) {
            throw new Expired(why);
        }
    }
}
