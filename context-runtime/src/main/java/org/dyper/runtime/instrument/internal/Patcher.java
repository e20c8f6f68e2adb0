package org.dyper.runtime.instrument.internal;

import java.io.IOException;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.jar.JarFile;
import org.dyper.runtime.instrument.ClassPatch;
import org.dyper.runtime.instrument.PatchRefused;
import org.dyper.runtime.instrument.PatchSet;

/**
 * Inserts and removes patch sets in this JVM: the checks first (one model at a time, the JVM can redefine, each
 * class an earlier version patched is the one this version was made for, its class loader sees the runtimes), then
 * the aspects beside the classes, then the classes: those patched for the first time checked against ORIG and
 * patched in one retransformation ({@link Keeper}), the others in one {@link Instrumentation#redefineClasses}, which
 * the JVM applies to all or none (a failure of the second puts the first back). Calls that are running while a class is redefined finish in the code they started in (JVM
 * semantics), so an invocation never sees half a patch. One instance per JVM, behind
 * {@link org.dyper.runtime.instrument.RuntimePatcher}.
 */
public final class Patcher {
    /** How many earlier patch sets the status keeps. */
    private static final int HISTORY = 32;

    private final Instrumentation inst;
    /**
     * A rehearsal ({@link Warmup}) runs the same code on classes of a class loader of its own and never reaches the
     * program's: it adds no jar to the class path, defines no aspects in the program's class loaders, and waits for
     * no class to load.
     */
    private final boolean rehearsal;
    private final LoaderAspects aspects;
    private final PendingLoads pending;
    /** Checks and patches classes no earlier version patched in one retransformation, and keeps those patches. */
    private final Keeper keeper;
    private final List<InsertedPatchSet> history = new ArrayList<>();
    private InsertedPatchSet active;
    private ExecutorService worker;

    /**
     * What an insert did: how long it took in all and in the redefinition, how many classes it patched now, and the
     * site ids the set got ({@code firstSiteId..lastSiteId}; 0 and -1 when its classes did not initialise yet).
     */
    public record Inserted(long nanos, long redefineNanos, int classes, int pending, int restored, int firstSiteId,
                           int lastSiteId, List<String> notes, String phases) {}

    /** What a removal did. */
    public record Removed(String model, long nanos, int classes) {}

    public Patcher(Instrumentation inst) {
        this(inst, false);
    }

    Patcher(Instrumentation inst, boolean rehearsal) {
        this.inst = inst;
        this.rehearsal = rehearsal;
        this.aspects = new LoaderAspects(inst);
        this.pending = new PendingLoads(aspects, this::patchLater);
        this.keeper = new Keeper(inst);
    }

    /**
     * Sets the classes to patch as they load (all patched classes of the active set). The transformer is registered
     * only while there are some: a JVM with no model in pays nothing at class loading for run-time patching.
     */
    private void waitFor(Map<String, PendingLoads.Waiting> waiting) {
        if (rehearsal) {
            return;
        }
        boolean before = pending.isWaiting();
        pending.waitFor(waiting);
        if (!before && pending.isWaiting()) {
            inst.addTransformer(pending, false);
        } else if (before && !pending.isWaiting()) {
            inst.removeTransformer(pending);
        }
    }

    /** A class of the set as loaded in one class loader, with the patch to apply. */
    private record Target(Class<?> type, ClassPatch patch) {}

    public synchronized Inserted insert(PatchSet set) throws PatchRefused {
        return insert(set, Phases.start());
    }

