package org.dyper.patch.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the monitored program for {@code dyper run} (and the plugin's run goal) and stands in for it: SIGINT, SIGTERM
 * and SIGHUP sent to this JVM are passed on to the program instead of ending this JVM, which waits for the program
 * (its shutdown hooks, and so its report, included) and returns its exit code. SIGKILL cannot be caught: the program
 * then runs on by itself (the DYPER monitor in it ends it when it sees its launcher gone, see docs/monitor.md).
 */
public final class ProgramProcess {
    private static final List<String> FORWARDED = List.of("INT", "TERM", "HUP");

    private ProgramProcess() {
    }

    /**
     * Runs {@code command} (in {@code dir} when not null) with this JVM's standard streams and returns the program's
     * exit code once it has ended: SIGINT, SIGTERM and SIGHUP to this JVM are passed on to the program, which this JVM
     * waits for; if this thread is interrupted, the program is stopped and the interrupt rethrown.
     */
    public static int run(List<String> command, Path dir) throws IOException, InterruptedException {
        return run(command, dir, pid -> { });
    }

    /**
     * Runs {@code command} (in {@code dir} when not null) with this JVM's standard streams, tells {@code started} the
     * program's pid, and returns the program's exit code once it has ended; signals as the class says.
     */
    public static int run(List<String> command, Path dir, java.util.function.LongConsumer started)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        if (dir != null) {
            builder.directory(dir.toFile());
        }
        Process process = builder.start();
        // a shutdown that is not a signal we handle (System.exit elsewhere in this JVM) still stops the program
        Thread stop = new Thread(process::destroy, "dyper-stop-program");
        Runtime.getRuntime().addShutdownHook(stop);
        Map<sun.misc.Signal, sun.misc.SignalHandler> previous = new LinkedHashMap<>();
        for (String name : FORWARDED) {
            try {
                sun.misc.Signal signal = new sun.misc.Signal(name);
                previous.put(signal, sun.misc.Signal.handle(signal, s -> forward(process, s.getName())));
            } catch (IllegalArgumentException | UnsupportedOperationException | LinkageError notHere) {
                // a signal this platform or JVM does not let us handle (the JVM was started with it ignored, -Xrs):
                // its default stays
            }
        }
        try {
            started.accept(process.pid());
            return process.waitFor();
        } catch (InterruptedException e) {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
            throw e;
        } finally {
            previous.forEach((signal, handler) -> {
                try {
                    sun.misc.Signal.handle(signal, handler);
                } catch (RuntimeException ignored) {
                    // left as ours: it only forwards, and the program has ended
                }
            });
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already exiting; the hook stops the program
            }
        }
    }

    /** Sends the program the signal this JVM received ({@code kill -s NAME pid}); SIGTERM if that cannot be done. */
    private static void forward(Process process, String name) {
        if (!process.isAlive()) {
            return;
        }
        try {
            Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0) {
                return;
            }
        } catch (IOException | RuntimeException e) {
            // no kill command: below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroy();
    }
}
