package org.dyper.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.dyper.patch.model.Code;
import org.dyper.patch.model.Mode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every library mode calls a public static method that exists in dyper-runtime, exactly as its SIGNATURE says. */
class LibraryModesTest {
    private static final Map<String, Class<?>> PRIMITIVES = Map.of("int", int.class, "long", long.class,
            "void", void.class, "boolean", boolean.class);

    static Stream<Mode> modes() {
        ModeCatalog catalog = ModeCatalog.library();
        return catalog.libraryModes().stream().map(e -> catalog.mode(e.name()).orElseThrow());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("modes")
    void callsTheRuntimeApi(Mode mode) throws Exception {
        for (Code code : mode.codes()) {
            Class<?> owner = Class.forName(code.className(), false, getClass().getClassLoader());
            List<Class<?>> parameters = new ArrayList<>();
            for (String type : code.signature().parameters()) {
                parameters.add(type(type));
            }
            Method method = owner.getMethod(code.method(), parameters.toArray(Class<?>[]::new));
            assertTrue(Modifier.isStatic(method.getModifiers()), method + " is static");
            assertEquals(type(code.signature().returnType()), method.getReturnType(), method.toString());
            if (code.returnsContext()) {
                assertEquals(type(mode.contextClass()), method.getReturnType(), "context type of " + mode.name());
            }
        }
    }

    private static Class<?> type(String name) throws ClassNotFoundException {
        Class<?> primitive = PRIMITIVES.get(name);
        return primitive != null ? primitive : Class.forName(name, false, LibraryModesTest.class.getClassLoader());
    }
}
