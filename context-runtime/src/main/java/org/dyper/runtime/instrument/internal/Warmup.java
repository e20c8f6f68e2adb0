package org.dyper.runtime.instrument.internal;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.dyper.runtime.instrument.ClassPatch;
import org.dyper.runtime.instrument.PatchSet;

/**
 * Warms run-time patching once, after the monitor started, so that a JVM's first INSTRUMENT costs what later ones
 * do (without it, the first loads and links the patcher's classes, spins the method handles of its string
 * concatenations and lambdas, and retransforms a class and redefines one for the first time). It inserts and removes a
 * patch set with the patcher's own code, in rehearsal ({@link Patcher}), on a dummy class ({@code dummy.Target}) that
 * it defines from its class file in a class loader of its own: no class of the program is redefined, and no class
 * loader of the program gets a class, a jar or a transformer. The runtime classes that patched code uses are loaded
 * and linked, not initialised. It then does what a first INSTRUMENT does when the program lacks the AspectJ runtime,
 * on a class loader of its own ({@link #warmClassPath}), and parses a site table that defines nothing. It costs the
 * program two redefinitions of a one-method class (two short safepoints) and some tens of ms of CPU on a thread at
 * the lowest priority; with an AspectJ runtime jar beside this runtime's (an installation's {@code lib/}), one open
 * file for the JVM's life.
 */
public final class Warmup {
    /** The model name and patch id of the rehearsal. */
    static final String MODEL = "dyper-warmup";
    static final String ID = "warmup";
    private static final String DUMMY = "org/dyper/runtime/instrument/internal/dummy/";
    /** Runtime classes patched code, generated aspects and INSTRUMENT use; loaded and linked, never initialised here. */
    private static final List<String> RUNTIME = List.of("org.dyper.runtime.Dyper", "org.dyper.runtime.Sites",
            "org.dyper.runtime.internal.SiteTable", "org.dyper.runtime.SiteTableFormat",
            "org.dyper.runtime.instrument.internal.PendingLoads", "org.dyper.runtime.instrument.internal.PendingLoads$Waiting",
            // what RuntimePatcher hands back (the rehearsal calls the patcher under it)
            "org.dyper.runtime.instrument.RuntimePatcher$Inserted", "org.dyper.runtime.instrument.RuntimePatcher$Removed");

    /** Where the warm-up stands. */
    public enum State { NOT_STARTED, RUNNING, DONE, SKIPPED, FAILED }

    /** What the warm-up did: its state, how long it took (wall and this thread's CPU, ns), and why not (or null). */
    public record Result(State state, long nanos, long cpuNanos, String note) {
        public static final Result NOT_STARTED = new Result(State.NOT_STARTED, 0, 0, null);
        public static final Result RUNNING = new Result(State.RUNNING, 0, 0, null);

        /** The attributes of {@code <PATCHES>} that say so (docs/monitor.md), each with its leading blank. */
        public String attributes() {
            StringBuilder x = new StringBuilder(" WARMUP='").append(state).append('\'');
            if (state == State.DONE) {
                x.append(" WARMUP_NS='").append(nanos).append("' WARMUP_CPU_NS='").append(cpuNanos).append('\'');
            }
            if (note != null) {
                x.append(" WARMUP_NOTE='");
                org.dyper.runtime.internal.Reports.escape(x, note).append('\'');
            }
            return x.toString();
        }
    }

    /** The AspectJ runtime jar beside this runtime, held open from the warm-up on (see {@link #warmClassPath}). */
    private static JarFile held;

    private Warmup() {}

    /**
     * What the warm-up leaves out in a JVM whose agent was attached late: until a JVM has redefined a class once, its
     * compiler records no dependencies on the methods it inlined when no agent could redefine classes from the start,
     * so HotSpot (JDK 17; JDK 23 and later record them always, JDK-8324241) deoptimises ALL compiled code at the first
     * redefinition after a late attach. The rehearsal would do that to a program that may never be instrumented.
     */
    static final String LATE_NOTE = "attached late: no rehearsal, which would redefine a class (the JVM's first "
            + "redefinition after a late attach can throw away all compiled code; the first INSTRUMENT pays that)";

