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

    @Test
    void notAClassFile() {
        ClassFiles.BadClassFile e = assertThrows(ClassFiles.BadClassFile.class,
                () -> ClassFiles.className(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
        assertEquals("not a class file (no 0xCAFEBABE magic)", e.getMessage());
    }
}
