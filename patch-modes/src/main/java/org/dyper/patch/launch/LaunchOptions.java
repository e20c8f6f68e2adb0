package org.dyper.patch.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.build.Weaver;

/**
 * How to launch a monitored program, built alike by {@code dyper run} and the Maven plugin's {@code run} goal (as
 * {@link Weaver.Inputs} is for what to weave): the {@code java} to run, the AspectJ weaver agent and runtime jars the
 * command names, the way the patched classes are woven, where the report goes, whether to be verbose, whether the DYPER
 * monitor starts (and its agent options), and the program's java arguments.
 *
 * @param monitorOptions the monitor agent's options ({@code CHECKTIME=5,dir=/tmp/run}), or null
 */
public record LaunchOptions(Path java, Path weaverAgent, List<Path> runtime, Weaving weaving, Report report,
                            boolean verbose, boolean monitor, String monitorOptions, List<String> javaArgs) {
    /** How a launch gets the patched classes. */
    public enum Weaving {
        /**
         * The classes the model patches are woven with ajc when the cache entry is made (generated advice as for
         * binary weaving: inlined, nothing allocated per call), and the replace agent swaps them in as they load.
         * No AspectJ weaver in the program: it starts faster and runs the binary-woven hot path.
         */
        AHEAD,
        /** The AspectJ load-time weaver agent weaves the classes as they load (before/after advice, per-thread
         *  context stack). For programs whose classes another agent changes before Dyper sees them. */
        AGENT
    }

    /** Where the report goes and in which forms; null fields keep the runtime's defaults. */
    public record Report(String text, String xml) {
        /** The runtime's defaults. */
        public static final Report DEFAULT = new Report(null, null);
    }

    public LaunchOptions {
        runtime = List.copyOf(runtime);
        javaArgs = List.copyOf(javaArgs);
        report = report == null ? Report.DEFAULT : report;
    }

    /**
     * Runs {@code javaArgs} with {@code java}, the weaver agent and runtime jars found on this JVM's class path, woven
     * ahead, the default report, not verbose, with the monitor.
     */
    public static LaunchOptions of(Path java, List<String> javaArgs) {
        return of(java, javaArgs, Weaver.weaverAgent(), Weaver.runtimeClasspath());
    }

    /** As {@link #of(Path, List)}, with the weaver agent and runtime jars given (the plugin has them as artifacts). */
    public static LaunchOptions of(Path java, List<String> javaArgs, Path weaverAgent, List<Path> runtime) {
        return new LaunchOptions(java, weaverAgent, runtime, Weaving.AHEAD, Report.DEFAULT, false, true, null,
                javaArgs);
    }

    public LaunchOptions withWeaving(Weaving way) {
        return new LaunchOptions(java, weaverAgent, runtime, way, report, verbose, monitor, monitorOptions, javaArgs);
    }

    public LaunchOptions withReport(Report to) {
        return new LaunchOptions(java, weaverAgent, runtime, weaving, to, verbose, monitor, monitorOptions, javaArgs);
    }

    public LaunchOptions withVerbose(boolean on) {
        return new LaunchOptions(java, weaverAgent, runtime, weaving, report, on, monitor, monitorOptions, javaArgs);
    }

    /** With the monitor started ({@code on}) with agent {@code options} (null for none), or left out. */
    public LaunchOptions withMonitor(boolean on, String options) {
        return new LaunchOptions(java, weaverAgent, runtime, weaving, report, verbose, on, options, javaArgs);
    }

    /** The jars and folders the program's class path names: what a launch may patch. */
    public List<Path> targets() throws IOException {
        return JavaArgs.parse(javaArgs).classpathEntries();
    }

    /** The Java release {@link #java} runs (this JVM's when its {@code release} file cannot be read). */
    public int javaFeature() {
        return TargetJdk.featureVersion(java).orElse(Runtime.version().feature());
    }

    /** The whole {@code -javaagent} argument that starts the monitor, or null without it. */
    public String monitorAgent() {
        return monitor ? LaunchCommand.monitorAgent(runtime.get(0), monitorOptions) : null;
    }

    /** The command that launches the program with the aspect folder {@code aspects} ({@link LaunchCommand}). */
    public List<String> command(Path aspects) throws IOException {
        return LaunchCommand.of(this, aspects);
    }
}
