package org.dyper.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.launch.LaunchCache;
import org.dyper.patch.launch.LaunchOptions;
import org.dyper.patch.launch.ProgramProcess;
import org.dyper.patch.build.WeaveException;

/**
 * Runs the project's main class (or a given {@code java} command line) instrumented, like {@code exec:java}, and
 * prints or writes Dyper's report when the program ends. It is {@code dyper run}: the classes the models patch are
 * woven once into {@code cacheDirectory} (keyed by a hash of every input), and the program runs in a new JVM with a
 * small agent that swaps the woven classes in as they load, the DYPER monitor, and the aspects and the Dyper runtime
 * added to its class path ({@code weaverAgent} weaves with the AspectJ weaver agent at load time instead). The
 * classes on the program's class path are what the models can patch. A program that
 * exits with a code other than 0 fails the build with that code in the message (the CLI returns it as its own).
 * Run it after {@code compile}: {@code mvn compile dyper:run}.
 */
@Mojo(name = "run", threadSafe = true, requiresDependencyResolution = ResolutionScope.RUNTIME)
public class RunMojo extends AbstractDyperMojo {
    /**
     * The class whose {@code main} runs; the program's class path is the project's output folder and runtime
     * dependencies. Required unless {@code commandLine} is given.
     */
    @Parameter(property = "dyper.mainClass")
    private String mainClass;

    /** The program's arguments (after the main class). */
    @Parameter
    private List<String> arguments;

    /** Options for the program's JVM, before the main class ({@code -Xmx256m}, {@code -Dkey=value}, ...). */
    @Parameter
    private List<String> jvmArguments;

    /**
     * The whole {@code java} command line instead of {@code mainClass}, {@code arguments} and {@code jvmArguments}:
     * exactly what follows {@code --} in {@code dyper run} (for example {@code -cp}, a path, a main class and its
     * arguments, or {@code -jar app.jar}).
     */
    @Parameter
    private List<String> commandLine;

    /**
     * Where the text report goes when the program ends: {@code stderr} (the runtime's default), {@code stdout},
     * {@code none}, or a file (relative to the project folder); the CLI's {@code --report}.
     */
    @Parameter(property = "dyper.report")
    private String report;

    /** Also write the XML report (format: docs/runtime-contract.md) to this file; the CLI's {@code --xml}. */
    @Parameter(property = "dyper.xmlReport")
    private File xmlReport;

    /** Where woven classes and compiled aspects are cached between runs; the CLI's {@code --cache}. */
    @Parameter(property = "dyper.cache", defaultValue = "${project.build.directory}/dyper/ltw-cache", required = true)
    private File cacheDirectory;

    /** The {@code java} executable to run the program with; by default the one of the JVM that runs Maven. */
    @Parameter(property = "dyper.java")
    private File javaExecutable;

    /** The program's working directory. */
    @Parameter(property = "dyper.workingDirectory", defaultValue = "${project.basedir}", required = true)
    private File workingDirectory;

    /**
     * Weave as classes load with the AspectJ weaver agent instead of once, ahead of the launch (the default, which
     * starts faster and runs the binary-woven hot path); the CLI's {@code --weaver-agent}.
     */
    @Parameter(property = "dyper.weaverAgent", defaultValue = "false")
    private boolean weaverAgent;

    /** Start the DYPER monitor in the program (loopback, token; docs/monitor.md); the CLI's {@code --no-monitor}. */
    @Parameter(property = "dyper.monitor", defaultValue = "true")
    private boolean monitor;

    /** Monitor agent options, e.g. {@code CHECKTIME=5,dir=/tmp/run}; the CLI's {@code --monitor}. */
    @Parameter(property = "dyper.monitorOptions")
    private String monitorOptions;

    /**
     * Shows the cache folder and the command that runs (with {@code weaverAgent}, also what the weaver does); the
     * CLI's {@code --verbose}.
     */
    @Parameter(property = "dyper.verbose", defaultValue = "false")
    private boolean verbose;

