package org.dyper.samples.phases;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.IntUnaryOperator;

/**
 * A program whose work comes in phases that a driver starts: every line {@code phase} on stdin runs the next phase
 * and prints one line about it, {@code exit} ends the program. A driver patches it between phases (run-time
 * patching) and knows exactly what each phase does ({@link PhaseFacts}): {@value PhaseFacts#CALLS} calls of
 * {@link Worker#work(int)} (each allocates an {@link Item}, calls {@link Worker#weigh(Item)}, takes the worker's
 * lock and writes a field), {@value PhaseFacts#LATER_CALLS} calls of {@link Later#twice(int)} from phase 2 on (the
 * class loads then), and {@value PhaseFacts#PLUGIN_CALLS} calls of a plug-in class that a class loader of its own
 * loads from the folder given as the first argument (when given; with a second argument {@code isolated} that loader
 * sees only the JDK, not the application's class path).
 */
public final class PhasedApp {
    private PhasedApp() {}

    public static void main(String[] args) throws Exception {
        IntUnaryOperator plugin = args.length > 0 ? plugin(Path.of(args[0]), args.length > 1
                && args[1].equals("isolated")) : null;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Worker worker = new Worker();
        int phase = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.equals("exit")) {
                break;
            }
            if (line.equals("phase")) {
                phase++;
                runPhase(phase, worker, plugin, System.out);
            }
        }
        System.out.println("done after " + phase + " phases, total " + worker.total());
    }

    /** One phase: its work and its line of output. */
    public static void runPhase(int phase, Worker worker, IntUnaryOperator plugin, PrintStream out) {
        long sum = 0;
        for (int i = 0; i < PhaseFacts.CALLS; i++) {
            sum += worker.work(i + phase);
        }
        long later = 0;
        if (phase >= 2) {
            for (int i = 0; i < PhaseFacts.LATER_CALLS; i++) {
                later += Later.twice(i);
            }
        }
        long plugged = 0;
        if (plugin != null) {
            for (int i = 0; i < PhaseFacts.PLUGIN_CALLS; i++) {
                plugged += plugin.applyAsInt(i);
            }
        }
        out.println("phase " + phase + ": sum=" + sum + " total=" + worker.total() + " later=" + later + " plugin="
                + plugged);
        out.flush();
    }

    /**
     * The plug-in: {@code org.dyper.samples.phases.plugin.Plugin} from {@code dir}, in a class loader of its own (a
     * child of the application's, or with {@code isolated} of the JDK's platform loader).
     */
    static IntUnaryOperator plugin(Path dir, boolean isolated) throws Exception {
        ClassLoader parent = isolated ? ClassLoader.getPlatformClassLoader() : PhasedApp.class.getClassLoader();
        ClassLoader loader = new URLClassLoader("plugins", new URL[] {dir.toUri().toURL()}, parent) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("org.dyper.samples.phases.plugin.")) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : findClass(name);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        return (IntUnaryOperator) Class.forName("org.dyper.samples.phases.plugin.Plugin", true, loader)
                .getConstructor().newInstance();
    }
}