    /**
     * Runs the warm-up on the calling thread; never throws (a failure is the result). {@code atLaunch}: the agent
     * started with the JVM; when false (attached late), nothing is redefined ({@link #LATE_NOTE}): the rehearsal is
     * left out, the rest is done.
     */
    public static Result run(Instrumentation inst, boolean atLaunch) {
        if (inst == null || !inst.isRedefineClassesSupported() || !inst.isRetransformClassesSupported()) {
            return new Result(State.SKIPPED, 0, 0, "this JVM cannot redefine and retransform classes");
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        long cpu0 = cpu ? mx.getCurrentThreadCpuTime() : 0;
        long t0 = System.nanoTime();
        try {
            if (atLaunch) {
                rehearse(inst);
            }
            for (String name : RUNTIME) {
                Class.forName(name, false, Warmup.class.getClassLoader()).getDeclaredMethods();  // links, no <clinit>
            }
            // a site table's parser, on a table that defines nothing (no site enters the program's report)
            org.dyper.runtime.Sites.define(0, org.dyper.runtime.SiteTableFormat.HEADER + "\n");
            warmClassPath();
        } catch (Throwable t) {
            return new Result(State.FAILED, System.nanoTime() - t0, 0, t.toString());
        }
        return new Result(State.DONE, System.nanoTime() - t0, cpu ? mx.getCurrentThreadCpuTime() - cpu0 : -1,
                atLaunch ? null : LATE_NOTE);
    }

    /** Inserts and removes a patch set of the dummy class, as INSTRUMENT would, with a patcher of its own. */
    private static void rehearse(Instrumentation inst) throws Exception {
        Map<String, byte[]> files = classFiles(List.of("Target", "Aspect", "DyperSites"));
        Isolated loader = new Isolated();
        byte[] target = files.get("Target");
        Class<?> type = loader.define(DUMMY.replace('/', '.') + "Target", target);
        Class.forName(type.getName(), true, loader);
        String prefix = PatchSet.aspectPrefix(ID);
        Map<String, byte[]> aspects = new LinkedHashMap<>();
        for (String name : List.of("Aspect", "DyperSites")) {
            aspects.put(prefix + name, ClassFiles.renamePrefix(files.get(name), DUMMY, prefix));
        }
        String sites = org.dyper.runtime.SiteTableFormat.HEADER + "\n1\t" + org.dyper.runtime.SiteTableFormat.METHOD
                + "\t" + type.getName() + "\tcall\t(int)\n";
        PatchSet set = new PatchSet(MODEL, ID, sites, List.of(new ClassPatch(type.getName(), target, target)), aspects,
                List.of());
        Patcher patcher = new Patcher(inst, true);
        patcher.insert(set);
        PatchStatus.xml(patcher.history());
        patcher.remove(MODEL);
        PatchStatus.xml(patcher.history());
    }

    /**
     * What a first INSTRUMENT does when the program lacks the AspectJ runtime: it looks for the runtime's jar beside
     * this one, opens a jar to see that it holds a class, and loads a class from a jar new to a class loader. Done
     * here on that jar (or, without one, this runtime's own jar or folder) with a class loader of the warm-up's own,
     * closed after: the program's class path is not touched.
     */
    private static void warmClassPath() throws IOException, URISyntaxException, ClassNotFoundException {
        List<Path> beside = Patcher.besideThisRuntime();
        Path jar = beside.isEmpty() ? home() : beside.get(0);
        String name = beside.isEmpty() ? DUMMY.replace('/', '.') + "Target" : Patcher.ASPECTJ_RUNTIME;
        JarFile open = Patcher.openHolding(List.of(jar), name);
        if (open != null && !beside.isEmpty()) {
            held = open;  // kept open: INSTRUMENT's own opening of this jar then shares the directory it read
        } else if (open != null) {
            open.close();
        }
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader("dyper-warmup-jar",
                new java.net.URL[] {jar.toUri().toURL()}, null)) {
            Class.forName(name, false, loader);
        }
    }

    private static Path home() throws URISyntaxException {
        return Path.of(Warmup.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The dummy classes' files, read from the jar or folder that holds this class (no class loader is asked). */
    private static Map<String, byte[]> classFiles(List<String> names) throws IOException, URISyntaxException {
        Path home = home();
        Map<String, byte[]> files = new LinkedHashMap<>();
        if (Files.isDirectory(home)) {
            for (String n : names) {
                files.put(n, Files.readAllBytes(home.resolve(DUMMY + n + ".class")));
            }
            return files;
        }
        try (JarFile jar = new JarFile(home.toFile())) {
            for (String n : names) {
                ZipEntry e = jar.getEntry(DUMMY + n + ".class");
                if (e == null) {
                    throw new IOException(home + " holds no " + DUMMY + n + ".class");
                }
                try (InputStream in = jar.getInputStream(e)) {
                    files.put(n, in.readAllBytes());
                }
            }
        }
        return files;
    }

    /** The warm-up's own class loader: its parent is the bootstrap loader, it defines what it is given. */
    private static final class Isolated extends ClassLoader {
        Isolated() {
            super("dyper-warmup", null);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }
}
