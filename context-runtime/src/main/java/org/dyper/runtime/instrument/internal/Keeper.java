package org.dyper.runtime.instrument.internal;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import org.dyper.runtime.instrument.PatchRefused;

/**
 * Checks and patches a class that no earlier version of the set patched in one pass of the JVM: a retransformation
 * whose transformer (this, registered last) gets the class file as the JVM holds it now, compares it with ORIG and
 * hands back the patched file when it is the same. Reading the class back first and redefining it after took two such
 * passes, each about as long as the other (docs/performance.md, "INSTRUMENT").
 *
 * <p>A retransformation starts from the bytes the class was defined (or last redefined) with, so the patch lasts only
 * as long as this transformer hands it out again: it stays registered while it keeps a class, and a later
 * retransformation by another agent gets the patched file again, if the class it sees is still ORIG (otherwise the
 * patch is dropped, and the install says so). {@link #release} forgets a class before Dyper redefines it (to restore
 * it, or to put in a new version of its patch), after which the redefinition's bytes are the class's own.
 */
final class Keeper implements ClassFileTransformer {
    /** What is kept for a class: the file the patch was made for, the patched file (null: checked only), the install. */
    private record Kept(byte[] original, byte[] patched, InsertedPatchSet.Install install) {}

    /** A class to check and patch now: {@code patched} null checks it only. */
    record Entry(Class<?> type, String name, byte[] original, byte[] patched) {}

    private final Instrumentation inst;
    /**
     * Guards the maps below, in short sections that never call the JVM: a transformer may be called on any thread,
     * also while another thread's redefinition waits for this one's, so nothing here waits while holding it.
     */
    private final Object lock = new Object();
    /** Classes are compared by identity (Class does not override equals); weak, so a patched class can be unloaded. */
    private final Map<Class<?>, Kept> kept = new WeakHashMap<>();
    /** During {@link #install}: what the transformer found per class (true: ORIG), else null. */
    private Map<Class<?>, Boolean> checked;
    /** Whether this is registered; changed only by the patcher's thread (the patcher is synchronized). */
    private boolean registered;

    Keeper(Instrumentation inst) {
        this.inst = inst;
    }

    @Override
    public byte[] transform(Module module, ClassLoader loader, String name, Class<?> type, ProtectionDomain domain,
                            byte[] bytes) {
        if (type == null) {
            return null;  // a class loading: never ours
        }
        Kept k;
        synchronized (lock) {
            k = kept.get(type);
        }
        if (k == null) {
            return null;
        }
        boolean same;
        try {
            same = ClassFiles.sameClass(k.original, bytes);
        } catch (Throwable t) {
            same = false;
        }
        synchronized (lock) {
            if (checked != null && checked.containsKey(type)) {
                checked.put(type, same);
            } else if (!same) {
                // another agent redefined it, and retransforms it now: its version wins, as a redefinition would
                kept.remove(type);
                if (k.install != null && k.install.state == InsertedPatchSet.State.PATCHED) {
                    k.install.state = InsertedPatchSet.State.UNPATCHED;
                    k.install.until = System.currentTimeMillis();
                }
            }
        }
        return same ? k.patched : null;
    }

    /**
     * Checks every class against its ORIG and patches those that have a patched file, in one retransformation. When
     * one is not ORIG, the others are put back as they were and the refusal names it; nothing stays changed. Called
     * by the patcher only (one thread at a time).
     */
    void install(List<Entry> entries) throws PatchRefused {
        if (entries.isEmpty()) {
            return;
        }
        if (!inst.isRetransformClassesSupported()) {
            throw new PatchRefused("this JVM cannot retransform classes, so the patched classes cannot be checked "
                    + "against ORIG (start the monitor from the dyper-runtime jar, whose manifest asks for it)");
        }
        synchronized (lock) {
            checked = new IdentityHashMap<>();
            for (Entry e : entries) {
                kept.put(e.type(), new Kept(e.original(), e.patched(), null));
                checked.put(e.type(), null);
            }
        }
        // registered last, so that it sees the class as every other agent's transformer left it (as a check should)
        if (registered) {
            inst.removeTransformer(this);
        }
        inst.addTransformer(this, true);
        registered = true;
        Map<Class<?>, Boolean> found;
        try {
            inst.retransformClasses(entries.stream().map(Entry::type).toArray(Class<?>[]::new));
        } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
            synchronized (lock) {
                checked = null;
            }
            forget(entries);
            throw new PatchRefused("cannot check the loaded classes against ORIG and patch them: " + e
                    + " (nothing was changed)");
        }
        synchronized (lock) {
            found = checked;
            checked = null;
        }
        for (Entry e : entries) {
            Boolean same = found.get(e.type());
            if (same == null || !same) {
                undo(entries);
                throw new PatchRefused(same == null ? e.name() + ": the JVM did not hand back its class file, so it "
                        + "cannot be checked against ORIG" : e.name() + " (class loader "
                        + LoaderAspects.describe(e.type().getClassLoader()) + ") is not the class file the patch was "
                        + "made for: its code in this JVM differs from ORIG (another agent changed it, or it was "
                        + "redefined since)");
            }
        }
        List<Class<?>> checkedOnly = new ArrayList<>();
        entries.stream().filter(e -> e.patched() == null).forEach(e -> checkedOnly.add(e.type()));
        release(checkedOnly);
    }

    /** Links a kept class to its install, so that a patch another agent's redefinition took out is reported. */
    void attach(Class<?> type, InsertedPatchSet.Install install) {
        synchronized (lock) {
            Kept k = kept.get(type);
            if (k != null) {
                kept.put(type, new Kept(k.original, k.patched, install));
            }
        }
    }

    /** Takes back what {@link #install} put in: the classes run the code they had before. */
    void undo(List<Entry> entries) {
        forget(entries);
        List<Class<?>> patched = new ArrayList<>();
        entries.stream().filter(e -> e.patched() != null).forEach(e -> patched.add(e.type()));
        if (!patched.isEmpty()) {
            try {
                inst.retransformClasses(patched.toArray(Class<?>[]::new));  // from the bytes they were defined with
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                // they were retransformed a moment ago, so this does not fail; if it did, the status still says
                // the set is not in (the caller refuses it)
            }
        }
    }

    private void forget(List<Entry> entries) {
        List<Class<?>> types = new ArrayList<>();
        entries.forEach(e -> types.add(e.type()));
        release(types);
    }

    /** Dyper redefines these classes next (restore, or a new version): their bytes will be the class's own. */
    void release(Iterable<Class<?>> types) {
        boolean idle;
        synchronized (lock) {
            types.forEach(kept::remove);
            idle = kept.isEmpty();
        }
        if (idle && registered) {
            inst.removeTransformer(this);
            registered = false;
        }
    }
}
