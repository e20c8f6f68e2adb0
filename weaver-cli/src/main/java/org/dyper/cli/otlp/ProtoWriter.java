package org.dyper.cli.otlp;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The few protobuf wire types OTLP's metrics need, written by hand (proto3, the encoding of
 * protobuf.dev/programming-guides/encoding): varints, fixed64, doubles, strings, packed repeated fields and nested
 * messages. A message is built in its own writer and written into its parent with its length in front. Fields equal
 * to their proto3 default are the caller's to leave out (the methods named {@code ...IfSet} do).
 */
public final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH = 2;

    private byte[] buf = new byte[64];
    private int size;

    /** A field holding a nested message (written even when empty: an empty message is not the same as none). */
    public ProtoWriter message(int field, ProtoWriter m) {
        tag(field, LENGTH);
        varint(m.size);
        bytes(m.buf, m.size);
        return this;
    }

    public ProtoWriter string(int field, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        tag(field, LENGTH);
        varint(b.length);
        bytes(b, b.length);
        return this;
    }

    public ProtoWriter stringIfSet(int field, String s) {
        return s == null || s.isEmpty() ? this : string(field, s);
    }

    /** int64, uint64, uint32, bool and enum fields: a varint (negative int64 in ten bytes, as protobuf writes it). */
    public ProtoWriter varint(int field, long v) {
        tag(field, VARINT);
        varint(v);
        return this;
    }

    public ProtoWriter varintIfSet(int field, long v) {
        return v == 0 ? this : varint(field, v);
    }

    /** fixed64 and sfixed64 fields. */
    public ProtoWriter fixed64(int field, long v) {
        tag(field, FIXED64);
        little(v);
        return this;
    }

    /** double fields (always written: for {@code optional double} and oneof members presence matters). */
    public ProtoWriter double64(int field, double v) {
        return fixed64(field, Double.doubleToRawLongBits(v));
    }

    /** A packed {@code repeated fixed64} field (nothing when empty). */
    public ProtoWriter packedFixed64(int field, long[] values) {
        if (values.length > 0) {
            tag(field, LENGTH);
            varint(8L * values.length);
            for (long v : values) {
                little(v);
            }
        }
        return this;
    }

    /** A packed {@code repeated double} field (nothing when empty). */
    public ProtoWriter packedDouble(int field, double[] values) {
        if (values.length > 0) {
            tag(field, LENGTH);
            varint(8L * values.length);
            for (double v : values) {
                little(Double.doubleToRawLongBits(v));
            }
        }
        return this;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    private void tag(int field, int wireType) {
        varint(((long) field << 3) | wireType);
    }

    private void varint(long v) {
        room(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    private void little(long v) {
        room(8);
        for (int i = 0; i < 8; i++) {
            buf[size++] = (byte) (v >>> (8 * i));
        }
    }

    private void bytes(byte[] b, int n) {
        room(n);
        System.arraycopy(b, 0, buf, size, n);
        size += n;
    }

    private void room(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }
}
