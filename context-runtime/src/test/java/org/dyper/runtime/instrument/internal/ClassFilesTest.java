package org.dyper.runtime.instrument.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClassFilesTest {
    static byte[] bytes(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    /** A class referring to another by name, in a signature, a descriptor and a string constant. */
    public static final class Fixture implements Callable<String> {
        static final Helper SHARED = new Helper();

        @Override
        public String call() {
            List<Helper> list = List.of(SHARED);
            return list.get(0).name() + " " + "org/dyper/runtime/instrument/internal/ClassFilesTest$Helper";
        }
    }

    public static final class Helper {
        public String name() {
            return getClass().getName();
        }
    }

    /** Defines renamed class files in a loader of their own. */
    static final class Loader extends ClassLoader {
        Loader() {
            super(ClassFilesTest.class.getClassLoader());
        }

        Class<?> define(byte[] b) {
            return defineClass(null, b, 0, b.length);
        }
    }

    @Test
    void renamedClassesLoadAndRunAndStringsStayAsTheyWere() throws Exception {
        String from = "org/dyper/runtime/instrument/internal/ClassFilesTest$";
        String to = "org/dyper/runtime/instrument/internal/Dyper$abc$";
        byte[] fixture = ClassFiles.renamePrefix(bytes(Fixture.class), from, to);
        byte[] helper = ClassFiles.renamePrefix(bytes(Helper.class), from, to);
        assertEquals("org.dyper.runtime.instrument.internal.Dyper$abc$Fixture", ClassFiles.className(fixture));
        Loader loader = new Loader();
        loader.define(helper);
        Class<?> renamed = loader.define(fixture);
        @SuppressWarnings("unchecked")
        Callable<String> c = (Callable<String>) renamed.getConstructor().newInstance();
        assertEquals("org.dyper.runtime.instrument.internal.Dyper$abc$Helper "
                + "org/dyper/runtime/instrument/internal/ClassFilesTest$Helper", c.call());
        assertEquals("org.dyper.runtime.instrument.internal.Dyper$abc$Helper",
                renamed.getDeclaredField("SHARED").getType().getName(), "the field's descriptor");
    }

    @ParameterizedTest
    @ValueSource(classes = {String.class, java.util.HashMap.class, java.util.concurrent.ConcurrentHashMap.class,
            java.math.BigDecimal.class, java.util.regex.Pattern.class, ClassFiles.class, Bytecodes.class,
            Patcher.class})
    void everyMethodOfRealClassesIsWalkedAndAClassIsItself(Class<?> type) throws Exception {
        byte[] b = bytes(type);
        assertTrue(ClassFiles.sameClass(b, b.clone()));
        assertEquals(type.getName(), ClassFiles.className(b));
        assertFalse(ClassFiles.shape(b).isEmpty());
    }

    @Test
    void differentCodeIsNotTheSameClass() throws Exception {
        assertFalse(ClassFiles.sameClass(bytes(Fixture.class), bytes(Helper.class)));
        byte[] changed = ClassFiles.renamePrefix(bytes(Fixture.class), "org/dyper/runtime/instrument/internal/ClassFilesTest$Helper",
                "org/dyper/runtime/instrument/internal/ClassFilesTest$Other");
        assertFalse(ClassFiles.sameClass(bytes(Fixture.class), changed), "a call of another class is other code");
    }

    /** Two invokedynamic instructions with different bootstrap methods. */
    public static final class Indys {
        public static String concat(String a, int b) {
            return a + b;
        }

        public static Runnable lambda() {
            return () -> { };
        }
    }

    /**
     * A JVM that merged constant pools on a redefinition hands a class back with its BootstrapMethods in another
     * order (seen: a class patched as it loaded, then restored, then read back): the same class all the same.
     */
    @Test
    void bootstrapMethodsInAnotherOrderAreTheSameClass() throws Exception {
        byte[] b = bytes(Indys.class);
        assertTrue(ClassFiles.sameClass(b, swapBootstraps(b, true)), "entries and references swapped");
        assertFalse(ClassFiles.sameClass(b, swapBootstraps(b, false)), "entries swapped, references not");
    }

    /** Swaps BootstrapMethods entries 0 and 1 and, if {@code references}, the (Invoke)Dynamic entries' indices. */
    private static byte[] swapBootstraps(byte[] classFile, boolean references) {
        byte[] out = classFile.clone();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(out);
        b.position(8);
        int count = b.getShort() & 0xffff;
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            byte tag = b.get();
            if (tag == 1) {
                int length = b.getShort() & 0xffff;
                utf8[i] = new String(out, b.position(), length, java.nio.charset.StandardCharsets.UTF_8);
                b.position(b.position() + length);
            } else if (tag == 17 || tag == 18) {
                int bsm = b.getShort(b.position()) & 0xffff;
                if (references && bsm < 2) {
                    b.putShort(b.position(), (short) (1 - bsm));
                }
                b.position(b.position() + 4);
            } else {
                b.position(b.position() + switch (tag) {
                    case 5, 6 -> 8;
                    case 3, 4, 9, 10, 11, 12 -> 4;
                    case 15 -> 3;
                    default -> 2;
                });
                i += tag == 5 || tag == 6 ? 1 : 0;
            }
        }
        b.position(b.position() + 6);
        int interfaces = b.getShort() & 0xffff;
        b.position(b.position() + 2 * interfaces);
        for (int kind = 0; kind < 2; kind++) {
            int members = b.getShort() & 0xffff;
            for (int i = 0; i < members; i++) {
                b.position(b.position() + 6);
                int attributes = b.getShort() & 0xffff;
                for (int k = 0; k < attributes; k++) {
                    b.position(b.position() + 2);
                    int length = b.getInt();
                    b.position(b.position() + length);
                }
            }
        }
        int attributes = b.getShort() & 0xffff;
        for (int k = 0; k < attributes; k++) {
            String name = utf8[b.getShort() & 0xffff];
            int length = b.getInt();
            if (name.equals("BootstrapMethods")) {
                int start = b.position() + 2;
                int first = 4 + 2 * (b.getShort(start + 2) & 0xffff);
                int second = 4 + 2 * (b.getShort(start + first + 2) & 0xffff);
                byte[] a = java.util.Arrays.copyOfRange(classFile, start, start + first);
                byte[] c = java.util.Arrays.copyOfRange(classFile, start + first, start + first + second);
                System.arraycopy(c, 0, out, start, second);
                System.arraycopy(a, 0, out, start + second, first);
                return out;
            }
            b.position(b.position() + length);
        }
        throw new AssertionError("no BootstrapMethods attribute");
    }

    @Test
    void notAClassFile() {
        ClassFiles.BadClassFile e = assertThrows(ClassFiles.BadClassFile.class,
                () -> ClassFiles.className(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
        assertEquals("not a class file (no 0xCAFEBABE magic)", e.getMessage());
    }
}