    /** As {@link #insert(PatchSet)}, measuring its phases in {@code phases} ({@link Phases}). */
    synchronized Inserted insert(PatchSet set, Phases phases) throws PatchRefused {
        long start = System.nanoTime();
        InsertedPatchSet old = active;
        if (old != null && !old.set.model().equals(set.model())) {
            throw new PatchRefused("model '" + old.set.model() + "' is instrumented now: one model at a time; remove "
                    + "it first (INSERT='FALSE'), or instrument a new version of it under the same name");
        }
        if (!inst.isRedefineClassesSupported()) {
            throw new PatchRefused("this JVM cannot redefine classes (its Instrumentation does not support it)");
        }
        for (String name : set.aspects().keySet()) {
            if (!name.startsWith(set.aspectPrefix()) || name.indexOf('/', set.aspectPrefix().length()) >= 0) {
                throw new PatchRefused("aspect class " + name + " is not in the patch set's package "
                        + set.aspectPrefix());
            }
        }
        Set<String> names = new LinkedHashSet<>();
        set.classes().forEach(c -> names.add(c.name()));
        // one walk over the loaded classes serves both finding the set's classes and preparing their loaders
        Class<?>[] all = inst.getAllLoadedClasses();
        Map<String, List<Class<?>>> loaded = LoadedClasses.byName(all, names);
        List<Target> targets = new ArrayList<>();
        List<ClassPatch> later = new ArrayList<>();
        for (ClassPatch p : set.classes()) {
            List<Class<?>> types = loaded.getOrDefault(p.name(), List.of());
            if (types.isEmpty() && p.patched() != null) {
                later.add(p);
            }
            for (Class<?> c : types) {
                if (c.getClassLoader() == null) {
                    throw new PatchRefused(p.name() + " is loaded by the bootstrap class loader: its classes cannot "
                            + "be patched at run time");
                }
                if (!inst.isModifiableClass(c)) {
                    throw new PatchRefused(p.name() + " (class loader " + LoaderAspects.describe(c.getClassLoader())
                            + ") cannot be redefined in this JVM");
                }
                targets.add(new Target(c, p));
            }
        }
        phases.mark("find");
        Set<Target> unknown = checkKnown(targets, old);
        phases.mark("check");
        List<Path> jars = runtimeJars(set);
        phases.mark("jars");
        Map<ClassLoader, Class<?>> homes = new IdentityHashMap<>();
        for (Target t : targets) {
            if (t.patch().patched() != null) {
                homes.putIfAbsent(t.type().getClassLoader(), t.type());
            }
        }
        for (Map.Entry<ClassLoader, Class<?>> h : homes.entrySet()) {
            if (!rehearsal) {  // a rehearsal's class loader sees neither runtime (its patched classes call neither)
                checkSeesRuntimes(h.getKey(), h.getValue().getName(), jars);
            }
        }
        phases.mark("runtimes");
        Map<ClassLoader, String> prefixes = new IdentityHashMap<>();
        int base = Integer.MIN_VALUE;
        for (Map.Entry<ClassLoader, Class<?>> h : homes.entrySet()) {
            prefixes.put(h.getKey(), aspects.prefixFor(h.getValue(), set));
            base = Math.max(base, LoaderAspects.base(h.getKey(), prefixes.get(h.getKey())));
        }
        phases.mark("aspects");
        List<ClassDefinition> definitions = new ArrayList<>();
        List<Keeper.Entry> firstTime = new ArrayList<>();
        Map<Class<?>, byte[]> patchedBytes = new IdentityHashMap<>();
        for (Target t : targets) {
            byte[] bytes = t.patch().patched() == null ? null
                    : rename(t.patch().patched(), set, prefixes.get(t.type().getClassLoader()));
            if (bytes != null) {
                patchedBytes.put(t.type(), bytes);
            }
            if (unknown.contains(t)) {
                firstTime.add(new Keeper.Entry(t.type(), t.patch().name(), t.patch().original(), bytes));
            } else if (bytes != null) {
                definitions.add(new ClassDefinition(t.type(), bytes));
            }
        }
        List<InsertedPatchSet.Install> restore = new ArrayList<>();
        if (old != null) {
            for (InsertedPatchSet.Install i : old.installs) {
                Class<?> c = resolve(i);
                if (i.state == InsertedPatchSet.State.PATCHED && c != null && !patchedBytes.containsKey(c)) {
                    definitions.add(new ClassDefinition(c, i.original));
                    restore.add(i);
                }
            }
        }
        phases.mark("rename");
        long redefineStart = System.nanoTime();
        keeper.install(firstTime);
        try {
            redefine(definitions, "inserting model '" + set.model() + "'");
        } catch (PatchRefused e) {
            keeper.undo(firstTime);
            throw e;
        }
        long redefineNanos = System.nanoTime() - redefineStart;
        phases.mark("patch");
        long now = System.currentTimeMillis();
        InsertedPatchSet g = new InsertedPatchSet(set, now);
        g.base = base;
        if (old != null) {
            old.until = now;
            for (InsertedPatchSet.Install i : old.installs) {
                if (i.state == InsertedPatchSet.State.PATCHED) {
                    i.state = restore.contains(i) ? InsertedPatchSet.State.RESTORED : InsertedPatchSet.State.REPLACED;
                    i.until = now;
                }
            }
        }
        for (Target t : targets) {
            byte[] bytes = patchedBytes.get(t.type());
            if (bytes != null) {
                keeper.attach(t.type(), g.install(t.patch().name(), t.type().getClassLoader(), t.type(),
                        t.patch().original(), bytes, now, InsertedPatchSet.State.PATCHED));
            }
        }
        // every patched class is waited for, loaded or not: a class loader that loads one more class of that name
        // later (a new plug-in or web application loader) gets it patched too, if its bytes are ORIG's
        later.forEach(p -> g.pending.add(p.name()));
        Map<String, PendingLoads.Waiting> waiting = new LinkedHashMap<>();
        List<ClassPatch> patchedClasses = new ArrayList<>();
        for (ClassPatch p : set.classes()) {
            if (p.patched() != null) {
                waiting.put(p.name().replace('.', '/'), new PendingLoads.Waiting(g, p));
                patchedClasses.add(p);
            }
        }
        phases.mark("record");
        prepareLoaders(set, g, patchedClasses, jars, all);
        phases.mark("loaders");
        int count = PatchStatus.siteCount(set.siteTable());
        boolean known = g.base != Integer.MIN_VALUE && count > 0;
        waitFor(waiting);
        active = g;
        history.add(g);
        if (history.size() > HISTORY) {
            history.remove(0);
        }
        List<String> notes = List.copyOf(g.notes);
        phases.mark("finish");
        return new Inserted(System.nanoTime() - start, redefineNanos, patchedBytes.size(), later.size(),
                restore.size(), known ? g.base + 1 : 0, known ? g.base + count : -1, notes, phases.text());
    }

