package org.dyper.runtime.instrument.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * What run-time patching needs to know about class files inside the target JVM, with the JDK only: a class file's
 * name, a rename of class-name prefixes in its constant pool (to place the generated aspects into a class loader's
 * package), and a comparison of two class files that ignores what the JVM changes when it hands a loaded class back
 * (constant pool order, method order, attributes other than the code).
 */
public final class ClassFiles {
    private ClassFiles() {}

    /** A class file that cannot be read. */
    public static final class BadClassFile extends Exception {
        BadClassFile(String message) {
            super(message, null, false, false);
        }
    }

    /** The constant pool of a class file and where the rest of the file starts. */
    private static final class Pool {
        final byte[] tags;
        final Object[] values;  // String for Utf8; int[] of indices for references; Long/Integer etc. for numbers
        final int end;
        /** The BootstrapMethods entries (method handle index, then argument indices), once read. */
        int[][] bootstraps = new int[0][];
        private int depth;

        Pool(byte[] tags, Object[] values, int end) {
            this.tags = tags;
            this.values = values;
            this.end = end;
        }

        String utf8(int index) {
            return index > 0 && index < values.length && values[index] instanceof String s ? s : "#" + index;
        }

        /** A readable, order-independent form of entry {@code index}. */
        String resolve(int index) {
            if (index <= 0 || index >= values.length) {
                return "#" + index;
            }
            Object v = values[index];
            if (!(v instanceof int[] refs)) {
                return tags[index] + ":" + v;
            }
            if (++depth > 64) {
                throw new IllegalStateException("constant pool entries refer to each other in a loop");
            }
            try {
                StringBuilder s = new StringBuilder().append(tags[index]).append('(');
                for (int k = 0; k < refs.length; k++) {
                    boolean first = k == 0;
                    s.append(first && tags[index] == 15 ? Integer.toString(refs[k])
                            : first && (tags[index] == 17 || tags[index] == 18) ? bootstrap(refs[k])
                            : resolve(refs[k])).append(',');
                }
                return s.append(')').toString();
            } finally {
                depth--;
            }
        }

        /**
         * Bootstrap method {@code n} by value: a JVM that merged constant pools on redefinition may hand back the
         * BootstrapMethods attribute in another order.
         */
        private String bootstrap(int n) {
            if (n < 0 || n >= bootstraps.length) {
                return "bsm#" + n;
            }
            StringBuilder s = new StringBuilder("bsm[");
            for (int ref : bootstraps[n]) {
                s.append(resolve(ref)).append(';');
            }
            return s.append(']').toString();
        }
    }

