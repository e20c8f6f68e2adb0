package org.dyper.maven;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.Parameter;
import org.dyper.maven.internal.WeaveState;
import org.dyper.patch.build.Weaver;

/** What the build-time goals ({@code generate}, {@code weave}) share: the classes and dependencies they patch. */
abstract class AbstractWeavingMojo extends AbstractDyperMojo {
    /** The compiled classes the models patch; {@code weave} weaves them in place. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    protected File classesDirectory;

    /**
     * Dependencies whose classes the models patch too, as {@code groupId:artifactId}. {@code weave} writes a woven
     * copy of each to {@code wovenDependenciesDirectory} and makes it the dependency's file for the rest of the build
     * (tests, {@code dependency:copy-dependencies}, assembly and shade see the woven jar); the jar in the local
     * repository is never changed. On the command line: {@code -Ddyper.weaveDependencies=g:a,g2:a2}.
     */
    @Parameter(property = "dyper.weaveDependencies")
    protected List<String> weaveDependencies;

    /** Where woven copies of dependency jars are written. */
    @Parameter(defaultValue = "${project.build.directory}/dyper/woven-dependencies", required = true)
    protected File wovenDependenciesDirectory;

    protected Path classes() {
        return classesDirectory.toPath().toAbsolutePath();
    }

    protected Path wovenJar(Artifact a) {
        return wovenDependenciesDirectory.toPath().toAbsolutePath().resolve(a.getArtifactId() + "-" + a.getVersion()
                + (a.getClassifier() == null || a.getClassifier().isEmpty() ? "" : "-" + a.getClassifier()) + ".jar");
    }

    private Path stateFile() {
        return Path.of(project.getBuild().getDirectory(), "dyper", "weave-state.txt");
    }

    /** The weave goal's state: the models and modes, and every file it wrote. */
    private String state(Map<Artifact, Path> deps) throws IOException, MojoFailureException {
        List<Path> in = inputFiles();
        List<Path> out = new ArrayList<>();
        out.add(classes());
        deps.keySet().forEach(a -> out.add(wovenJar(a)));
        return WeaveState.hash(in, out);
    }

    /**
     * True when {@code weave} wove these classes with these models and nothing changed since. Classes that another
     * build of Dyper wove (an older plugin, or Dyper built again since) fail the build: they carry that Dyper's
     * generated code, which need not run with this one's runtime, and weaving them again would weave woven code.
     */
    protected boolean alreadyWoven(Map<Artifact, Path> deps) throws IOException, MojoFailureException {
        WeaveState.Verdict verdict = WeaveState.check(stateFile(), state(deps), WeaveState.dyper());
        if (verdict == WeaveState.Verdict.OTHER_DYPER) {
            throw new MojoFailureException("dyper: " + classes() + " was woven by another build of Dyper (an older "
                    + "dyper-maven-plugin, or Dyper built again since; " + stateFile() + "), and still holds that "
                    + "Dyper's generated code: run 'mvn clean' (or delete " + classes() + ") so that the classes are "
                    + "compiled and woven again by this one");
        }
        return verdict == WeaveState.Verdict.WOVEN;
    }

    protected void recordWoven(Map<Artifact, Path> deps) throws IOException, MojoFailureException {
        WeaveState.write(stateFile(), state(deps), WeaveState.dyper());
    }
}