    /**
     * Each loaded class must be the class file the patch was made for. A class this set's earlier version patched is
     * compared here with what that version recorded; the others (returned) are compared with what the JVM holds now
     * in the retransformation that patches them ({@link Keeper}), one pass of the JVM instead of two.
     */
    private static Set<Target> checkKnown(List<Target> targets, InsertedPatchSet old) throws PatchRefused {
        Set<Target> unknown = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Target t : targets) {
            InsertedPatchSet.Install mine = old == null ? null : old.patchedInstall(t.type());
            if (mine != null) {
                requireSame(t, mine.original);
            } else {
                unknown.add(t);
            }
        }
        return unknown;
    }

    private static void requireSame(Target t, byte[] current) throws PatchRefused {
        try {
            if (!ClassFiles.sameClass(t.patch().original(), current)) {
                throw new PatchRefused(t.patch().name() + " (class loader "
                        + LoaderAspects.describe(t.type().getClassLoader()) + ") is not the class file the patch was "
                        + "made for: its code in this JVM differs from ORIG (another agent changed it, or it was "
                        + "redefined since)");
            }
        } catch (ClassFiles.BadClassFile e) {
            throw new PatchRefused(t.patch().name() + ": ORIG is not a readable class file: " + e.getMessage());
        }
    }

    /**
     * The runtime jars of the set whose classes the application class loader does not see yet, appended to its
     * search; the jars that could not be found are left out (the check per loader then says what is missing).
     */
    private List<Path> runtimeJars(PatchSet set) throws PatchRefused {
        if (rehearsal || visible(ClassLoader.getSystemClassLoader(), ASPECTJ_RUNTIME) != null) {
            return List.of();
        }
        // the set's own jars; those beside this runtime only when none of them is here (each look costs a first
        // INSTRUMENT some ms: a folder listed, jars opened)
        JarFile jar = openHolding(set.runtimeJars(), ASPECTJ_RUNTIME);
        if (jar == null) {
            jar = openHolding(besideThisRuntime(), ASPECTJ_RUNTIME);
        }
        if (jar == null) {
            return List.of();
        }
        Path path = Path.of(jar.getName());
        try (JarFile j = jar) {
            // the JVM takes the jar's name, and the class loader opens it itself: while j is open, that shares the
            // directory j read (the JDK keeps one per open file), so the runtime's first class is loaded now
            inst.appendToSystemClassLoaderSearch(j);
            visible(ClassLoader.getSystemClassLoader(), ASPECTJ_RUNTIME);
        } catch (IOException | RuntimeException e) {
            throw new PatchRefused("cannot add " + path + " to the class path: " + e.getMessage());
        }
        return List.of(path);
    }

    /** The first of {@code jars} that is a readable jar holding class {@code className}, open; or null. */
    static JarFile openHolding(List<Path> jars, String className) {
        for (Path jar : jars) {
            if (!Files.isRegularFile(jar)) {
                continue;
            }
            JarFile j = null;
            try {
                j = new JarFile(jar.toFile());
                if (j.getEntry(className.replace('.', '/') + ".class") != null) {
                    return j;
                }
                j.close();
            } catch (IOException e) {
                try {
                    if (j != null) {
                        j.close();
                    }
                } catch (IOException ignored) {
                    // it was not of use anyway
                }
            }
        }
        return null;
    }

    static final String ASPECTJ_RUNTIME = "org.aspectj.lang.NoAspectBoundException";

    /**
     * The AspectJ runtime jars beside the jar this runtime was loaded from ({@code aspectjrt-*.jar} in the same
     * folder, as a Dyper installation lays them out): the fallback when the jars a patch set names are not on this
     * machine (it was made on another, and came through a broker).
     */
    static List<Path> besideThisRuntime() {
        try {
            java.security.CodeSource source = org.dyper.runtime.Dyper.class.getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null ? List.of()
                    : aspectjRuntimesIn(Path.of(source.getLocation().toURI()).getParent());
        } catch (RuntimeException | java.net.URISyntaxException e) {
            return List.of();
        }
    }

    /** The {@code aspectjrt-*.jar} files in {@code folder} (none when it is null or cannot be listed), by name. */
    static List<Path> aspectjRuntimesIn(Path folder) {
        if (folder == null || !Files.isDirectory(folder)) {
            return List.of();
        }
        // no regular expression and no stream: either would spin classes in a JVM's first INSTRUMENT
        List<Path> found = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.startsWith("aspectjrt-") && name.endsWith(".jar")) {
                    found.add(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        java.util.Collections.sort(found);
        return found;
    }

    private static Class<?> visible(ClassLoader loader, String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The woven code calls the Dyper runtime (this one: its data is this JVM's) and the AspectJ runtime. */
    private static void checkSeesRuntimes(ClassLoader loader, String className, List<Path> appended)
            throws PatchRefused {
        if (visible(loader, org.dyper.runtime.Dyper.class.getName()) != org.dyper.runtime.Dyper.class) {
            throw new PatchRefused(className + ": its class loader " + LoaderAspects.describe(loader) + " does not see"
                    + " the Dyper runtime this monitor reports from (org.dyper.runtime on the application class path)");
        }
        if (visible(loader, ASPECTJ_RUNTIME) == null) {
            throw new PatchRefused(className + ": its class loader " + LoaderAspects.describe(loader) + " does not see"
                    + " the AspectJ runtime (aspectjrt)" + (appended.isEmpty() ? "" : " although " + appended
                    + " was added to the application class path"));
        }
    }

    /**
     * The set's aspects go now into the class loaders where its classes will likely load (again): the application
     * class loader, and every loader that already loaded a class of the same package as one of them. Classes that
     * load there later are patched as they load; in other loaders, right after.
     */
    private void prepareLoaders(PatchSet set, InsertedPatchSet g, List<ClassPatch> classes, List<Path> jars,
                                Class<?>[] all) {
        Set<String> packages = new java.util.HashSet<>();
        classes.forEach(p -> packages.add(p.name().contains(".") ? p.name().substring(0, p.name().lastIndexOf('.'))
                : ""));
        Map<ClassLoader, Class<?>> homes = new IdentityHashMap<>();
        ClassLoader app = ClassLoader.getSystemClassLoader();
        for (Class<?> c : all) {
            ClassLoader l = c.getClassLoader();
            if (l == null) {
                continue;
            }
            // the native checks (isArray, isHidden, isPrimitive) last, for the few classes that would be a home
            boolean samePackage = packages.contains(c.getPackageName());
            if ((samePackage || l == app && !homes.containsKey(l)) && !c.isArray() && !c.isHidden()
                    && !c.isPrimitive()) {
                homes.put(l, c);
            }
        }
        if (rehearsal) {
            return;  // a rehearsal walks the loaded classes as INSTRUMENT does, and defines nothing in their loaders
        }
        for (Map.Entry<ClassLoader, Class<?>> h : homes.entrySet()) {
            if (aspects.definedPrefix(h.getKey(), set.id()) != null) {
                continue;
            }
            try {
                checkSeesRuntimes(h.getKey(), h.getValue().getName(), jars);
                g.base = Math.max(g.base, LoaderAspects.base(h.getKey(), aspects.prefixFor(h.getValue(), set)));
            } catch (PatchRefused e) {
                g.note("classes that load later in class loader " + LoaderAspects.describe(h.getKey()) + " are "
                        + "patched right after they load, not as they load: " + e.getMessage());
            }
        }
    }

    private static byte[] rename(byte[] bytes, PatchSet set, String prefix) throws PatchRefused {
        try {
            return ClassFiles.renamePrefix(bytes, set.aspectPrefix(), prefix);
        } catch (ClassFiles.BadClassFile e) {
            throw new PatchRefused("a patched class file of model '" + set.model() + "' is broken: " + e.getMessage());
        }
    }

    private void redefine(List<ClassDefinition> definitions, String what) throws PatchRefused {
        if (definitions.isEmpty()) {
            return;
        }
        List<Class<?>> types = new ArrayList<>();
        definitions.forEach(d -> types.add(d.getDefinitionClass()));
        keeper.release(types);  // what is redefined now is the class's own from here on
        try {
            inst.redefineClasses(definitions.toArray(ClassDefinition[]::new));
        } catch (Exception | LinkageError e) {
            Map<String, Integer> names = new LinkedHashMap<>();
            definitions.forEach(d -> names.merge(d.getDefinitionClass().getName(), 1, Integer::sum));
            List<String> list = new ArrayList<>();
            names.forEach((n, k) -> list.add(k == 1 ? n : n + " (in " + k + " class loaders)"));
            throw new PatchRefused(what + ": the JVM refused to redefine " + String.join(", ", list) + ": " + e
                    + " (nothing was changed)");
        }
    }

    private Class<?> resolve(InsertedPatchSet.Install i) {
        Class<?> c = i.type == null ? null : i.type.get();
        if (c == null) {
            c = LoadedClasses.find(inst, i.name, i.loaderRef.get());
            if (c != null) {
                i.type = new java.lang.ref.WeakReference<>(c);
            }
        }
        return c;
    }

    /** Removes the active patch set ({@code model} must name it, or be null): its classes get their originals back. */
    public synchronized Removed remove(String model) throws PatchRefused {
        long start = System.nanoTime();
        InsertedPatchSet g = active;
        if (g == null) {
            throw new PatchRefused(model == null ? "no model is instrumented" : "model '" + model
                    + "' is not instrumented (no model is)");
        }
        if (model != null && !model.equals(g.set.model())) {
            throw new PatchRefused("model '" + model + "' is not instrumented (model '" + g.set.model() + "' is)");
        }
        List<ClassDefinition> definitions = new ArrayList<>();
        List<InsertedPatchSet.Install> restored = new ArrayList<>();
        for (InsertedPatchSet.Install i : g.installs) {
            if (i.state != InsertedPatchSet.State.PATCHED) {
                continue;
            }
            Class<?> c = resolve(i);
            if (c == null) {
                i.state = InsertedPatchSet.State.GONE;
                continue;
            }
            definitions.add(new ClassDefinition(c, i.original));
            restored.add(i);
        }
        redefine(definitions, "removing model '" + g.set.model() + "'");
        long now = System.currentTimeMillis();
        waitFor(Map.of());
        for (InsertedPatchSet.Install i : restored) {
            i.state = InsertedPatchSet.State.RESTORED;
            i.until = now;
        }
        g.until = now;
        active = null;
        return new Removed(g.set.model(), System.nanoTime() - start, restored.size());
    }

    /** Patches, right after it loaded, a waiting class whose loader had no aspects yet (see {@link PendingLoads}). */
    private void patchLater(PendingLoads.Waiting w, ClassLoader loader) {
        java.lang.ref.WeakReference<ClassLoader> ref = new java.lang.ref.WeakReference<>(loader);
        synchronized (this) {
            if (worker == null) {
                worker = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "dyper-monitor-patch");
                    t.setDaemon(true);
                    return t;
                });
            }
        }
        worker.execute(() -> {
            try {
                Class<?> c = null;
                for (int tries = 0; tries < 2000 && c == null && ref.get() != null; tries++) {
                    c = LoadedClasses.find(inst, w.patch().name(), ref.get());
                    if (c == null) {
                        Thread.sleep(1);
                    }
                }
                if (c != null) {
                    patchLoaded(w, c);
                }
            } catch (Throwable t) {
                w.generation().note("patching " + w.patch().name() + " after it loaded failed: " + t);
            }
        });
    }

    private synchronized void patchLoaded(PendingLoads.Waiting w, Class<?> c) {
        InsertedPatchSet g = w.generation();
        if (g != active) {
            return;
        }
        try {
            checkSeesRuntimes(c.getClassLoader(), c.getName(), List.of());
            String prefix = aspects.prefixFor(c, g.set);
            g.base = Math.max(g.base, LoaderAspects.base(c.getClassLoader(), prefix));
            byte[] bytes = rename(w.patch().patched(), g.set, prefix);
            redefine(List.of(new ClassDefinition(c, bytes)), "patching " + c.getName() + " after it loaded");
            g.install(w.patch().name(), c.getClassLoader(), c, w.patch().original(), bytes,
                    System.currentTimeMillis(), InsertedPatchSet.State.PATCHED);
            g.note(c.getName() + " loaded in class loader " + LoaderAspects.describe(c.getClassLoader()) + ", which "
                    + "held none of the patch's aspects yet: patched right after it loaded (calls before that were not"
                    + " seen)");
        } catch (PatchRefused e) {
            g.note(e.getMessage());
        }
    }

    /** Every patch set inserted so far (at most the last 32), oldest first. */
    public synchronized List<InsertedPatchSet> history() {
        return List.copyOf(history);
    }

    /** The active patch set, or null. */
    public synchronized InsertedPatchSet active() {
        return active;
    }
}
