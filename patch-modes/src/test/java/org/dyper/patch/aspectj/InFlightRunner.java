package org.dyper.patch.aspectj;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dyper.patch.gentest.InFlight;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.example.inflight.Busy;

/**
 * Threads call {@link Busy} without pause while the main thread puts the patch in and takes it out again, many times.
 * Prints what {@link InFlight} saw and what went wrong in the program: {@code ENTERS n}, {@code EXITS n},
 * {@code MISMATCHES n}, {@code THROWN n} (exceptions that reached the workers), {@code WRONG n} (results that differ),
 * {@code CYCLES n}.
 *
 * <p>Arguments: {@code patchFolder cycles}.
 */
public final class InFlightRunner {
    private InFlightRunner() {}

    public static void main(String[] args) throws Exception {
        PatchSet set = PatchFiles.toPatchSet(PatchFiles.read(Path.of(args[0])), List.of());
        int cycles = Integer.parseInt(args[1]);
        long expected = new Busy(5).outer(40);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong thrown = new AtomicLong();
        AtomicLong wrong = new AtomicLong();
        Thread[] workers = new Thread[3];
        for (int w = 0; w < workers.length; w++) {
            workers[w] = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        if (new Busy(5).outer(40) != expected) {
                            wrong.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        thrown.incrementAndGet();
                    }
                }
            }, "busy-" + w);
            workers[w].start();
        }
        RuntimePatcher patcher = RuntimePatcher.get();
        for (int c = 0; c < cycles; c++) {
            patcher.insert(set);
            Thread.sleep(3); // planted: the patch stays in for a while as the workers run through it
            patcher.remove(null);
            Thread.sleep(1); // planted: and stays out for a while
        }
        stop.set(true);
        for (Thread t : workers) {
            t.join();
        }
        System.out.println("ENTERS " + InFlight.ENTERS.get());
        System.out.println("EXITS " + InFlight.EXITS.get());
        System.out.println("MISMATCHES " + InFlight.MISMATCHES.get());
        System.out.println("THROWN " + thrown.get());
        System.out.println("WRONG " + wrong.get());
        System.out.println("CYCLES " + cycles);
    }
}
