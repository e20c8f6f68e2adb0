package org.dyper.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Problem;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;

/**
 * What every Dyper goal shares: the model and mode files (the CLI's {@code --model} and {@code --modes}), the skip
 * flag, and the mapping of Dyper's failure kinds to Maven's (an invalid model fails the build with every problem).
 */
abstract class AbstractDyperMojo extends AbstractMojo {
    /**
     * The patch models (MODEL files) that say where to measure; the CLI's {@code --model}. At least one is
     * required. On the command line: {@code -Ddyper.models=a.xml,b.xml}.
     */
    @Parameter(property = "dyper.models")
    protected List<File> models;

    /**
     * A questions file (docs/questions.md: one question per line, or a {@code <QUESTIONS>} XML file) instead of
     * models: the questions are compiled against the classes to weave into the least instrumentation that answers
     * them, and the answers come with the report. The weave goal puts the question table into the classes
     * ({@code META-INF/dyper/questions.txt}). On the command line: {@code -Ddyper.questions=FILE}.
     */
    @Parameter(property = "dyper.questions")
    protected File questions;

    /** The question table the last {@link #inputs} wrote (null without {@link #questions}). */
    protected Path questionTable;

    /**
     * Mode files (DYPATCH or DYPATCH_MODE files) defining the modes the models name; the CLI's
     * {@code --modes}. The modes of Dyper's library ({@code COUNT}, {@code TIME_ENTER}, {@code TIME_EXIT}, ...) need
     * none. On the command line: {@code -Ddyper.modes=a.xml,b.xml}.
     */
    @Parameter(property = "dyper.modes")
    protected List<File> modes;

    /**
     * Only classes matching one of these patterns may be patched (all when empty); {@code *} matches any run of
     * characters, e.g. {@code com.acme.service.*}. The CLI's {@code --include}.
     */
    @Parameter(property = "dyper.includes")
    protected List<String> includes;

    /** Classes matching one of these patterns are never patched, e.g. {@code *Test}. The CLI's {@code --exclude}. */
    @Parameter(property = "dyper.excludes")
    protected List<String> excludes;

    /** Skips the goal (the build goes on unwoven). */
    @Parameter(property = "dyper.skip", defaultValue = "false")
    protected boolean skip;

    /** The project being built. */
    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    protected MavenProject project;

    /** This plugin's own dependencies: where the Dyper runtime, aspectjrt and the weaver agent are taken from. */
    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    protected List<Artifact> pluginArtifacts;