    private static Pool pool(ByteBuffer b) throws BadClassFile {
        if (b.remaining() < 10 || b.getInt(0) != 0xCAFEBABE) {
            throw new BadClassFile("not a class file (no 0xCAFEBABE magic)");
        }
        b.position(8);
        int count = b.getShort() & 0xffff;
        byte[] tags = new byte[count];
        Object[] values = new Object[count];
        for (int i = 1; i < count; i++) {
            byte tag = b.get();
            tags[i] = tag;
            switch (tag) {
                case 1 -> {
                    int length = b.getShort(b.position()) & 0xffff;
                    values[i] = modifiedUtf8(b.array(), b.position(), 2 + length);
                    b.position(b.position() + 2 + length);
                }
                case 3, 4 -> values[i] = b.getInt();
                case 5, 6 -> {
                    values[i] = b.getLong();
                    i++;
                }
                case 7, 8, 16, 19, 20 -> values[i] = new int[] {b.getShort() & 0xffff};
                case 9, 10, 11, 12, 17, 18 -> values[i] = new int[] {b.getShort() & 0xffff, b.getShort() & 0xffff};
                case 15 -> values[i] = new int[] {b.get() & 0xff, b.getShort() & 0xffff};
                default -> throw new BadClassFile("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        return new Pool(tags, values, b.position());
    }

    /** Decodes a class file's modified UTF-8 entry (its 2-byte length first), as {@link DataInputStream} does. */
    private static String modifiedUtf8(byte[] data, int offset, int length) throws BadClassFile {
        try {
            return new DataInputStream(new ByteArrayInputStream(data, offset, length)).readUTF();
        } catch (IOException e) {
            throw new BadClassFile("malformed UTF-8 in the constant pool: " + e.getMessage());
        }
    }

    /** The binary name ({@code com.acme.Foo}) of the class a class file defines. */
    public static String className(byte[] classFile) throws BadClassFile {
        try {
            ByteBuffer b = ByteBuffer.wrap(classFile);
            Pool p = pool(b);
            b.position(p.end + 2);
            int thisClass = b.getShort() & 0xffff;
            return p.utf8(((int[]) p.values[thisClass])[0]).replace('/', '.');
        } catch (RuntimeException e) {
            throw new BadClassFile("truncated or malformed class file: " + e);
        }
    }

    /**
     * The class file with every occurrence of {@code from} (an internal-name prefix such as
     * {@code org/dyper/generated/r1a2b/}) in its class names, descriptors and signatures replaced by {@code to}.
     * String constants are left alone. Constant pool indices do not change, so the rest of the file is copied as it
     * is.
     */
    public static byte[] renamePrefix(byte[] classFile, String from, String to) throws BadClassFile {
        try {
            ByteBuffer b = ByteBuffer.wrap(classFile);
            Pool p = pool(b);
            Set<Integer> strings = new HashSet<>();
            for (int i = 1; i < p.tags.length; i++) {
                if (p.tags[i] == 8) {
                    strings.add(((int[]) p.values[i])[0]);
                }
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(classFile.length + 256);
            DataOutputStream out = new DataOutputStream(bytes);
            out.write(classFile, 0, 10);
            b.position(10);
            for (int i = 1; i < p.tags.length; i++) {
                byte tag = b.get();
                int start = b.position() - 1;
                int size = switch (tag) {
                    case 1 -> 2 + (b.getShort(b.position()) & 0xffff);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> 4;
                    case 5, 6 -> 8;
                    case 15 -> 3;
                    default -> 2;
                };
                b.position(b.position() + size);
                String v = tag == 1 ? (String) p.values[i] : null;
                if (v != null && !strings.contains(i) && v.contains(from)) {
                    out.writeByte(1);
                    out.writeUTF(v.replace(from, to));
                } else {
                    out.write(classFile, start, 1 + size);
                }
                if (tag == 5 || tag == 6) {
                    i++;
                }
            }
            out.write(classFile, p.end, classFile.length - p.end);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new BadClassFile("cannot rename in the class file: " + e);
        }
    }

    /**
     * Whether two class files define the same class: the same name, superclass, interfaces, fields and methods with
     * the same access flags, and the same bytecode and exception handlers in every method (constant pool entries
     * compared by value, so a reordered pool does not count). Other attributes are not compared: a JVM hands back a
     * loaded class without some of them.
     */
    public static boolean sameClass(byte[] a, byte[] b) throws BadClassFile {
        return shape(a).equals(shape(b));
    }

    /** The parts {@link #sameClass} compares, as one string per part in a stable order. */
    static List<String> shape(byte[] classFile) throws BadClassFile {
        try {
            ByteBuffer b = ByteBuffer.wrap(classFile);
            Pool p = pool(b);
            p.bootstraps = bootstraps(b.duplicate(), p);
            List<String> parts = new ArrayList<>();
            int access = b.getShort() & 0xffff;
            parts.add("class " + (access & 0x7611) + " " + p.resolve(b.getShort() & 0xffff) + " extends "
                    + p.resolve(b.getShort() & 0xffff));
            int interfaces = b.getShort() & 0xffff;
            for (int i = 0; i < interfaces; i++) {
                parts.add("implements " + p.resolve(b.getShort() & 0xffff));
            }
            TreeMap<String, String> members = new TreeMap<>();
            for (String kind : new String[] {"field", "method"}) {
                int count = b.getShort() & 0xffff;
                for (int i = 0; i < count; i++) {
                    int flags = b.getShort() & 0xffff;
                    String key = kind + " " + p.utf8(b.getShort() & 0xffff) + p.utf8(b.getShort() & 0xffff);
                    StringBuilder body = new StringBuilder().append(flags & 0x1fff);
                    int attributes = b.getShort() & 0xffff;
                    for (int k = 0; k < attributes; k++) {
                        String name = p.utf8(b.getShort() & 0xffff);
                        int length = b.getInt();
                        int next = b.position() + length;
                        if (name.equals("Code")) {
                            code(b, p, body);
                        }
                        b.position(next);
                    }
                    members.put(key, body.toString());
                }
            }
            members.forEach((k, v) -> parts.add(k + " " + v));
            return parts;
        } catch (RuntimeException e) {
            throw new BadClassFile("truncated or malformed class file: " + e);
        }
    }

    /** The BootstrapMethods attribute's entries; {@code b} stands right after the constant pool. */
    private static int[][] bootstraps(ByteBuffer b, Pool p) {
        b.position(b.position() + 6);
        int interfaces = b.getShort() & 0xffff;
        b.position(b.position() + 2 * interfaces);
        for (int kind = 0; kind < 2; kind++) {
            int count = b.getShort() & 0xffff;
            for (int i = 0; i < count; i++) {
                b.position(b.position() + 6);
                skipAttributes(b);
            }
        }
        int attributes = b.getShort() & 0xffff;
        for (int k = 0; k < attributes; k++) {
            String name = p.utf8(b.getShort() & 0xffff);
            int length = b.getInt();
            int next = b.position() + length;
            if (name.equals("BootstrapMethods")) {
                int[][] entries = new int[b.getShort() & 0xffff][];
                for (int i = 0; i < entries.length; i++) {
                    int handle = b.getShort() & 0xffff;
                    entries[i] = new int[1 + (b.getShort() & 0xffff)];
                    entries[i][0] = handle;
                    for (int a = 1; a < entries[i].length; a++) {
                        entries[i][a] = b.getShort() & 0xffff;
                    }
                }
                return entries;
            }
            b.position(next);
        }
        return new int[0][];
    }

    private static void skipAttributes(ByteBuffer b) {
        int attributes = b.getShort() & 0xffff;
        for (int k = 0; k < attributes; k++) {
            b.position(b.position() + 2);
            int length = b.getInt();
            b.position(b.position() + length);
        }
    }

    /** Appends a Code attribute's limits, instructions (constants resolved) and exception table to {@code out}. */
    private static void code(ByteBuffer b, Pool p, StringBuilder out) {
        out.append(" stack ").append(b.getShort() & 0xffff).append(" locals ").append(b.getShort() & 0xffff);
        int length = b.getInt();
        int start = b.position();
        int pc = 0;
        while (pc < length) {
            int op = b.get(start + pc) & 0xff;
            out.append(' ').append(op);
            int size = Bytecodes.size(b, start, pc);
            int cp = Bytecodes.constantIndex(b, start, pc, op);
            if (cp > 0) {
                out.append('<').append(p.resolve(cp)).append('>');
                for (int k = 1 + (op == 0x12 ? 1 : 2); k < size; k++) {
                    out.append('.').append(b.get(start + pc + k));
                }
            } else {
                for (int k = 1; k < size; k++) {
                    out.append('.').append(b.get(start + pc + k));
                }
            }
            pc += size;
        }
        b.position(start + length);
        int handlers = b.getShort() & 0xffff;
        for (int i = 0; i < handlers; i++) {
            out.append(" catch ").append(b.getShort() & 0xffff).append('-').append(b.getShort() & 0xffff).append('>')
                    .append(b.getShort() & 0xffff).append(' ').append(p.resolve(b.getShort() & 0xffff));
        }
    }
}
