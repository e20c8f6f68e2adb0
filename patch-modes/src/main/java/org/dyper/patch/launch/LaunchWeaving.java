package org.dyper.patch.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.AjcBatches;
import org.dyper.patch.build.Jars;
import org.dyper.patch.build.PatchedClasses;
import org.dyper.patch.build.Replacements;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;

/** Weaving ahead of a launch: the classes a launch patches, woven once into a folder the replace agent serves. */
public final class LaunchWeaving {
    /**
     * Marks an aspect folder made by {@link #weave}: its classes are woven already, so a launch needs the replace agent
     * only, not the AspectJ weaver agent.
     */
    public static final String PREWOVEN = "META-INF/dyper/prewoven";

    private LaunchWeaving() {}

    /**
     * Weaves, ahead of a launch, only the classes the generated aspects touch ({@link GeneratedCode#wovenClasses()}),
     * read from the first of {@code targets} that holds each (class path order, as the JVM finds them). Leaves in
     * {@code classesDir}: the compiled aspects and any class ajc added (closures), the site table, the marker
     * {@link #PREWOVEN}, and under {@link Replacements#DIR} the woven classes with their index and the replace agent
     * jar that hands them to the JVM in place of the originals. The bytecode pass, if any, is applied before ajc, as
     * binary weaving does. The program runs on Java {@code javaFeature}: from a multi-release jar, the class file that
     * release loads is the one woven. Tells {@code progress} how a weave of several batches goes; returns ajc's
     * warnings.
     */
    public static List<String> weave(GeneratedCode code, List<Path> targets, List<Path> classpath, Path classesDir,
            int javaFeature, Consumer<String> progress) throws IOException, WeaveException {
        Map<String, String> originals = new TreeMap<>();
        Map<String, byte[]> inputs = PatchedClasses.read(code, targets, javaFeature, originals);
        List<Path> cp = new ArrayList<>(targets);
        cp.addAll(classpath);
        AjcBatches.Result result = AjcBatches.weave(code, inputs, cp, progress);
        Path replace = classesDir.resolve(Replacements.DIR);
        Files.createDirectories(replace);
        for (Map.Entry<String, byte[]> c : result.classes().entrySet()) {
            Jars.write((originals.containsKey(c.getKey()) ? replace : classesDir).resolve(c.getKey() + ".class"),
                    c.getValue());
        }
        Replacements.writeIndex(replace, "Dyper launch weaving", originals);
        Weaver.writeSiteTable(code, classesDir);
        Files.writeString(classesDir.resolve(PREWOVEN), originals.size() + " class(es) woven ahead of the launch\n",
                StandardCharsets.UTF_8);
        return result.warnings();
    }
}