    @Override
    public final void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("dyper: skipped (dyper.skip)");
            return;
        }
        try {
            run();
        } catch (InvalidInputException e) {
            throw invalid(e);
        } catch (WeaveException e) {
            throw new MojoFailureException("dyper: " + e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new MojoExecutionException("dyper: " + e.getFile() + ": no such file", e);
        } catch (IOException e) {
            throw new MojoExecutionException("dyper: " + e.getMessage(), e);
        }
    }

    /** The goal's work, after the skip check; Dyper's exceptions are mapped by {@link #execute()}. */
    protected abstract void run()
            throws MojoExecutionException, MojoFailureException, InvalidInputException, WeaveException, IOException;

    /** Every problem of every model and mode file, one {@code file:line:col: ELEMENT: message} line each. */
    static MojoFailureException invalid(InvalidInputException e) {
        String lines = e.listed().stream().map(p -> "  " + p).collect(Collectors.joining("\n"));
        return new MojoFailureException("dyper: " + e.errorCount()
                + " problem(s) in the model and mode files; nothing was woven:\n" + lines, e);
    }

    /**
     * The model and mode files as paths, or those the questions make (compiled against {@code targets}); fails the
     * build when one is missing, none is given, or a question cannot be answered.
     */
    protected Weaver.Inputs inputs(List<Path> targets, List<Path> classpath) throws MojoFailureException, IOException {
        Weaver.Inputs in;
        if (questions != null) {
            if (models != null && !models.isEmpty() || modes != null && !modes.isEmpty()) {
                throw new MojoFailureException("dyper: questions make their own model: leave out models and modes (a "
                        + "join point keeps one context; docs/questions.md)");
            }
            AskedFiles asked = AskedFiles.compile(questions.toPath(), targets,
                    Path.of(project.getBuild().getDirectory(), "dyper", "ask"), w -> getLog().warn("dyper: " + w));
            questionTable = asked.table();
            in = new Weaver.Inputs(List.of(asked.model()), List.of(asked.modes()), targets, classpath);
        } else {
            in = new Weaver.Inputs(existing("models", models, true), existing("modes", modes, false), targets,
                    classpath);
        }
        return in.withPatterns(includes == null ? List.of() : includes, excludes == null ? List.of() : excludes);
    }

    /** The files that say what to weave, for the weave goal's state: the questions file, or the models and modes. */
    protected List<Path> inputFiles() throws MojoFailureException {
        if (questions != null) {
            return List.of(questions.toPath());
        }
        List<Path> in = new ArrayList<>(existing("models", models, true));
        in.addAll(existing("modes", modes, false));
        return in;
    }

    private static List<Path> existing(String parameter, List<File> files, boolean required)
            throws MojoFailureException {
        List<Path> paths = new ArrayList<>();
        if (files != null) {
            for (File f : files) {
                if (!f.isFile()) {
                    throw new MojoFailureException("dyper: " + parameter + ": " + f + ": no such file");
                }
                paths.add(f.toPath());
            }
        }
        if (required && paths.isEmpty()) {
            throw new MojoFailureException("dyper: no model: configure <models><model>src/main/dyper/model.xml"
                    + "</model></models> or <questions>FILE</questions>, or pass -Ddyper.models=FILE");
        }
        return paths;
    }

    protected void warnings(GeneratedCode code) {
        for (Problem p : code.warnings()) {
            getLog().warn("dyper: " + p);
        }
    }

    protected void notes(List<String> notes) {
        for (String n : notes) {
            if (Weaver.isWarning(n)) {
                getLog().warn("dyper: " + n);
            } else {
                getLog().info("dyper: note: " + n);
            }
        }
    }

    /** The jar of one of this plugin's dependencies, by artifactId. */
    protected Path pluginJar(String artifactId) throws MojoExecutionException {
        for (Artifact a : pluginArtifacts) {
            if (a.getArtifactId().equals(artifactId) && a.getFile() != null) {
                return a.getFile().toPath().toAbsolutePath();
            }
        }
        throw new MojoExecutionException("dyper: the plugin's dependency " + artifactId + " was not resolved");
    }

    /** What woven code needs at run time: the Dyper runtime and aspectjrt that this plugin was built with. */
    protected List<Path> runtimeClasspath() throws MojoExecutionException {
        return List.of(pluginJar("dyper-runtime"), pluginJar("aspectjrt"));
    }

    /**
     * The dependencies named in {@code selection} ({@code groupId:artifactId}), in the project's order, with their
     * files; fails the build naming any entry that is not a resolved jar dependency of the project.
     */
    protected Map<Artifact, Path> selectDependencies(List<String> selection) throws MojoFailureException {
        Map<Artifact, Path> chosen = new LinkedHashMap<>();
        if (selection == null || selection.isEmpty()) {
            return chosen;
        }
        List<String> missing = new ArrayList<>();
        for (String wanted : selection) {
            String key = wanted.trim();
            Artifact found = null;
            for (Artifact a : project.getArtifacts()) {
                if ((a.getGroupId() + ":" + a.getArtifactId()).equals(key)) {
                    found = a;
                }
            }
            if (found == null || found.getFile() == null || !Files.exists(found.getFile().toPath())) {
                missing.add(key);
            } else {
                chosen.put(found, found.getFile().toPath());
            }
        }
        if (!missing.isEmpty()) {
            String known = project.getArtifacts().stream().map(a -> a.getGroupId() + ":" + a.getArtifactId())
                    .sorted().collect(Collectors.joining(", "));
            throw new MojoFailureException("dyper: weaveDependencies: " + String.join(", ", missing)
                    + " is not a resolved dependency of " + project.getArtifactId() + " (its dependencies: "
                    + (known.isEmpty() ? "none" : known) + ")");
        }
        return chosen;
    }

    /** Class path elements as paths, without {@code exclude}. */
    protected static List<Path> paths(List<String> elements, List<Path> exclude) {
        List<Path> out = new ArrayList<>();
        for (String e : elements) {
            Path p = Path.of(e).toAbsolutePath().normalize();
            if (exclude.stream().noneMatch(x -> x.toAbsolutePath().normalize().equals(p)) && Files.exists(p)) {
                out.add(p);
            }
        }
        return out;
    }
}
