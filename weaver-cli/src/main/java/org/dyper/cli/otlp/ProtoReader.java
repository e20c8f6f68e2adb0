package org.dyper.cli.otlp;

import java.nio.charset.StandardCharsets;

/**
 * Reads the few fields of a receiver's answer (ExportMetricsServiceResponse's partial success): varints and
 * length-delimited fields, skipping the rest. A malformed or cut message simply ends: it is only read to pass the
 * receiver's complaint on, never trusted for anything else.
 */
final class ProtoReader {
    private final byte[] b;
    private int pos;
    private final int end;
    private int field;
    private int wireType;
    private boolean broken;

    ProtoReader(byte[] b) {
        this(b, 0, b.length);
    }

    private ProtoReader(byte[] b, int from, int end) {
        this.b = b;
        this.pos = from;
        this.end = end;
    }

    /** Moves to the next field's value; false at the end or on a malformed message. */
    boolean next() {
        if (broken || pos >= end) {
            return false;
        }
        long tag = varint();
        field = (int) (tag >>> 3);
        wireType = (int) (tag & 7);
        return !broken && field > 0;
    }

    int field() {
        return field;
    }

    boolean isVarint() {
        return wireType == 0;
    }

    boolean isLength() {
        return wireType == 2;
    }

    long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                broken = true;
                return 0;
            }
            byte x = b[pos++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
        broken = true;
        return 0;
    }

    /** The current length-delimited field as a message of its own. */
    ProtoReader message() {
        int n = length();
        ProtoReader r = new ProtoReader(b, pos, pos + n);
        pos += n;
        return r;
    }

    String string() {
        int n = length();
        String s = new String(b, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    /** Skips the current field's value. */
    void skip() {
        switch (wireType) {
            case 0 -> varint();
            case 1 -> pos = advance(8);
            case 2 -> pos += length();
            case 5 -> pos = advance(4);
            default -> broken = true;
        }
    }

    private int advance(int n) {
        if (pos + n > end) {
            broken = true;
            return end;
        }
        return pos + n;
    }

    private int length() {
        long n = varint();
        if (broken || n < 0 || n > end - pos) {
            broken = true;
            pos = end;
            return 0;
        }
        return (int) n;
    }
}
