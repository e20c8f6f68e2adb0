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
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;

/**
 * Turns the models and modes into AspectJ source: the aspects go to {@code target/generated-sources/dyper} (with
 * {@code aop.xml} and {@code sites.tsv} beside them, for reading and review), and the site table and {@code aop.xml}
 * into the build output under {@code META-INF/dyper/}. It validates the models (an invalid model fails the build
 * with every problem as {@code file:line:col: ELEMENT: message}). The generator resolves every {@code FOR} against
 * the compiled classes, so the goal runs in {@code process-classes}, before {@code weave}; the aspects are compiled
 * by ajc in {@code weave}, never by javac. Uses the same generator as {@code dyper generate}.
 */
@Mojo(name = "generate", defaultPhase = LifecyclePhase.PROCESS_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.COMPILE_PLUS_RUNTIME)
public class GenerateMojo extends AbstractWeavingMojo {
    /** Where the generated aspect sources, {@code aop.xml} and {@code sites.tsv} are written. */
    @Parameter(defaultValue = "${project.build.directory}/generated-sources/dyper", required = true)
    private File outputDirectory;

    @Override
    protected void run() throws MojoExecutionException, MojoFailureException, InvalidInputException,
            WeaveException, IOException {
        Path classes = classes();
        Map<Artifact, Path> deps = selectDependencies(weaveDependencies);
        if (alreadyWoven(deps)) {
            getLog().info("dyper: " + classes + " is already woven with these models; the generated sources are kept"
                    + " (run clean to generate again)");
            return;
        }
        List<Path> targets = new ArrayList<>();
        if (Files.isDirectory(classes)) {
            targets.add(classes);
        }
        targets.addAll(deps.values());
        List<Path> classpath;
        try {
            classpath = paths(project.getCompileClasspathElements(), targets);
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("dyper: dependencies not resolved: " + e.getMessage(), e);
        }
        GeneratedCode code = Weaver.generate(inputs(targets, classpath));
        warnings(code);
        Path out = outputDirectory.toPath();
        List<Path> written = Weaver.writeSources(code, out);
        if (Files.isDirectory(classes)) {
            Path sites = classes.resolve(Weaver.SITE_TABLE);
            Files.createDirectories(sites.getParent());
            Files.writeString(sites, code.siteTable(), StandardCharsets.UTF_8);
            Files.writeString(sites.resolveSibling("aop.xml"), code.aopXml(), StandardCharsets.UTF_8);
        }
        getLog().info("dyper: generated " + code.adviceCount() + " advice for " + code.siteCount() + " site id(s) in "
                + code.wovenClasses().size() + " class(es): " + written.size() + " aspect source(s), aop.xml and "
                + "sites.tsv in " + out);
    }
}
