package org.dyper.patch.aspectj;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.gentest.Recorder;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.example.fixture.Target;

/**
 * Runs the fixture script once per case in a JVM where the Dyper agent runs, the run-time way: each case loads the
 * original fixture in a class loader of its own (a child of the application loader), the patch goes in by class
 * redefinition, the script runs, and the patch comes out again. Prints {@code CASE name}, one {@code EVENT ...} per
 * event and {@code RESULT script output}, like {@link ScriptRunner}; then {@code AFTER script output} and the events
 * of a run after the removal (none expected) as {@code LEFT ...}. {@code NOTE ...} lines are what the insert noted.
 *
 * <p>Arguments: {@code name=patchFolder;fixtureClasses} per case ({@link #NONE} for a case that patches nothing).
 */
public final class RuntimeScriptRunner {
    /** In place of a patch folder: the case patches nothing, so nothing goes in. */
    static final String NONE = "NONE";

    private RuntimeScriptRunner() {}

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String[] paths = arg.substring(eq + 1).split(";");
            System.out.println("CASE " + arg.substring(0, eq));
            String result;
            List<String> events = List.of();
            try (URLClassLoader loader = Woven.childFirst(new URL[] {Path.of(paths[1]).toUri().toURL()})) {
                Class<?> target = Class.forName(Target.class.getName(), true, loader);
                boolean patched = !paths[0].equals(NONE);
                if (patched) {
                    RuntimePatcher.Inserted in = RuntimePatcher.get().insert(PatchFiles.toPatchSet(
                            PatchFiles.read(Path.of(paths[0])), List.of()));
                    in.notes().forEach(n -> System.out.println("NOTE " + n));
                }
                Recorder.take();
                try {
                    result = (String) target.getMethod("script").invoke(null);
                } finally {
                    events = Recorder.take();
                    if (patched) {
                        RuntimePatcher.get().remove(null);
                    }
                }
                for (String event : events) {
                    System.out.println("EVENT " + event);
                }
                System.out.println("RESULT " + result);
                String after = (String) target.getMethod("script").invoke(null);
                for (String event : Recorder.take()) {
                    System.out.println("LEFT " + event);
                }
                System.out.println("AFTER " + after);
            } catch (Throwable t) {
                System.out.println("RESULT FAILED " + t);
            }
            // the case's class loader is closed: let it go, so later cases do not patch its classes too
            System.gc();
        }
    }
}
