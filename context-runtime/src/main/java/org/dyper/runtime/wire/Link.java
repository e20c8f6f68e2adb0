package org.dyper.runtime.wire;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One connection, on either side, over a socket file or a loopback TCP port: its input and output under deadlines.
 * A read waits at most until the read deadline (or, with {@link #timeout}, at most that long for the next byte), so a
 * peer that trickles one byte at a time cannot stretch a time limit the way it stretches a per-read timeout; a write
 * that the peer does not take by the write deadline closes the link. The channel is non-blocking underneath, with one
 * selector for reads and one for writes, so one thread may read while another writes.
 */
public final class Link implements Closeable {
    /** A deadline passed; the message says which limit, as a reply to the peer puts it. */
    public static final class Expired extends SocketTimeoutException {
        Expired(String why) {
            super(why);
        }
    }

    private static final long NONE = Long.MAX_VALUE;

    private final SocketChannel channel;
    private final Selector reads;
    private final Selector writes;
    private final SelectionKey readKey;
    private final SelectionKey writeKey;
    private final InputStream in = new In();
    private final OutputStream out = new Out();
    private volatile long readDeadline = NONE;
    private volatile String readWhy = "the time limit passed";
    private volatile long readTimeoutNanos;
    private volatile long writeDeadline = NONE;

    /** Takes over a connected channel (accepted or connected). */
    public Link(SocketChannel channel) throws IOException {
        this.channel = channel;
        try {
            channel.configureBlocking(false);
            if (channel.supportedOptions().contains(StandardSocketOptions.TCP_NODELAY)) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } else {
                sendBuffer(channel);
            }
            reads = Selector.open();
            writes = Selector.open();
            readKey = channel.register(reads, 0);
            writeKey = channel.register(writes, 0);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * The largest send buffer a socket file's connection asks for: as large as TCP's autotuning lets a loopback
     * connection grow (4 MiB on Linux), so a reply of many megabytes (CLASSMODEL) goes across in as few hand-overs
     * between the two processes as it did over TCP; the system caps it (net.core.wmem_max).
     */
    static final int SEND_BUFFER = 4 << 20;

    private static void sendBuffer(SocketChannel channel) {
        try {
            if (channel.supportedOptions().contains(StandardSocketOptions.SO_SNDBUF)
                    && channel.getOption(StandardSocketOptions.SO_SNDBUF) < SEND_BUFFER) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER);
            }
        } catch (IOException | RuntimeException ignored) {
            // the default buffer works, only with more hand-overs
        }
    }

    /** The channel, for what only it can tell (its local address, a peer's credentials). */
    public SocketChannel channel() {
        return channel;
    }

    /** Reads as raw as they come, under the deadlines; buffer it for frames. */
    public InputStream input() {
        return in;
    }

    /** Writes under the write deadline; unbuffered. */
    public OutputStream output() {
        return out;
    }

    /** From now on reads fail with {@code why} once {@code System.nanoTime()} passes {@code deadlineNanos}. */
    public void readBy(long deadlineNanos, String why) {
        this.readWhy = why;
        this.readDeadline = deadlineNanos;
        this.readTimeoutNanos = 0;
    }

    /** From now on each read waits at most {@code millis} for data (0: for ever), like a socket's read timeout. */
    public void timeout(long millis) {
        this.readWhy = "no reply within " + millis + " ms";
        this.readTimeoutNanos = millis * 1_000_000L;
        this.readDeadline = NONE;
    }

    /** Writes must be taken by the peer by {@code deadlineNanos}; {@link Long#MAX_VALUE}: no limit. */
    public void writeBy(long deadlineNanos) {
        this.writeDeadline = deadlineNanos;
    }

    /** Ends this side's output (the peer reads the end of the stream); reads go on. */
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException | RuntimeException ignored) {
            // closed already
        }
        for (Selector s : new Selector[] {reads, writes}) {
            try {
                s.close();
            } catch (IOException | RuntimeException ignored) {
                // closed already
            }
        }
    }

    /** Waits until the key's operation is ready or {@code deadline} passes (then throws). */
    private void await(Selector selector, SelectionKey key, int op, long deadline, String why) throws IOException {
        long left = deadline == NONE ? 0 : deadline - System.nanoTime();
        if (deadline != NONE && left <= 0) {
            throw new Expired(why);
        }
        try {
            key.interestOps(op);
            selector.selectedKeys().clear();
            selector.select(deadline == NONE ? 0 : Math.max(1, (left + 999_999) / 1_000_000));
            key.interestOps(0);
        } catch (ClosedSelectorException | java.nio.channels.CancelledKeyException e) {
            throw new ClosedChannelException();
        }
        if (!channel.isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private final class In extends InputStream {
        private final byte[] one = new byte[1];

        @Override
        public int read() throws IOException {
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            long timeout = readTimeoutNanos;
            long deadline = timeout > 0 ? System.nanoTime() + timeout : readDeadline;
            while (true) {
                int n = channel.read(buffer);
                if (n != 0) {
                    return n;
                }
                await(reads, readKey, SelectionKey.OP_READ, deadline, readWhy);
            }
        }
    }

    private final class Out extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                if (channel.write(buffer) == 0) {
                    try {
                        await(writes, writeKey, SelectionKey.OP_WRITE, writeDeadline, "the peer did not take a write");
                    } catch (Expired e) {
                        close();
                        throw e;
                    }
                }
            }
        }
    }
}
