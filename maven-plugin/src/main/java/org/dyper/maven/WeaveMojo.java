package org.dyper.maven;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.build.Generation;
import org.dyper.patch.build.WeaveException;
import org.dyper.runtime.io.AtomicWrite;
import org.dyper.patch.build.Weaver;

/**
 * Weaves the project's compiled classes in place, and the dependency jars named in {@code weaveDependencies}, with
 * aspects generated from the models: after this goal, {@code target/classes} (and so the packaged jar) holds the
 * woven classes, the compiled aspects and the site table ({@code META-INF/dyper/sites.tsv}). The woven program needs
 * {@code org.dyper:dyper-runtime} and {@code org.aspectj:aspectjrt} at run time; the class path to run it with is
 * written to {@code target/dyper/classpath.txt}. Uses the same generator and weaver as {@code dyper weave}.
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME)
public class WeaveMojo extends AbstractWeavingMojo {
    /**
     * Where the class path for running the woven program is written (one line, entries separated by the platform's
     * path separator): the project's runtime dependencies (woven copies where woven), the Dyper runtime and aspectjrt.
     * Run with {@code java -cp target/app.jar:$(cat target/dyper/classpath.txt) Main}.
     */
    @Parameter(defaultValue = "${project.build.directory}/dyper/classpath.txt", required = true)
    private File classpathFile;

    /** Logs ajc's notes and warnings about the weaving. */
    @Parameter(property = "dyper.verbose", defaultValue = "false")
    private boolean verbose;

    @Override
    protected void run() throws MojoExecutionException, MojoFailureException, InvalidInputException,
            WeaveException, IOException {
        Path classes = classesDirectory.toPath().toAbsolutePath();
        if (!Files.isDirectory(classes)) {
            getLog().info("dyper: " + classes + " does not exist: nothing to weave");
            return;
        }
        Map<Artifact, Path> deps = selectDependencies(weaveDependencies);
        Path wovenDir = wovenDependenciesDirectory.toPath().toAbsolutePath();
        if (alreadyWoven(deps)) {
            getLog().info("dyper: " + classes + " is already woven with these models (run clean to weave again)");
            useWovenDependencies(deps);
            writeClasspath(deps);
            return;
        }

        List<Path> targets = new ArrayList<>();
        targets.add(classes);
        targets.addAll(deps.values());
        List<Path> classpath;
        try {
            classpath = paths(project.getCompileClasspathElements(), targets);
            for (Path p : paths(project.getRuntimeClasspathElements(), targets)) {
                if (!classpath.contains(p)) {
                    classpath.add(p);
                }
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("dyper: dependencies not resolved: " + e.getMessage(), e);
        }
        long start = System.nanoTime();
        Generation generation = Generation.of(inputs(targets, classpath), false);
        if (generation.code().adviceCount() == 0) {
            warnings(generation.code());
            getLog().warn("dyper: the models patch nothing in " + targets + ": nothing was woven");
            return;
        }
        List<Path> weaveCp = new ArrayList<>(classpath);
        weaveCp.addAll(deps.values());
        Files.createDirectories(wovenDir);
        // the dependency jars first: they are written to new files, so a retry after ajc met a missing type (see
        // Generation.weave) starts again from the same inputs; the classes folder is woven in place, last
        List<String> notes = generation.weave(code -> {
            List<String> n = new ArrayList<>();
            for (Map.Entry<Artifact, Path> d : deps.entrySet()) {
                List<Path> cp = new ArrayList<>(classpath);
                cp.add(classes);
                deps.values().stream().filter(p -> !p.equals(d.getValue())).forEach(cp::add);
                n.addAll(Weaver.weaveBinary(code, d.getValue(), wovenJar(d.getKey()), cp,
                        line -> getLog().info("dyper: " + line)));
            }
            n.addAll(Weaver.weaveFolderInPlace(code, classes, weaveCp, line -> getLog().info("dyper: " + line)));
            return n;
        });
        GeneratedCode code = generation.code();
        warnings(code);
        // warnings (advice AspectJ did not apply) always; ajc's other notes with dyper.verbose
        notes(verbose ? notes : notes.stream().filter(Weaver::isWarning).toList());
        if (questionTable != null) {
            // beside the site table: the runtime reads it when no -Ddyper.ask names one (Questions.RESOURCE)
            Path table = classes.resolve(org.dyper.runtime.ask.Questions.RESOURCE);
            Files.createDirectories(table.getParent());
            AtomicWrite.write(table, Files.readString(questionTable, StandardCharsets.UTF_8));
        }
        useWovenDependencies(deps);
        writeClasspath(deps);
        recordWoven(deps);
        getLog().info(String.format("dyper: wove %d class(es) with %d advice (%d site id(s)) in %s%s in %.1f s",
                code.wovenClasses().size(), code.adviceCount(), code.siteCount(), classes,
                deps.isEmpty() ? "" : " and " + deps.size() + " dependency jar(s)", (System.nanoTime() - start) / 1e9));
    }

    /** Points the rest of the build at the woven copies. */
    private void useWovenDependencies(Map<Artifact, Path> deps) {
        for (Artifact a : deps.keySet()) {
            a.setFile(wovenJar(a).toFile());
        }
    }

    private void writeClasspath(Map<Artifact, Path> deps)
            throws MojoExecutionException, IOException {
        List<String> entries = new ArrayList<>();
        try {
            for (Path p : paths(project.getRuntimeClasspathElements(),
                    List.of(classesDirectory.toPath().toAbsolutePath()))) {
                entries.add(p.toString());
            }
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("dyper: dependencies not resolved: " + e.getMessage(), e);
        }
        for (Map.Entry<Artifact, Path> d : deps.entrySet()) {
            int i = entries.indexOf(d.getValue().toAbsolutePath().normalize().toString());
            String woven = wovenJar(d.getKey()).toString();
            if (i >= 0) {
                entries.set(i, woven);
            } else if (!entries.contains(woven)) {
                entries.add(woven);
            }
        }
        for (Path p : runtimeClasspath()) {
            if (!entries.contains(p.toString())) {
                entries.add(p.toString());
            }
        }
        Path file = classpathFile.toPath();
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, String.join(File.pathSeparator, entries) + "\n", StandardCharsets.UTF_8);
    }
}
