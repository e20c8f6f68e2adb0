package org.dyper.runtime.instrument.internal;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BiConsumer;
import org.dyper.runtime.instrument.ClassPatch;

/**
 * Patches the classes of the active patch set that were not loaded when it went in, as they load. A class is
 * patched only if the bytes being loaded are exactly the ones the patch was made for. Where its class loader already
 * holds the set's aspects, the patched bytes are handed to the JVM at once; otherwise the class loads as it is and
 * {@code later} patches it right after (defining the aspects needs a loaded class of that loader, and must not
 * happen here, where the loading thread may hold the loader's lock). Lock-free: the waiting classes are an immutable
 * map, replaced as a whole.
 */
public final class PendingLoads implements ClassFileTransformer {
    /** A class waiting to load, of generation {@code generation}. */
    record Waiting(InsertedPatchSet generation, ClassPatch patch) {}

    private final LoaderAspects aspects;
    private final BiConsumer<Waiting, ClassLoader> later;
    private volatile Map<String, Waiting> waiting = Map.of();

    PendingLoads(LoaderAspects aspects, BiConsumer<Waiting, ClassLoader> later) {
        this.aspects = aspects;
        this.later = later;
    }

    /** The classes to patch when they load, by internal name; an empty map stops it. */
    void waitFor(Map<String, Waiting> byInternalName) {
        waiting = Map.copyOf(byInternalName);
    }

    boolean isWaiting() {
        return !waiting.isEmpty();
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] bytes) {
        Map<String, Waiting> now = waiting;
        if (now.isEmpty() || redefined != null || className == null) {
            return null;
        }
        Waiting w = now.get(className);
        if (w == null || !w.generation().active()) {
            return null;
        }
        // an exception thrown from here is swallowed by the JVM: catch everything and leave a note
        try {
            InsertedPatchSet g = w.generation();
            ClassPatch p = w.patch();
            long now1 = System.currentTimeMillis();
            if (loader == null) {
                g.note(p.name() + " was loaded by the bootstrap class loader, whose classes are not patched");
                return null;
            }
            if (!Arrays.equals(bytes, p.original())) {
                g.install(p.name(), loader, null, p.original(), null, now1, InsertedPatchSet.State.UNPATCHED);
                g.note(p.name() + " loaded in class loader " + LoaderAspects.describe(loader) + " with other bytes than"
                        + " the patch was made for (another agent changed it, or another class has its name): it runs"
                        + " unpatched");
                return null;
            }
            String prefix = aspects.definedPrefix(loader, g.set.id());
            if (prefix == null) {
                later.accept(w, loader);
                return null;
            }
            byte[] patched = ClassFiles.renamePrefix(p.patched(), g.set.aspectPrefix(), prefix);
            g.install(p.name(), loader, null, p.original(), patched, now1, InsertedPatchSet.State.PATCHED);
            return patched;
        } catch (Throwable t) {
            w.generation().note("patching " + className.replace('/', '.') + " as it loaded failed: " + t);
            return null;
        }
    }
}