    @Override
    protected void run() throws MojoExecutionException, MojoFailureException, InvalidInputException,
            WeaveException, IOException {
        List<String> javaArgs = javaArguments();
        Path java = javaExecutable != null ? javaExecutable.toPath()
                : Path.of(System.getProperty("java.home"), "bin", "java");
        LaunchOptions launch = LaunchOptions.of(java, javaArgs, pluginJar("aspectjweaver"), runtimeClasspath())
                .withWeaving(weaverAgent ? LaunchOptions.Weaving.AGENT : LaunchOptions.Weaving.AHEAD)
                .withReport(new LaunchOptions.Report(reportDestination(), xmlReport == null ? null
                        : xmlReport.getAbsolutePath()))
                .withVerbose(verbose).withMonitor(monitor, monitorOptions);
        List<Path> targets;
        try {
            targets = launch.targets();
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("dyper: run: " + e.getMessage(), e);
        }
        if (targets.isEmpty()) {
            throw new MojoFailureException("dyper: run: nothing on the program's class path exists (" + javaArgs
                    + "): run it after compile (mvn compile dyper:run)");
        }
        LaunchCache.Prepared prepared = LaunchCache.prepare(inputs(targets, List.of()), cacheDirectory.toPath(),
                launch.weaving(), launch.javaFeature(), line -> getLog().info("dyper: " + line));
        // the warnings are kept with the cache entry: a reused one shows them again
        prepared.warnings().forEach(w -> getLog().warn("dyper: " + w));
        notes(prepared.notes());
        if (verbose) {
            getLog().info("dyper: " + (weaverAgent ? "aspects " : "woven classes and aspects ")
                    + (prepared.cached() ? "reused from " : "made in ") + prepared.aspects());
        }
        List<String> command;
        try {
            command = new ArrayList<>(launch.command(prepared.aspects()));
            if (questionTable != null) {
                command.add(1, "-D" + org.dyper.runtime.ask.Questions.PROPERTY + "=" + questionTable.toAbsolutePath());
            }
        } catch (IllegalArgumentException e) {
            throw new MojoFailureException("dyper: run: " + e.getMessage(), e);
        }
        if (xmlReport != null) {
            Files.createDirectories(xmlReport.toPath().toAbsolutePath().getParent());
        }
        if (verbose) {
            getLog().info("dyper: " + String.join(" ", command));
        }
        int exit;
        try {
            exit = ProgramProcess.run(command, workingDirectory.toPath());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("dyper: run: interrupted; the program was stopped", e);
        }
        if (exit != 0) {
            throw new MojoFailureException("dyper: run: the program exited with code " + exit);
        }
    }

    /** The text report destination, a relative file resolved against the project folder. */
    private String reportDestination() {
        if (report == null || report.isBlank()) {
            return null;
        }
        String r = report.trim();
        if (r.equals("stderr") || r.equals("stdout") || r.equals("none")) {
            return r;
        }
        return project.getBasedir().toPath().resolve(r).toAbsolutePath().toString();
    }

    private List<String> javaArguments() throws MojoFailureException, MojoExecutionException {
        if (commandLine != null && !commandLine.isEmpty()) {
            if (mainClass != null || (arguments != null && !arguments.isEmpty())
                    || (jvmArguments != null && !jvmArguments.isEmpty())) {
                throw new MojoFailureException("dyper: run: give either commandLine or mainClass (with arguments and "
                        + "jvmArguments), not both");
            }
            return new ArrayList<>(commandLine);
        }
        if (mainClass == null || mainClass.isBlank()) {
            throw new MojoFailureException("dyper: run: no program: configure <mainClass>, pass -Ddyper.mainClass=..."
                    + ", or give a <commandLine>");
        }
        List<String> cp = new ArrayList<>();
        try {
            for (String e : project.getRuntimeClasspathElements()) {
                if (Files.exists(Path.of(e))) {
                    cp.add(e);
                }
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("dyper: dependencies not resolved: " + e.getMessage(), e);
        }
        List<String> args = new ArrayList<>();
        if (jvmArguments != null) {
            args.addAll(jvmArguments);
        }
        args.add("-cp");
        args.add(String.join(File.pathSeparator, cp));
        args.add(mainClass.trim());
        if (arguments != null) {
            args.addAll(arguments);
        }
        return args;
    }
}
