package org.dyper.patch.aspectj;

import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.gentest.InFlight;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.example.inflight.Busy;

/**
 * A JVM's first insert, once the monitor's warm-up is done, and a second insert of the same patch set after it was
 * taken out, in a JVM started with {@code -Ddyper.instrument.phases=true}. Prints {@code FIRST phases} and
 * {@code SECOND phases} (docs/runtime-patching.md, "Cost"), loads a class of its own right before and after
 * each insert (marks in {@code -Xlog:class+load}), and {@code PATCHED n}, the ENTERs one call of
 * {@code Busy.outer} counts while the first is in, and {@code WRONG n}, whether its result changed.
 *
 * <p>Arguments: the patch folder, the AspectJ runtime jar (not on this JVM's class path: INSTRUMENT adds it).
 */
public final class FirstInsertRunner {
    private FirstInsertRunner() {}

    /** Loaded (by this thread) right before and after each insert: marks in the JVM's class loading log. */
    static final class FirstStarts {}

    static final class FirstEnded {}

    static final class SecondStarts {}

    static final class SecondEnded {}

    public static void main(String[] args) throws Exception {
        PatchSet set = PatchFiles.toPatchSet(PatchFiles.read(Path.of(args[0])), List.of(Path.of(args[1])));
        RuntimePatcher patcher = RuntimePatcher.get();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!patcher.statusXml().contains("WARMUP='DONE'")) {
            if (System.nanoTime() > deadline) {
                System.out.println("WARMUP " + patcher.statusXml());
                return;
            }
            Thread.sleep(10);  // polls the warm-up's state, with the deadline above
        }
        long expected = new Busy(5).outer(40);  // the program's class loaded and run before, as in a program
        new FirstStarts();
        RuntimePatcher.Inserted first = patcher.insert(set);
        new FirstEnded();
        long before = InFlight.ENTERS.get();
        long result = new Busy(5).outer(40);
        System.out.println("PATCHED " + (InFlight.ENTERS.get() - before));
        System.out.println("WRONG " + (result == expected ? 0 : 1));
        patcher.remove(null);
        new SecondStarts();
        RuntimePatcher.Inserted second = patcher.insert(set);
        new SecondEnded();
        patcher.remove(null);
        System.out.println("FIRST " + first.phases());
        System.out.println("SECOND " + second.phases());
    }
}
