package org.dyper.runtime.monitor.internal.commands;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.w3c.dom.Element;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.Xml;

/**
 * The CLASSMODEL reply, streamed: with {@code BINARY='true'} it holds every loaded class's file in base64, many MB
 * for a small program, so it is never built in memory. Class files are read once to learn their sizes (so the frame's
 * length is known) and again while the reply is written, one at a time.
 */
final class ClassModel implements Frames.Body {
    private static final byte[] BINARY_OPEN = "><BINARY>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BINARY_CLOSE = "</BINARY></CLASS>".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_CLOSE = "/>".getBytes(StandardCharsets.US_ASCII);

    /** One class: {@code <CLASS NAME='...'} as bytes, the class, and its class file's size (-1: no BINARY). */
    private record Entry(byte[] open, Class<?> type, long size) {
        long length() {
            return open.length + (size < 0 ? EMPTY_CLOSE.length
                    : BINARY_OPEN.length + 4 * ((size + 2) / 3) + BINARY_CLOSE.length);
        }
    }

    private final byte[] head;
    private final List<Entry> entries;
    private final byte[] tail;
    private final long length;

    private ClassModel(byte[] head, List<Entry> entries, byte[] tail) {
        this.head = head;
        this.entries = entries;
        this.tail = tail;
        long n = head.length + tail.length;
        for (Entry e : entries) {
            n += e.length();
        }
        this.length = n;
    }

    /** The reply to CLASSMODEL with {@code data} ({@code <OPTIONS BINARY PREFIX/>} or null). */
    static Frames.Body reply(Monitor m, Element data) {
        boolean binary = false;
        String prefix = null;
        if (data != null) {
            Commands.need(data, "CLASSMODEL", "<OPTIONS BINARY PREFIX/>");
            binary = Commands.flag(data, "BINARY", false);
            prefix = Xml.attr(data, "PREFIX");
        }
        StringBuilder x = new StringBuilder(4096).append("<DYPER_REPLY ID='").append(m.pid).append("'>");
        boolean redefine = m.inst != null && m.inst.isRedefineClassesSupported();
        x.append("<CLASSMODEL CANREDEFINE='").append(redefine).append("'>");
        x.append("<CLASSPATH>").append(Xml.text(System.getProperty("java.class.path", ""))).append("</CLASSPATH>");
        x.append("<JAVAHOME>").append(Xml.text(System.getProperty("java.home", ""))).append("</JAVAHOME>");
        x.append("<BOOTPATH>").append(Xml.text(System.getProperty("jdk.boot.class.path.append",
                System.getProperty("sun.boot.class.path", "")))).append("</BOOTPATH>");
        x.append("<USER NAME='").append(Xml.esc(System.getProperty("user.name", ""))).append("'/>");
        Class<?>[] loaded = m.inst == null ? new Class<?>[0] : m.inst.getAllLoadedClasses();
        TreeMap<String, Class<?>> byName = new TreeMap<>();
        for (Class<?> c : loaded) {
            if (c.isArray() || c.isPrimitive() || c.isHidden() || c.isSynthetic() && c.getName().contains("$$Lambda")) {
                continue;
            }
            if (prefix == null || c.getName().startsWith(prefix)) {
                byName.putIfAbsent(c.getName(), c);
            }
        }
        List<Entry> entries = new ArrayList<>(byName.size());
        for (Map.Entry<String, Class<?>> e : byName.entrySet()) {
            byte[] open = ("<CLASS NAME='" + Xml.esc(e.getKey()) + "'").getBytes(StandardCharsets.UTF_8);
            entries.add(new Entry(open, e.getValue(), binary ? classFileSize(e.getValue()) : -1));
        }
        return new ClassModel(x.toString().getBytes(StandardCharsets.UTF_8), entries,
                "</CLASSMODEL></DYPER_REPLY>".getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        out.write(head);
        Base64.Encoder base64 = Base64.getEncoder();
        for (Entry e : entries) {
            out.write(e.open);
            byte[] bytes = e.size < 0 ? null : classFile(e.type, e.size);
            if (bytes == null || bytes.length != e.size) {
                // no class file, or it changed since its size was taken: no BINARY, and blanks keep the length
                out.write(EMPTY_CLOSE);
                long pad = e.length() - e.open.length - EMPTY_CLOSE.length;
                for (long i = 0; i < pad; i++) {
                    out.write(' ');
                }
                continue;
            }
            out.write(BINARY_OPEN);
            out.write(base64.encode(bytes));
            out.write(BINARY_CLOSE);
        }
        out.write(tail);
    }

    private static InputStream open(Class<?> c) {
        return c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class");
    }

    /**
     * The size of the class file as the class's loader reads it (the original, not a redefined or woven version);
     * -1 when it cannot be read.
     */
    private static long classFileSize(Class<?> c) {
        try (InputStream in = open(c)) {
            return in == null ? -1 : in.transferTo(OutputStream.nullOutputStream());
        } catch (Throwable t) {
            return -1;
        }
    }

    /** The class file, read again, or null; at most {@code expected + 1} bytes (a grown file is not the same). */
    private static byte[] classFile(Class<?> c, long expected) {
        try (InputStream in = open(c)) {
            return in == null ? null : in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, expected + 1));
        } catch (Throwable t) {
            return null;
        }
    }
}
