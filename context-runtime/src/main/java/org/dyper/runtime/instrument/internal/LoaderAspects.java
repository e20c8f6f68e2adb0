package org.dyper.runtime.instrument.internal;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.runtime.instrument.PatchRefused;
import org.dyper.runtime.instrument.PatchSet;

/**
 * The generated aspect classes of each patch set, defined once per class loader, in the package of a class that
 * loader already defined (a "home" class), so that every class of that loader reaches them by name and they resolve
 * the patched classes' types through the same loader. A copy is named {@code <home package>/Dyper$<id>$<name>}; it is
 * public, like the aspect it copies. Lookups are lock-free so that a class-file transformer (which may run while its
 * thread holds a class loader's lock) can ask for a loader's copy without ever waiting for a thread that defines one.
 */
public final class LoaderAspects {
    /** A class loader (held weakly: patching never keeps a loader alive) and its patch set ids → prefixes. */
    private record Defined(WeakReference<ClassLoader> loader, Map<String, String> prefixes) {}

    /** Replaced as a whole under this object's lock; read without it. */
    private volatile List<Defined> defined = List.of();
    private final Instrumentation inst;

    public LoaderAspects(Instrumentation inst) {
        this.inst = inst;
    }

    /** The prefix the aspects of set {@code id} have in {@code loader}, or null when they are not defined there. */
    public String definedPrefix(ClassLoader loader, String id) {
        for (Defined d : defined) {
            if (d.loader().get() == loader) {
                return d.prefixes().get(id);
            }
        }
        return null;
    }

    /**
     * The prefix of {@code set}'s aspects in {@code home}'s loader, defining them first (beside {@code home}) when
     * they are not there yet, and initialising them, so the first patched call never finds them unready.
     */
    public synchronized String prefixFor(Class<?> home, PatchSet set) throws PatchRefused {
        ClassLoader loader = home.getClassLoader();
        String known = definedPrefix(loader, set.id());
        if (known != null) {
            return known;
        }
        String pkg = home.getPackageName().replace('.', '/');
        String prefix = (pkg.isEmpty() ? "" : pkg + "/") + "Dyper$" + set.id() + "$";
        MethodHandles.Lookup lookup;
        try {
            openTo(home);
            lookup = MethodHandles.privateLookupIn(home, MethodHandles.lookup());
        } catch (IllegalAccessException | RuntimeException e) {
            throw new PatchRefused("cannot place the generated aspects beside " + home.getName() + " (class loader "
                    + describe(loader) + "): " + e.getMessage());
        }
        // all defined first (they name each other), then the aspects and the site table initialised
        List<Class<?>> made = new ArrayList<>();
        for (Map.Entry<String, byte[]> a : set.aspects().entrySet()) {
            String name = prefix + a.getKey().substring(set.aspectPrefix().length());
            try {
                made.add(lookup.defineClass(ClassFiles.renamePrefix(a.getValue(), set.aspectPrefix(), prefix)));
            } catch (ClassFiles.BadClassFile | ReflectiveOperationException | LinkageError | RuntimeException e) {
                throw new PatchRefused("cannot define the generated class " + name.replace('/', '.')
                        + " in class loader " + describe(loader) + ": " + e);
            }
        }
        for (Class<?> c : made) {
            try {
                initialise(c);
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                throw new PatchRefused("cannot initialise the generated class " + c.getName() + " in class loader "
                        + describe(loader) + ": " + e);
            }
        }
        List<Defined> next = new ArrayList<>();
        Map<String, String> mine = new HashMap<>(Map.of(set.id(), prefix));
        for (Defined d : defined) {
            ClassLoader l = d.loader().get();
            if (l == loader) {
                mine.putAll(d.prefixes());
            } else if (l != null) {
                next.add(d);  // loaders that were collected drop out
            }
        }
        next.add(new Defined(new WeakReference<>(loader), Map.copyOf(mine)));
        defined = List.copyOf(next);
        return prefix;
    }

    /**
     * An aspect (it has {@code hasAspect()}) is initialised and must have its instance, so no patched call ever finds
     * it missing; the site-table class is initialised, so the set's ids are known; the other generated classes
     * initialise when first used, as they would in a woven program.
     */
    private static void initialise(Class<?> c) throws PatchRefused, ReflectiveOperationException {
        if (c.getSimpleName().endsWith("DyperSites")) {
            Class.forName(c.getName(), true, c.getClassLoader());
            return;
        }
        Method has;
        try {
            has = c.getMethod("hasAspect");
        } catch (NoSuchMethodException notAnAspect) {
            return;
        }
        Class.forName(c.getName(), true, c.getClassLoader());
        if (!Boolean.TRUE.equals(has.invoke(null))) {
            throw new PatchRefused("the generated aspect " + c.getName() + " did not initialise");
        }
    }

    /**
     * A class of a named module: the module is made to read the modules of the Dyper and AspectJ runtimes and to
     * open {@code home}'s package to this one, which is what defining and calling the aspects there needs.
     */
    private void openTo(Class<?> home) {
        Module module = home.getModule();
        if (!module.isNamed()) {
            return;
        }
        Module runtime = LoaderAspects.class.getModule();
        inst.redefineModule(module, Set.of(runtime, org.dyper.runtime.Dyper.class.getModule()), Map.of(),
                Map.of(home.getPackageName(), Set.of(runtime)), Set.of(), Map.of());
    }

    /**
     * The offset of the site ids of the set whose aspects have {@code prefix} in {@code loader}: the {@code BASE} of
     * its site-table class {@code DyperSites} (initialised when the aspects were), or {@link Integer#MIN_VALUE} when
     * the set has no such class.
     */
    static int base(ClassLoader loader, String prefix) {
        try {
            Class<?> sites = Class.forName(prefix.replace('/', '.') + "DyperSites", true, loader);
            return sites.getField("BASE").getInt(null);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return Integer.MIN_VALUE;
        }
    }

    /** A class loader's name for messages: its name if it has one, else its class and identity. */
    public static String describe(ClassLoader loader) {
        if (loader == null) {
            return "bootstrap";
        }
        if (loader == ClassLoader.getSystemClassLoader()) {
            return "app";
        }
        String name = loader.getName();
        return (name != null ? name + " " : "") + loader.getClass().getName() + "@"
                + Integer.toHexString(System.identityHashCode(loader));
    }
}
