package org.dyper.patch.build;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes a jar whose unchanged entries are copied byte for byte from the input jar, compressed as they are: a woven
 * jar differs from its input in a few entries, and inflating and deflating all the others again was a third of a
 * 5-class weave of a 2,500-class jar. Only plain jars take this way ({@link #entries} returns null for anything else:
 * ZIP64, several disks, encrypted entries, a directory that does not add up), and then {@link JarOutput} copies
 * entry by entry as before. Each entry gets a local header of its own with the sizes in it (no data descriptor), and
 * the central directory is written anew with the entries' new offsets.
 */
final class RawJarCopy {
    private static final int LOCAL = 0x04034b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END = 0x06054b50;
    private static final int ZIP64_LOCATOR = 0x07064b50;

    /** One entry of the input's central directory. */
    record Entry(String name, byte[] rawName, int versionMadeBy, int versionNeeded, int flags, int method, int dosTime, long crc,
                 long compressedSize, long size, int internalAttributes, long externalAttributes, long offset) {}

    private final FileChannel in;
    private final OutputStream out;
    private final List<byte[]> central = new ArrayList<>();
    private long position;

    private RawJarCopy(FileChannel in, OutputStream out) {
        this.in = in;
        this.out = out;
    }

    /** The entries of {@code jar} in the order of its central directory, or null when it is not a plain jar. */
    static List<Entry> entries(FileChannel jar) throws IOException {
        long size = jar.size();
        int tail = (int) Math.min(size, 22 + 65_535);
        ByteBuffer end = read(jar, size - tail, tail);
        int at = -1;
        for (int i = tail - 22; i >= 0; i--) {
            if (end.getInt(i) == END) {
                at = i;
                break;
            }
        }
        if (at < 0 || at >= 20 && end.getInt(at - 20) == ZIP64_LOCATOR) {
            return null;
        }
        int disk = end.getShort(at + 4) & 0xffff;
        int count = end.getShort(at + 10) & 0xffff;
        long dirSize = end.getInt(at + 12) & 0xffffffffL;
        long dirOffset = end.getInt(at + 16) & 0xffffffffL;
        if (disk != 0 || count == 0xffff || dirSize == 0xffffffffL || dirOffset == 0xffffffffL
                || dirOffset + dirSize > size) {
            return null;
        }
        ByteBuffer dir = read(jar, dirOffset, (int) dirSize);
        List<Entry> entries = new ArrayList<>(count);
        int p = 0;
        for (int i = 0; i < count; i++) {
            if (p + 46 > dir.limit() || dir.getInt(p) != CENTRAL) {
                return null;
            }
            int flags = dir.getShort(p + 8) & 0xffff;
            long compressed = dir.getInt(p + 20) & 0xffffffffL;
            long uncompressed = dir.getInt(p + 24) & 0xffffffffL;
            int nameLength = dir.getShort(p + 28) & 0xffff;
            int extraLength = dir.getShort(p + 30) & 0xffff;
            int commentLength = dir.getShort(p + 32) & 0xffff;
            long offset = dir.getInt(p + 42) & 0xffffffffL;
            if ((flags & 1) != 0 || compressed == 0xffffffffL || uncompressed == 0xffffffffL || offset == 0xffffffffL
                    || p + 46 + nameLength > dir.limit() || offset + compressed > dirOffset) {
                return null;
            }
            byte[] rawName = new byte[nameLength];
            dir.get(p + 46, rawName);
            entries.add(new Entry(new String(rawName, StandardCharsets.UTF_8), rawName, dir.getShort(p + 4) & 0xffff,
                    dir.getShort(p + 6) & 0xffff,
                    flags & ~8, dir.getShort(p + 10) & 0xffff, dir.getInt(p + 12), dir.getInt(p + 16) & 0xffffffffL,
                    compressed, uncompressed, dir.getShort(p + 36) & 0xffff, dir.getInt(p + 38) & 0xffffffffL,
                    offset));
            p += 46 + nameLength + extraLength + commentLength;
        }
        return entries;
    }

    /** Writes the jar: {@code body} calls {@link #copy} and {@link #add} in the order the entries go. */
    static void write(Path input, OutputStream out, Body body) throws IOException {
        try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ)) {
            RawJarCopy w = new RawJarCopy(in, out);
            body.write(entries(in), w);
            w.finish();
        }
    }

    /** What goes into the jar, given the input's entries (never null here: callers check {@link #entries} first). */
    @FunctionalInterface
    interface Body {
        void write(List<Entry> entries, RawJarCopy out) throws IOException;
    }

    /** Copies {@code e} as it is in the input, compressed data and all. */
    void copy(Entry e) throws IOException {
        ByteBuffer local = read(in, e.offset(), 30);
        if (local.getInt(0) != LOCAL) {
            throw new IOException("no local header at " + e.offset() + " for " + e.name());
        }
        long data = e.offset() + 30 + (local.getShort(26) & 0xffff) + (local.getShort(28) & 0xffff);
        header(e.rawName(), e.versionMadeBy(), e.versionNeeded(), e.flags(), e.method(), e.dosTime(), e.crc(),
                e.compressedSize(), e.size(), e.internalAttributes(), e.externalAttributes());
        long done = 0;
        while (done < e.compressedSize()) {
            int n = (int) Math.min(1 << 16, e.compressedSize() - done);
            ByteBuffer chunk = read(in, data + done, n);
            out.write(chunk.array(), 0, n);
            done += n;
        }
        position += e.compressedSize();
    }

    /** Adds an entry named {@code name} holding {@code bytes} (deflated; null: a directory), dated now. */
    void add(String name, byte[] bytes) throws IOException {
        byte[] rawName = name.getBytes(StandardCharsets.UTF_8);
        int utf8 = rawName.length != name.length() ? 0x800 : 0;
        byte[] data = bytes == null ? new byte[0] : bytes;
        CRC32 crc = new CRC32();
        crc.update(data);
        byte[] compressed = data;
        int method = 0;
        if (data.length > 0) {
            Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            try {
                d.setInput(data);
                d.finish();
                java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream(data.length / 2 + 64);
                byte[] buf = new byte[8192];
                while (!d.finished()) {
                    b.write(buf, 0, d.deflate(buf));
                }
                compressed = b.toByteArray();
                method = 8;
            } finally {
                d.end();
            }
        }
        header(rawName, method == 8 ? 20 : 10, method == 8 ? 20 : 10, utf8, method, dosTime(LocalDateTime.now()), crc.getValue(),
                compressed.length, data.length, 0, 0);
        out.write(compressed);
        position += compressed.length;
    }

    private void header(byte[] name, int madeBy, int version, int flags, int method, int dosTime, long crc,
            long compressed, long size, int internal, long external) throws IOException {
        if (position > 0xfffffffeL || compressed > 0xfffffffeL || size > 0xfffffffeL || central.size() >= 0xffff) {
            throw new IOException("the woven jar needs ZIP64, which this writer does not make");
        }
        ByteBuffer l = ByteBuffer.allocate(30 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        l.putInt(LOCAL).putShort((short) version).putShort((short) flags).putShort((short) method).putInt(dosTime)
                .putInt((int) crc).putInt((int) compressed).putInt((int) size).putShort((short) name.length)
                .putShort((short) 0).put(name);
        ByteBuffer c = ByteBuffer.allocate(46 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        c.putInt(CENTRAL).putShort((short) madeBy).putShort((short) version).putShort((short) flags)
                .putShort((short) method).putInt(dosTime).putInt((int) crc).putInt((int) compressed).putInt((int) size)
                .putShort((short) name.length).putShort((short) 0).putShort((short) 0).putShort((short) 0)
                .putShort((short) internal).putInt((int) external).putInt((int) position).put(name);
        central.add(c.array());
        out.write(l.array());
        position += l.capacity();
    }

    private void finish() throws IOException {
        long start = position;
        for (byte[] c : central) {
            out.write(c);
            position += c.length;
        }
        if (position > 0xfffffffeL) {
            throw new IOException("the woven jar needs ZIP64, which this writer does not make");
        }
        ByteBuffer e = ByteBuffer.allocate(22).order(ByteOrder.LITTLE_ENDIAN);
        e.putInt(END).putShort((short) 0).putShort((short) 0).putShort((short) central.size())
                .putShort((short) central.size()).putInt((int) (position - start)).putInt((int) start)
                .putShort((short) 0);
        out.write(e.array());
        out.flush();
    }

    /** MS-DOS date and time, as zip entries hold them (2-second steps, from 1980). */
    static int dosTime(LocalDateTime t) {
        if (t.getYear() < 1980) {
            return (1 << 21) | (1 << 16);
        }
        return (t.getYear() - 1980) << 25 | t.getMonthValue() << 21 | t.getDayOfMonth() << 16 | t.getHour() << 11
                | t.getMinute() << 5 | t.getSecond() >> 1;
    }

    private static ByteBuffer read(FileChannel ch, long at, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                throw new IOException("unexpected end of the jar at " + (at + b.position()));
            }
        }
        return b.flip();
    }
}
