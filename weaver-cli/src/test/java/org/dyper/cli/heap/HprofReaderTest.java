package org.dyper.cli.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HPROF reader on a dump written here byte by byte, with 4- and 8-byte ids: class dumps with a super class chain,
 * instances, an object array, a primitive array, a static reference, roots, two segments and a record it skips; the
 * real JVMs' dumps are read by HeapEndToEndTest (sample-apps) on JDK 17 and 25.
 */
class HprofReaderTest {
    @TempDir
    Path dir;

    // ids of the planted graph
    private static final long OBJECT = 0x100, CLASS = 0x110, BASE = 0x120, DERIVED = 0x130, ARRAY_CLASS = 0x140;
    private static final long D1 = 0x1000, D2 = 0x1020, ARR = 0x1040, BYTES = 0x1060, LOST = 0x1080;

    /** A writer of HPROF records with {@code idSize}-byte ids. */
    private static final class Dump {
        final int idSize;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        ByteArrayOutputStream seg;
        DataOutputStream s;

        Dump(int idSize) throws IOException {
            this.idSize = idSize;
            out.write("JAVA PROFILE 1.0.2".getBytes(StandardCharsets.US_ASCII));
            out.write(0);
            out.writeInt(idSize);
            out.writeLong(0);
        }

        void id(DataOutputStream o, long id) throws IOException {
            if (idSize == 4) {
                o.writeInt((int) id);
            } else {
                o.writeLong(id);
            }
        }

        void record(int tag, byte[] body) throws IOException {
            out.write(tag);
            out.writeInt(0);
            out.writeInt(body.length);
            out.write(body);
        }

        void utf8(long id, String text) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(b);
            id(o, id);
            o.write(text.getBytes(StandardCharsets.UTF_8));
            record(0x01, b.toByteArray());
        }

