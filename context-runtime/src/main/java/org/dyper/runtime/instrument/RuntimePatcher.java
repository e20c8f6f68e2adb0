package org.dyper.runtime.instrument;

import java.lang.instrument.Instrumentation;
import java.util.List;
import org.dyper.runtime.instrument.internal.Patcher;
import org.dyper.runtime.instrument.internal.PatchStatus;
import org.dyper.runtime.instrument.internal.Warmup;

/**
 * Patching a running JVM: inserts a {@link PatchSet} (the classes of one model, patched by the DYPATCH service) with
 * class redefinition, and takes it out again. The DYPER monitor's INSTRUMENT command is a front end to it; code in
 * the JVM (the monitor's own detailing) can call it directly. One model is in at a time; inserting a model under the
 * name of the one that is in replaces it in one step. Everything is checked before anything changes: a refusal
 * ({@link PatchRefused}) leaves the JVM as it was. What the patched code collected stays after removal.
 *
 * <p>Available once the dyper-runtime jar was started as a javaagent ({@code -javaagent}, {@code dyper run}, or
 * {@code dyper ctl attach}), which hands over the JVM's {@link Instrumentation}.
 */
public final class RuntimePatcher {
    private static volatile RuntimePatcher instance;

    private final Patcher patcher;
    private final Instrumentation inst;
    private volatile Warmup.Result warmup = Warmup.Result.NOT_STARTED;

    private RuntimePatcher(Instrumentation inst) {
        this.patcher = new Patcher(inst);
        this.inst = inst;
    }

    /** Called by the agent entry points; the first call wins. */
    public static synchronized void install(Instrumentation inst) {
        if (instance == null && inst != null) {
            instance = new RuntimePatcher(inst);
        }
    }

    /** The patcher of this JVM, or null when no Dyper agent handed over an Instrumentation. */
    public static RuntimePatcher get() {
        return instance;
    }

    /**
     * What an insert did. {@code nanos} is the whole insert, {@code redefineNanos} the JVM's redefinition alone; the
     * site ids of the set are {@code firstSiteId..lastSiteId} (0 and -1 when it has none). {@code phases} is where the
     * time went, {@code name=wallMicros/cpuMicros/classesLoaded ...}, when the JVM runs with
     * {@code -Ddyper.instrument.phases=true}, else null.
     */
    public record Inserted(long nanos, long redefineNanos, int classes, int pending, int restored, int firstSiteId,
                           int lastSiteId, List<String> notes, String phases) {}

    /**
     * Inserts {@code set}: its loaded classes are patched now (all or none), those not loaded yet when they load.
     *
     * @throws PatchRefused with nothing changed: another model is in, the JVM cannot redefine, a class differs from
     *         its ORIG, a class loader cannot see the runtimes, or the JVM refused the redefinition
     */
    public Inserted insert(PatchSet set) throws PatchRefused {
        Patcher.Inserted i = patcher.insert(set);
        return new Inserted(i.nanos(), i.redefineNanos(), i.classes(), i.pending(), i.restored(), i.firstSiteId(),
                i.lastSiteId(), i.notes(), i.phases());
    }

    /** What a removal did. */
    public record Removed(String model, long nanos, int classes) {}

    /**
     * Takes the model that is in out (its classes get their original class files back); {@code model} must be its
     * name, or null for whichever is in.
     */
    public Removed remove(String model) throws PatchRefused {
        Patcher.Removed r = patcher.remove(model);
        return new Removed(r.model(), r.nanos(), r.classes());
    }

    /** The name of the model that is in, or null. */
    public String activeModel() {
        var g = patcher.active();
        return g == null ? null : g.set.model();
    }

    /**
     * The first site id of the patch {@code patchId} in this JVM (its last insert), or 0 when its generated classes
     * have not initialised yet or it was never inserted; the patch's site table ids {@code n} are
     * {@code firstSiteId - 1 + n}.
     */
    public int firstSiteId(String patchId) {
        List<org.dyper.runtime.instrument.internal.InsertedPatchSet> history = patcher.history();
        for (int i = history.size() - 1; i >= 0; i--) {
            var g = history.get(i);
            if (g.set.id().equals(patchId)) {
                return g.base == Integer.MIN_VALUE ? 0 : g.base + 1;
            }
        }
        return 0;
    }

    /**
     * Warms run-time patching on the calling thread, once ({@link Warmup}: the patcher's own code on a dummy class of
     * a class loader of its own, never a class of the program), so that the first INSERT costs what later ones do.
     * The monitor calls it on a thread of its own at the lowest priority; later calls do nothing. {@code atLaunch}:
     * whether the agent was started with the JVM ({@code -javaagent}); after a late attach the warm-up redefines
     * nothing ({@link Warmup#run}: there, the JVM's first redefinition throws away all compiled code).
     */
    public void warmUp(boolean atLaunch) {
        synchronized (this) {
            if (warmup != Warmup.Result.NOT_STARTED) {
                return;
            }
            warmup = Warmup.Result.RUNNING;
        }
        warmup = Warmup.run(inst, atLaunch);
    }

    /**
     * The {@code <PATCHES>} element: whether the warm-up ran, and every model inserted (at most the last 32), its
     * classes and sites, since when and whether still patched (docs/monitor.md).
     */
    public String statusXml() {
        return PatchStatus.xml(patcher.history(), warmup.attributes());
    }
}
