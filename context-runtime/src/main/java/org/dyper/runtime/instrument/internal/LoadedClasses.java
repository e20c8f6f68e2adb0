package org.dyper.runtime.instrument.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.runtime.instrument.PatchRefused;

/** Looks at loaded classes: which are loaded under given names, and what their class files are now. */
final class LoadedClasses {
    private LoadedClasses() {}

    /** The loaded classes with the given binary names (one name may be loaded by several class loaders). */
    static Map<String, List<Class<?>>> byName(Instrumentation inst, Set<String> names) {
        Map<String, List<Class<?>>> found = new LinkedHashMap<>();
        if (names.isEmpty()) {
            return found;
        }
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!c.isArray() && !c.isPrimitive() && names.contains(c.getName()) && !c.isHidden()) {
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

    /**
     * The class files of {@code classes} as the JVM holds them now, taken by retransforming them with a transformer
     * that only looks. The JVM hands back a reconstituted file: compare it with {@link ClassFiles#sameClass}, not
     * byte for byte. Changes made at load time by other agents are in it.
     */
    static Map<Class<?>, byte[]> currentClassFiles(Instrumentation inst, List<Class<?>> classes) throws PatchRefused {
        Map<Class<?>, byte[]> seen = new IdentityHashMap<>();
        if (classes.isEmpty()) {
            return seen;
        }
        if (!inst.isRetransformClassesSupported()) {
            throw new PatchRefused("this JVM cannot retransform classes, so the patched classes cannot be checked "
                    + "against ORIG (start the monitor from the dyper-runtime jar, whose manifest asks for it)");
        }
        ClassFileTransformer look = new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> type, ProtectionDomain domain,
                                    byte[] bytes) {
                if (type != null) {
                    synchronized (seen) {
                        seen.put(type, bytes.clone());
                    }
                }
                return null;
            }
        };
        inst.addTransformer(look, true);
        try {
            inst.retransformClasses(classes.toArray(Class<?>[]::new));
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
            throw new PatchRefused("cannot read the loaded classes back to check them against ORIG: " + e);
        } finally {
            inst.removeTransformer(look);
        }
        synchronized (seen) {
            return new IdentityHashMap<>(seen);
        }
    }
}