        void loadClass(long classId, long nameId) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(b);
            o.writeInt(1);
            id(o, classId);
            o.writeInt(0);
            id(o, nameId);
            record(0x02, b.toByteArray());
        }

        void begin() {
            seg = new ByteArrayOutputStream();
            s = new DataOutputStream(seg);
        }

        void end() throws IOException {
            record(0x1C, seg.toByteArray());
        }

        /** A class dump; {@code fields} as type codes, {@code staticRef} one static reference (0: none). */
        void classDump(long id, long superId, long staticRef, int... fields) throws IOException {
            s.write(0x20);
            id(s, id);
            s.writeInt(0);
            id(s, superId);
            for (int i = 0; i < 5; i++) {
                id(s, 0);    // loader, signers, protection domain, reserved
            }
            s.writeInt(0);
            s.writeShort(1);  // one constant: an int
            s.writeShort(7);
            s.write(10);
            s.writeInt(42);
            s.writeShort(staticRef == 0 ? 1 : 2);
            id(s, 0x9000);     // a static int
            s.write(10);
            s.writeInt(5);
            if (staticRef != 0) {
                id(s, 0x9001);
                s.write(2);
                id(s, staticRef);
            }
            s.writeShort(fields.length);
            for (int f : fields) {
                id(s, 0x9002);
                s.write(f);
            }
        }

        void instance(long id, long classId, byte[] data) throws IOException {
            s.write(0x21);
            id(s, id);
            s.writeInt(0);
            id(s, classId);
            s.writeInt(data.length);
            s.write(data);
        }

        /** The fields of a Derived: its own (long b, ref other), then Base's (int a, ref next). */
        byte[] derived(long other, long next) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(b);
            o.writeLong(7);
            id(o, other);
            o.writeInt(3);
            id(o, next);
            return b.toByteArray();
        }

        byte[] base(long next) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(b);
            o.writeInt(3);
            id(o, next);
            return b.toByteArray();
        }

        Path write(Path dir) throws IOException {
            Path f = dir.resolve("t" + idSize + ".hprof");
            Files.write(f, bytes.toByteArray());
            return f;
        }
    }

    /**
     * d1 (a root) refers to d2 and to an Object[] {d2, null, bytes}; Derived's static refers to bytes too; lost is
     * reached by nothing. So d1 dominates d2 and the array, and bytes (two ways from the roots) only the roots do.
     */
    private static Dump planted(int idSize) throws IOException {
        Dump d = new Dump(idSize);
        String[] names = {"java/lang/Object", "java/lang/Class", "Base", "Derived", "[Ljava/lang/Object;"};
        long[] classes = {OBJECT, CLASS, BASE, DERIVED, ARRAY_CLASS};
        for (int i = 0; i < names.length; i++) {
            d.utf8(0x500 + i, names[i]);
            d.loadClass(classes[i], 0x500 + i);
        }
        d.record(0x04, new byte[4 * idSize + 8]);   // a stack frame: skipped
        d.begin();
        d.s.write(0x05);      // sticky class
        d.id(d.s, OBJECT);
        d.s.write(0x01);      // JNI global: d1
        d.id(d.s, D1);
        d.id(d.s, 0x7777);
        d.s.write(0x03);      // a Java frame's local: null roots are ignored
        d.id(d.s, 0);
        d.s.writeInt(1);
        d.s.writeInt(2);
        d.classDump(OBJECT, 0, 0);
        d.classDump(CLASS, OBJECT, 0);
        d.classDump(BASE, OBJECT, 0, 10, 2);
        d.classDump(DERIVED, BASE, BYTES, 11, 2);
        d.classDump(ARRAY_CLASS, OBJECT, 0);
        d.end();
        d.begin();
        d.instance(D1, DERIVED, d.derived(ARR, D2));
        d.instance(D2, DERIVED, d.derived(0, 0));
        d.instance(LOST, BASE, d.base(0));
        d.s.write(0x22);
        d.id(d.s, ARR);
        d.s.writeInt(0);
        d.s.writeInt(3);
        d.id(d.s, ARRAY_CLASS);
        d.id(d.s, D2);
        d.id(d.s, 0);
        d.id(d.s, BYTES);
        d.end();
        d.begin();
        d.s.write(0x23);
        d.id(d.s, BYTES);
        d.s.writeInt(0);
        d.s.writeInt(20);
        d.s.write(8);
        d.s.write(new byte[20]);
        d.end();
        d.record(0x2C, new byte[0]);
        return d;
    }

    @ParameterizedTest(name = "{0}-byte ids")
    @ValueSource(ints = {4, 8})
    void countsSizesReferrersAndRetainedSizesOfAPlantedGraph(int idSize) throws Exception {
        HeapReport r = HeapReport.read(planted(idSize).write(dir), Layout.HOTSPOT_DEFAULT, 20);
        // Derived: 12 header + int + ref + long + ref = 32; Base: 12 + int + ref = 20 -> 24; Object[3]: 16 + 12 = 28 -> 32;
        // byte[20]: 16 + 20 = 36 -> 40; a class object: java.lang.Class's 12 -> 16, with its static int 20 -> 24, and
        // Derived's (int and ref) 24 too
        Map<String, HeapReport.ClassRow> rows = r.classes().stream()
                .collect(Collectors.toMap(HeapReport.ClassRow::name, Function.identity()));
        assertEquals(new HeapReport.ClassRow("Derived", 2, 64, List.of(new HeapReport.Referrer("Derived", 1),
                new HeapReport.Referrer("java.lang.Object[]", 1))), rows.get("Derived"));
        assertEquals(new HeapReport.ClassRow("byte[]", 1, 40, List.of(new HeapReport.Referrer("class Derived", 1),
                new HeapReport.Referrer("java.lang.Object[]", 1))), rows.get("byte[]"));
        assertEquals(new HeapReport.ClassRow("java.lang.Object[]", 1, 32, List.of(new HeapReport.Referrer("Derived",
                1))), rows.get("java.lang.Object[]"));
        assertEquals(new HeapReport.ClassRow("Base", 1, 24, List.of()), rows.get("Base"));
        assertEquals(5 * 24, rows.get("java.lang.Class").shallowBytes());
        // references: 4 super classes, Derived's static, d1's 2, the array's 2; roots: 5 class objects and d1
        assertEquals(new HeapReport.Summary(10, 9, 64 + 40 + 32 + 24 + 120, 5, 6, planted(idSize).bytes.size(),
                Layout.HOTSPOT_DEFAULT), r.summary());
        Map<String, HeapReport.Retainer> top = r.retainers().stream()
                .collect(Collectors.toMap(t -> t.className() + "@" + Long.toHexString(t.id()), Function.identity()));
        assertEquals(new HeapReport.Retainer("Derived", D1, 32, 32 + 32 + 32, "GC roots"), top.get("Derived@1000"));
        assertEquals(new HeapReport.Retainer("java.lang.Object[]", ARR, 32, 32, "Derived"), top.get("java.lang.Object[]@1040"));
        assertEquals(new HeapReport.Retainer("Derived", D2, 32, 32, "Derived"), top.get("Derived@1020"));
        assertEquals(new HeapReport.Retainer("byte[]", BYTES, 40, 40, "GC roots"), top.get("byte[]@1060"));
        assertEquals(new HeapReport.Retainer("Base", LOST, 24, 24, "GC roots"), top.get("Base@1080"),
                "an object no root reaches hangs from the virtual root");
        assertEquals(96, r.retainers().get(0).retainedBytes(), "most first");
    }

    @Test
    void sizesFollowTheGivenLayout() throws Exception {
        // 8-byte references and 16-byte headers: Derived 16 + 4 + 8 + 8 + 8 = 44 -> 48; class objects 16 + 4 -> 24,
        // Derived's 16 + 4 + 8 -> 32; Object[3] 16 + 4 -> 24 + 3 * 8 = 48
        HeapReport r = HeapReport.read(planted(8).write(dir), new Layout(8, 16, 8), 3);
        assertEquals(List.of("java.lang.Class 128", "Derived 96", "java.lang.Object[] 48"), r.classes().stream()
                .map(c -> c.name() + " " + c.shallowBytes()).toList());
        assertEquals(3, r.retainers().size(), "--top 3");
    }

    @Test
    void aTruncatedDumpIsAnErrorNamingWhereItEnds() throws Exception {
        Path full = planted(8).write(dir);
        byte[] all = Files.readAllBytes(full);
        Path cut = dir.resolve("cut.hprof");
        Files.write(cut, Arrays.copyOf(all, all.length - 19));    // the end record and half the byte[]'s bytes
        IOException e = assertThrows(IOException.class, () -> HeapReport.read(cut, Layout.HOTSPOT_DEFAULT, 5));
        assertEquals(cut + ": the dump ends early, at byte " + (all.length - 19) + " (a record wants byte "
                + (all.length - 9) + "; truncated?)", e.getMessage());
    }

    @Test
    void aFileThatIsNoDumpIsRefused() throws Exception {
        Path f = dir.resolve("x.hprof");
        Files.writeString(f, "PK\u0003\u0004 not a dump\u0000");
        IOException e = assertThrows(IOException.class, () -> HeapReport.read(f, Layout.HOTSPOT_DEFAULT, 5));
        assertEquals(f + ": not an HPROF heap dump (it starts with 'PK?? not a dump', not 'JAVA PROFILE 1.0.2')",
                e.getMessage());
    }

    @Test
    void aHeapTooLargeForTheCliIsRefusedWithTheFigureAndTheOption() throws Exception {
        Path f = planted(8).write(dir);
        try (FileChannel ch = FileChannel.open(f)) {
            IOException e = assertThrows(HprofReader.TooLarge.class, () -> HeapReport.read(ch, "the dump",
                    Layout.HOTSPOT_DEFAULT, 5, 100));
            long need = 10L * HeapGraph.BYTES_PER_OBJECT + 9L * HeapGraph.BYTES_PER_REFERENCE;
            assertEquals("the dump: 10 objects and 9 references need about 0 MB in the CLI (" + HeapGraph
                    .BYTES_PER_OBJECT + " bytes per object, 8 per reference), more than its 0 MB to spare: give it "
                    + "more with DYPER_JAVA_OPTS=-Xmx1g", e.getMessage(), "need " + need);
        }
    }

    @Test
    void namesAreJavas() {
        assertEquals("java.lang.Object[][]", HprofReader.javaName("[[Ljava/lang/Object;"));
        assertEquals("byte[]", HprofReader.javaName("[B"));
        assertEquals("a.B$C", HprofReader.javaName("a/B$C"));
    }
}
