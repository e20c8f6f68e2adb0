package org.dyper.cli.heap;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A streaming reader of HPROF 1.0.1/1.0.2 heap dumps (the format HotSpot's dumpHeap writes; 4- or 8-byte ids, heap
 * dump segments) that builds a {@link HeapGraph}. It reads the file twice: first the classes, strings, roots and
 * object ids, then each object's class, size and references. Memory: the class and string tables, and
 * {@link HeapGraph#BYTES_PER_OBJECT} bytes per object and {@link HeapGraph#BYTES_PER_REFERENCE} per reference for
 * the graph and its dominators; a dump that needs more than the CLI's heap is refused before the second pass.
 */
public final class HprofReader {
    // record tags
    private static final int UTF8 = 0x01;
    private static final int LOAD_CLASS = 0x02;
    private static final int HEAP_DUMP = 0x0C;
    private static final int HEAP_DUMP_SEGMENT = 0x1C;
    // heap dump sub-record tags
    private static final int ROOT_UNKNOWN = 0xFF;
    private static final int ROOT_JNI_GLOBAL = 0x01;
    private static final int ROOT_JNI_LOCAL = 0x02;
    private static final int ROOT_JAVA_FRAME = 0x03;
    private static final int ROOT_NATIVE_STACK = 0x04;
    private static final int ROOT_STICKY_CLASS = 0x05;
    private static final int ROOT_THREAD_BLOCK = 0x06;
    private static final int ROOT_MONITOR_USED = 0x07;
    private static final int ROOT_THREAD_OBJECT = 0x08;
    private static final int CLASS_DUMP = 0x20;
    private static final int INSTANCE_DUMP = 0x21;
    private static final int OBJECT_ARRAY_DUMP = 0x22;
    private static final int PRIMITIVE_ARRAY_DUMP = 0x23;
    // basic types
    private static final int OBJECT = 2;
    private static final String[] PRIMITIVE = {null, null, null, null, "boolean", "char", "float", "double", "byte",
        "short", "int", "long"};
    private static final int[] PRIMITIVE_BYTES = {0, 0, 0, 0, 1, 2, 4, 8, 1, 2, 4, 8};

    private final HprofInput in;
    private final Layout layout;
    private final long maxBytes;
    private final Map<Long, String> strings = new HashMap<>();
    private final Map<Long, Long> classNameIds = new HashMap<>();
    private final Map<Long, ClassInfo> classes = new HashMap<>();
    private final List<ClassInfo> classList = new ArrayList<>();
    private long[] ids = new long[1 << 16];
    private int objects;
    private long[] rootIds = new long[1 << 10];
    private int rootIdCount;
    private long references;

    /** One class dump: its fields, for instance layouts and references. */
    private static final class ClassInfo {
        final long id;
        final long superId;
        final long loaderId;
        final byte[] fieldTypes;
        final long[] staticRefs;
        final int index;
        String name;
        /** Offsets of reference fields in an instance's data (this class's fields first, then its super's). */
        int[] refOffsets;
        long instanceBytes = -1;
        int dataBytes;

        ClassInfo(long id, long superId, long loaderId, byte[] fieldTypes, long[] staticRefs, int index) {
            this.id = id;
            this.superId = superId;
            this.loaderId = loaderId;
            this.fieldTypes = fieldTypes;
            this.staticRefs = staticRefs;
            this.index = index;
        }
    }

    private HprofReader(HprofInput in, Layout layout, long maxBytes) {
        this.in = in;
        this.layout = layout;
        this.maxBytes = maxBytes;
    }

    /** The heap too large for the CLI: the figure it needs and what it has. */
    public static final class TooLarge extends IOException {
        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * Reads {@code channel} (named {@code name} in messages), sizing objects by {@code layout}; refuses a dump whose
     * graph needs more than {@code maxBytes}.
     */
    static HeapGraph read(FileChannel channel, String name, Layout layout, long maxBytes) throws IOException {
        HprofReader r = new HprofReader(new HprofInput(channel, name), layout, maxBytes);
        return r.read();
    }

    private HeapGraph read() throws IOException {
        long dataStart = header();
        pass(dataStart, true);
        long[] sorted = Arrays.copyOf(ids, objects);
        ids = null;
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new IOException(in + ": object 0x" + Long.toHexString(sorted[i]) + " is dumped twice");
            }
        }
        long need = (long) objects * HeapGraph.BYTES_PER_OBJECT + references * HeapGraph.BYTES_PER_REFERENCE;
        if (need > maxBytes) {
            throw new TooLarge(in + ": " + String.format("%,d", objects) + " objects and " + String.format("%,d",
                    references) + " references need about " + (need >> 20) + " MB in the CLI ("
                    + HeapGraph.BYTES_PER_OBJECT + " bytes per object, " + HeapGraph.BYTES_PER_REFERENCE
                    + " per reference), more than its " + (maxBytes >> 20) + " MB to spare: give it more with "
                    + "DYPER_JAVA_OPTS=-Xmx" + ((need * 3 / 2 >> 30) + 1) + "g");
        }
        if (references > Integer.MAX_VALUE - 16) {
            throw new TooLarge(in + ": " + references + " references: more than this reader holds (2^31)");
        }
        names();
        int c = classList.size();
        String[] classNames = new String[c + PRIMITIVE.length];
        for (ClassInfo k : classList) {
            classNames[k.index] = k.name;
        }
        for (int t = 0; t < PRIMITIVE.length; t++) {
            classNames[c + t] = PRIMITIVE[t] == null ? "?" : PRIMITIVE[t] + "[]";
        }
        int classClass = -1;
        for (ClassInfo k : classList) {
            if (k.name.equals("java.lang.Class")) {
                classClass = k.index;
            }
        }
        if (classClass < 0) {
            classClass = c;                      // a dump without java.lang.Class: the mirrors get the unused slot 0
            classNames[c] = "java.lang.Class";
        }
        mirrorBytes = classClass < c ? instanceBytesOf(classList.get(classClass)) : layout.instance(0);
        Pass2 p2 = new Pass2(sorted, classClass, (int) references);
        this.pass2 = p2;
        pass(dataStart, false);
        for (int i = 0; i < rootIdCount; i++) {
            int j = Arrays.binarySearch(sorted, rootIds[i]);
            if (j >= 0) {
                p2.roots[j >>> 6] |= 1L << j;
            }
        }
        int rootCount = 0;
        for (long w : p2.roots) {
            rootCount += Long.bitCount(w);
        }
        return new HeapGraph(sorted, p2.cls, p2.size8, p2.outStart, p2.outCount,
                p2.edgeCount == p2.edges.length ? p2.edges : Arrays.copyOf(p2.edges, p2.edgeCount), p2.roots,
                rootCount, classNames, p2.mirrors, layout, in.idSize, in.size);
    }

    private Pass2 pass2;
    /** A java.lang.Class instance's bytes without its statics (HotSpot keeps a class's statics in it). */
    private long mirrorBytes;

    /** The arrays the second pass fills. */
    private static final class Pass2 {
        final long[] sorted;
        final int[] cls;
        final int[] size8;
        final int[] outStart;
        final int[] outCount;
        final int[] edges;
        final long[] roots;
        final int classClass;
        final Map<Integer, Integer> mirrors = new HashMap<>();
        int edgeCount;

        Pass2(long[] sorted, int classClass, int references) {
            this.sorted = sorted;
            int n = sorted.length;
            this.cls = new int[n];
            this.size8 = new int[n];
            this.outStart = new int[n];
            this.outCount = new int[n];
            this.edges = new int[references];
            this.roots = new long[(n + 63) >>> 6];
            this.classClass = classClass;
        }

        int index(long id) {
            return Arrays.binarySearch(sorted, id);
        }

        int begin(long id, int klass, long bytes) {
            int i = index(id);
            cls[i] = klass;
            size8[i] = (int) (bytes >>> 3);
            outStart[i] = edgeCount;
            return i;
        }

        void ref(long target) {
            if (target != 0) {
                int j = index(target);
                if (j >= 0) {
                    if (edgeCount == edges.length) {
                        throw new IllegalStateException("the second pass over the dump finds more references ("
                                + edgeCount + "+) than the first counted");
                    }
                    edges[edgeCount++] = j;
                }
            }
        }

        void end(int i) {
            outCount[i] = edgeCount - outStart[i];
        }
    }

    /** The header; returns where the records start. */
    private long header() throws IOException {
        StringBuilder magic = new StringBuilder();
        for (int b = in.u1(); b != 0; b = in.u1()) {
            magic.append((char) b);
            if (magic.length() > 32) {
                break;
            }
        }
        String m = magic.toString();
        if (!m.equals("JAVA PROFILE 1.0.2") && !m.equals("JAVA PROFILE 1.0.1")) {
            throw new IOException(in + ": not an HPROF heap dump (it starts with '" + m.replaceAll("[^ -~]", "?")
                    + "', not 'JAVA PROFILE 1.0.2')");
        }
        int idSize = in.s4();
        if (idSize != 4 && idSize != 8) {
            throw new IOException(in + ": identifiers of " + idSize + " bytes; HPROF has 4 or 8");
        }
        in.idSize = idSize;
        in.u8();   // the time of the dump
        return in.position();
    }

    private void pass(long start, boolean first) throws IOException {
        in.seek(start);
        while (!in.atEnd()) {
            int tag = in.u1();
            in.u4();    // microseconds since the header's time
            long length = in.u4();
            long end = in.position() + length;
            if (first && tag == UTF8) {
                long id = in.id();
                strings.put(id, new String(in.bytes((int) (length - in.idSize)), StandardCharsets.UTF_8));
            } else if (first && tag == LOAD_CLASS) {
                in.u4();
                long classId = in.id();
                in.u4();
                classNameIds.put(classId, in.id());
            } else if (tag == HEAP_DUMP || tag == HEAP_DUMP_SEGMENT) {
                while (in.position() < end) {
                    subRecord(first);
                }
                if (in.position() != end) {
                    throw new IOException(in + ": a heap dump segment's last record runs past its end (byte " + end
                            + ")");
                }
            }
            in.seek(end);
        }
    }

    private void subRecord(boolean first) throws IOException {
        long at = in.position();
        int tag = in.u1();
        int id = in.idSize;
        switch (tag) {
            case ROOT_UNKNOWN, ROOT_STICKY_CLASS, ROOT_MONITOR_USED -> root(first, in.id());
            case ROOT_JNI_GLOBAL -> {
                root(first, in.id());
                in.skip(id);
            }
            case ROOT_JNI_LOCAL, ROOT_JAVA_FRAME, ROOT_THREAD_OBJECT -> {
                root(first, in.id());
                in.skip(8);
            }
            case ROOT_NATIVE_STACK, ROOT_THREAD_BLOCK -> {
                root(first, in.id());
                in.skip(4);
            }
            case CLASS_DUMP -> classDump(first);
            case INSTANCE_DUMP -> instance(first);
            case OBJECT_ARRAY_DUMP -> objectArray(first);
            case PRIMITIVE_ARRAY_DUMP -> primitiveArray(first);
            default -> throw new IOException(in + ": unknown heap dump record 0x" + Integer.toHexString(tag)
                    + " at byte " + at);
        }
    }

    private void root(boolean first, long id) {
        if (first) {
            if (rootIdCount == rootIds.length) {
                rootIds = Arrays.copyOf(rootIds, rootIds.length * 2);
            }
            rootIds[rootIdCount++] = id;
        }
    }

    private void object(long id) {
        if (objects == ids.length) {
            ids = Arrays.copyOf(ids, ids.length + (ids.length >> 1));
        }
        ids[objects++] = id;
    }

    private void classDump(boolean first) throws IOException {
        long id = in.id();
        in.u4();
        long superId = in.id();
        long loaderId = in.id();
        in.skip(4L * in.idSize);      // signers, protection domain, two reserved
        in.u4();                      // instance size as the dump counts it (ids for references): not the JVM's
        int constants = in.u2();
        for (int i = 0; i < constants; i++) {
            in.u2();
            value(in.u1(), null);
        }
        int statics = in.u2();
        long[] refs = new long[statics];
        int refCount = 0;
        long staticBytes = 0;
        for (int i = 0; i < statics; i++) {
            in.id();
            int type = in.u1();
            long[] ref = new long[1];
            value(type, ref);
            if (type == OBJECT && ref[0] != 0) {
                refs[refCount++] = ref[0];
            }
            staticBytes += type == OBJECT ? layout.referenceBytes() : size(type);
        }
        int fields = in.u2();
        byte[] types = new byte[fields];
        for (int i = 0; i < fields; i++) {
            in.id();
            types[i] = (byte) in.u1();
        }
        if (!first) {
            ClassInfo k = classes.get(id);
            int i = pass2.begin(id, pass2.classClass, layout.align(mirrorBytes + staticBytes));
            pass2.mirrors.put(i, k.index);
            for (int r = 0; r < refCount; r++) {
                pass2.ref(refs[r]);
            }
            pass2.ref(superId);
            pass2.ref(loaderId);
            pass2.end(i);
            pass2.roots[i >>> 6] |= 1L << i;    // a loaded class stays: its statics are live
            return;
        }
        if (classes.containsKey(id)) {
            throw new IOException(in + ": class 0x" + Long.toHexString(id) + " is dumped twice");
        }
        ClassInfo k = new ClassInfo(id, superId, loaderId, types, Arrays.copyOf(refs, refCount), classList.size());
        classes.put(id, k);
        classList.add(k);
        object(id);
        references += refCount + (superId != 0 ? 1 : 0) + (loaderId != 0 ? 1 : 0);
    }

    private void instance(boolean first) throws IOException {
        long id = in.id();
        in.u4();
        long classId = in.id();
        long bytes = in.u4();
        ClassInfo k = classes.get(classId);
        if (first) {
            object(id);
            if (k != null && layoutOf(k) && k.dataBytes == bytes) {
                long data = in.position();
                for (int off : k.refOffsets) {
                    in.seek(data + off);
                    if (in.id() != 0) {
                        references++;
                    }
                }
                in.seek(data + bytes);
            } else {
                references += bytes / in.idSize;     // the class comes later: at most this many
                in.skip(bytes);
            }
            return;
        }
        if (k == null) {
            throw new IOException(in + ": object 0x" + Long.toHexString(id) + " is of class 0x"
                    + Long.toHexString(classId) + ", which the dump does not describe");
        }
        if (!layoutOf(k)) {
            throw new IOException(in + ": class " + k.name + " has a super class the dump does not describe");
        }
        if (k.dataBytes != bytes) {
            throw new IOException(in + ": object 0x" + Long.toHexString(id) + " of " + k.name + " has " + bytes
                    + " bytes of fields; its class says " + k.dataBytes);
        }
        int i = pass2.begin(id, k.index, instanceBytesOf(k));
        long data = in.position();
        for (int off : k.refOffsets) {
            in.seek(data + off);
            pass2.ref(in.id());
        }
        in.seek(data + bytes);
        pass2.end(i);
    }

    private void objectArray(boolean first) throws IOException {
        long id = in.id();
        in.u4();
        int length = in.s4();
        long classId = in.id();
        if (first) {
            object(id);
            for (int e = 0; e < length; e++) {
                if (in.id() != 0) {
                    references++;
                }
            }
            return;
        }
        ClassInfo k = classes.get(classId);
        int klass = k != null ? k.index : pass2.classClass;
        int i = pass2.begin(id, klass, layout.array(length, layout.referenceBytes()));
        for (int e = 0; e < length; e++) {
            pass2.ref(in.id());
        }
        pass2.end(i);
    }

    private void primitiveArray(boolean first) throws IOException {
        long id = in.id();
        in.u4();
        long length = in.u4();
        int type = in.u1();
        int size = size(type);
        in.skip(length * size);
        if (first) {
            object(id);
            return;
        }
        int i = pass2.begin(id, classList.size() + type, layout.array(length, size));
        pass2.end(i);
    }

    /** Reads one value of {@code type}; a reference goes to {@code ref[0]} when given. */
    private void value(int type, long[] ref) throws IOException {
        if (type == OBJECT) {
            long v = in.id();
            if (ref != null) {
                ref[0] = v;
            }
        } else {
            in.skip(size(type));
        }
    }

    private int size(int type) throws IOException {
        if (type < 4 || type >= PRIMITIVE_BYTES.length) {
            throw new IOException(in + ": unknown basic type " + type + " near byte " + in.position());
        }
        return PRIMITIVE_BYTES[type];
    }

    /**
     * Works out the reference offsets and data size of {@code k}'s instances once its super classes are known;
     * false when one is not (yet).
     */
    private boolean layoutOf(ClassInfo k) throws IOException {
        if (k.refOffsets != null) {
            return true;
        }
        int[] offs = new int[8];
        int n = 0;
        int off = 0;
        for (ClassInfo c = k; c != null; c = c.superId == 0 ? null : classes.get(c.superId)) {
            for (byte t : c.fieldTypes) {
                if (t == OBJECT) {
                    if (n == offs.length) {
                        offs = Arrays.copyOf(offs, n * 2);
                    }
                    offs[n++] = off;
                    off += in.idSize;
                } else {
                    off += size(t);
                }
            }
            if (c.superId != 0 && !classes.containsKey(c.superId)) {
                return false;
            }
        }
        k.refOffsets = Arrays.copyOf(offs, n);
        k.dataBytes = off;
        return true;
    }

    /** The shallow size of an instance of {@code k}: header and fields of its whole hierarchy, aligned. */
    private long instanceBytesOf(ClassInfo k) throws IOException {
        if (k.instanceBytes < 0) {
            long fields = 0;
            for (ClassInfo c = k; c != null; c = c.superId == 0 ? null : classes.get(c.superId)) {
                for (byte t : c.fieldTypes) {
                    fields += t == OBJECT ? layout.referenceBytes() : size(t);
                }
            }
            k.instanceBytes = layout.instance(fields);
            layoutOf(k);
        }
        return k.instanceBytes;
    }

    /** Gives every class its Java name ({@code java/lang/Object[]} from {@code [Ljava/lang/Object;}). */
    private void names() {
        for (ClassInfo k : classList) {
            Long nameId = classNameIds.get(k.id);
            String raw = nameId == null ? null : strings.get(nameId);
            k.name = raw == null ? "class@0x" + Long.toHexString(k.id) : javaName(raw);
        }
    }

    static String javaName(String raw) {
        int dims = 0;
        while (dims < raw.length() && raw.charAt(dims) == '[') {
            dims++;
        }
        String element = raw.substring(dims);
        if (dims > 0) {
            element = switch (element) {
                case "Z" -> "boolean";
                case "C" -> "char";
                case "F" -> "float";
                case "D" -> "double";
                case "B" -> "byte";
                case "S" -> "short";
                case "I" -> "int";
                case "J" -> "long";
                default -> element.startsWith("L") && element.endsWith(";")
                        ? element.substring(1, element.length() - 1) : element;
            };
        }
        return element.replace('/', '.') + "[]".repeat(dims);
    }
}
