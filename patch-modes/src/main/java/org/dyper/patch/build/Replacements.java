package org.dyper.patch.build;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.runtime.agent.ReplaceAgent;

/**
 * A replacement folder: class files prepared ahead of a launch, their index and the replace agent that hands them to
 * the JVM in place of the originals as they load ({@link ReplaceAgent}, whose constants name the files).
 */
public final class Replacements {
    /**
     * Where, in an aspect folder for load-time weaving, the bytecode pass or the launch weaving leaves the replacement
     * class files, their index and the agent jar.
     */
    public static final String DIR = "META-INF/dyper/replace";

    private Replacements() {}

    /**
     * Writes what load-time runs need to apply the bytecode pass: each patched class file under {@code dir} (by
     * internal name), the index (internal name TAB SHA-256 of the original bytes) and the agent jar.
     */
    static void writeBytecodePass(BytecodePlan plan, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> originals = new LinkedHashMap<>();
        for (BytecodePlan.ClassPlan c : plan.classes().values()) {
            String internal = c.className().replace('.', '/');
            Jars.write(dir.resolve(internal + ".class"), BytecodePlan.transform(c));
            originals.put(internal, ReplaceAgent.sha256(c.original()));
        }
        writeIndex(dir, "Dyper bytecode pass", originals);
    }

    /**
     * Writes a replacement folder's index, {@link ReplaceAgent#INDEX} (a {@code # what: ...} header, then internal name
     * TAB SHA-256 of the original class file per line), and the agent jar ({@link ReplaceAgent#AGENT_JAR}) beside it.
     */
    public static void writeIndex(Path dir, String what, Map<String, String> shaByInternalName) throws IOException {
        StringBuilder index = new StringBuilder("# " + what + ": class\tSHA-256 of the original class file\n");
        shaByInternalName.forEach((name, sha) -> index.append(name).append('\t').append(sha).append('\n'));
        Files.writeString(dir.resolve(ReplaceAgent.INDEX), index.toString(), StandardCharsets.UTF_8);
        writeAgentJar(dir.resolve(ReplaceAgent.AGENT_JAR));
    }

    /** Whether {@code dir} is a replacement folder (it has an index). */
    public static boolean isReplacementFolder(Path dir) {
        return Files.isRegularFile(dir.resolve(ReplaceAgent.INDEX));
    }

    /** The {@code -javaagent} argument that starts the replace agent on the replacement folder {@code dir}. */
    public static String agentArgument(Path dir) {
        return "-javaagent:" + dir.resolve(ReplaceAgent.AGENT_JAR) + "=replace=" + dir;
    }

    /**
     * A jar holding only the replace agent's classes (copied from the Dyper runtime, a jar or a classes folder) and a
     * manifest naming it as {@code Premain-Class}, so the runtime jar's own manifest stays free for other agents.
     */
    static void writeAgentJar(Path jarFile) throws IOException {
        Path runtime = Weaver.runtimeClasspath().get(0);
        String prefix = ReplaceAgent.class.getName().replace('.', '/');
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", ReplaceAgent.class.getName());
        try (OutputStream file = Files.newOutputStream(jarFile);
             JarOutputStream jar = new JarOutputStream(file, manifest)) {
            Jars.forEach(runtime, (name, time, data) -> {
                if (name.startsWith(prefix) && name.endsWith(".class")) {
                    jar.putNextEntry(new JarEntry(name));
                    jar.write(data.read());
                    jar.closeEntry();
                }
            });
        }
    }
}
