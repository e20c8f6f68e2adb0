package org.dyper.cli.heap;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** Big-endian reads from an HPROF file through one 1 MiB buffer, at any position (the reader makes two passes). */
final class HprofInput {
    private final FileChannel channel;
    private final String name;
    private final ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    /** The file position of {@code buf}'s first byte. */
    private long bufStart;
    final long size;
    int idSize;

    HprofInput(FileChannel channel, String name) throws IOException {
        this.channel = channel;
        this.name = name;
        this.size = channel.size();
        buf.limit(0);
    }

    long position() {
        return bufStart + buf.position();
    }

    void seek(long pos) {
        if (pos >= bufStart && pos <= bufStart + buf.limit()) {
            buf.position((int) (pos - bufStart));
        } else {
            bufStart = pos;
            buf.limit(0);
        }
    }

    boolean atEnd() {
        return position() >= size;
    }

    private void need(int n) throws IOException {
        if (buf.remaining() >= n) {
            return;
        }
        long pos = position();
        buf.compact();      // the bytes not read yet go to the front
        bufStart = pos;
        while (buf.position() < n) {
            int r = channel.read(buf, pos + buf.position());
            if (r < 0) {
                long end = pos + buf.position();
                buf.flip();
                throw new EOFException(name + ": the dump ends early, at byte " + end + " of " + size
                        + " (truncated?)");
            }
        }
        buf.flip();
    }

    int u1() throws IOException {
        need(1);
        return buf.get() & 0xff;
    }

    int u2() throws IOException {
        need(2);
        return buf.getShort() & 0xffff;
    }

    int s4() throws IOException {
        need(4);
        return buf.getInt();
    }

    long u4() throws IOException {
        return s4() & 0xffffffffL;
    }

    long u8() throws IOException {
        need(8);
        return buf.getLong();
    }

    long id() throws IOException {
        return idSize == 4 ? u4() : u8();
    }

    byte[] bytes(int n) throws IOException {
        byte[] b = new byte[n];
        int done = 0;
        while (done < n) {
            need(1);
            int k = Math.min(n - done, buf.remaining());
            buf.get(b, done, k);
            done += k;
        }
        return b;
    }

    void skip(long n) throws IOException {
        long target = position() + n;
        if (target > size) {
            throw new EOFException(name + ": the dump ends early, at byte " + size + " (a record wants byte " + target
                    + "; truncated?)");
        }
        seek(target);
    }

    @Override
    public String toString() {
        return name;
    }
}
