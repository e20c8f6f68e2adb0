package org.dyper.cli.heap;

/**
 * How the dumped JVM laid its objects out, which the HPROF file does not say: the bytes of a reference and of an
 * object's header, and the alignment. The HEAPDUMP reply gives them from the JVM's flags (docs/monitor.md).
 *
 * @param referenceBytes 4 with compressed references, else 8
 * @param headerBytes 12 with compressed class pointers, 16 without, 8 with compact object headers
 * @param alignment ObjectAlignmentInBytes (8 unless set)
 */
public record Layout(int referenceBytes, int headerBytes, int alignment) {
    /** HotSpot's defaults on 64 bits for heaps under 32 GB: 4-byte references, 12-byte headers, 8-byte alignment. */
    public static final Layout HOTSPOT_DEFAULT = new Layout(4, 12, 8);

    public Layout {
        if (referenceBytes != 4 && referenceBytes != 8 || headerBytes < 8 || headerBytes > 16
                || alignment < 8 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("a layout of " + referenceBytes + "-byte references, " + headerBytes
                    + "-byte headers and " + alignment + "-byte alignment is no HotSpot layout");
        }
    }

    long align(long bytes) {
        return (bytes + alignment - 1) & -(long) alignment;
    }

    /** An instance with {@code fieldBytes} of fields (references counted at {@link #referenceBytes}). */
    long instance(long fieldBytes) {
        return align(headerBytes + fieldBytes);
    }

    /** An array of {@code length} elements of {@code elementBytes}: header, length, elements from their alignment. */
    long array(long length, int elementBytes) {
        long base = headerBytes + 4L;
        base = (base + elementBytes - 1) / elementBytes * elementBytes;
        return align(base + length * elementBytes);
    }
}
