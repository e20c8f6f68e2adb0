package org.dyper.runtime.instrument.internal;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Looks at loaded classes: which are loaded under given names, and by which class loader. */
final class LoadedClasses {
    private LoadedClasses() {}

    /** Those of {@code loaded} with the given binary names (one name may be loaded by several class loaders). */
    static Map<String, List<Class<?>>> byName(Class<?>[] loaded, Set<String> names) {
        Map<String, List<Class<?>>> found = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        for (Class<?> c : loaded) {
            // the name first: a field read and a lookup, where isArray, isPrimitive and isHidden are each a native
            // call in the interpreter (a walk runs once per INSTRUMENT, over thousands of classes, not compiled)
            if (names.contains(c.getName()) && !c.isArray() && !c.isPrimitive() && !c.isHidden()) {
                found.computeIfAbsent(c.getName(), k -> new ArrayList<>()).add(c);
            }
        }
        return found;
    }

    /** The loaded class {@code name} of {@code loader}, or null. */
    static Class<?> find(Instrumentation inst, String name, ClassLoader loader) {
        if (loader == null) {
            return null;
        }
        for (Class<?> c : inst.getInitiatedClasses(loader)) {
            if (c.getName().equals(name) && c.getClassLoader() == loader) {
                return c;
            }
        }
        return null;
    }

    /** A class {@code loader} defined, as a home for aspects, or null when it defined none yet. */
    static Class<?> anyOf(Instrumentation inst, ClassLoader loader) {
        for (Class<?> c : inst.getInitiatedClasses(loader)) {
            if (c.getClassLoader() == loader && !c.isArray() && !c.isHidden() && !c.isPrimitive()) {
                return c;
            }
        }
        return null;
    }
}
