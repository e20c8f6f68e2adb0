package org.dyper.maven.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.build.Sha256;
import org.dyper.patch.build.TreeFingerprint;
import org.dyper.patch.build.Weaver;
import org.dyper.runtime.io.AtomicWrite;

/**
 * Remembers what the weave goal left behind, so a second build without {@code clean} does not weave woven classes
 * again: a hash over the model and mode files and every file of the class folder (and woven jar) after weaving, and
 * a second line naming the Dyper that wove them (its plugin, generator and runtime), so that classes woven by an
 * older Dyper are not taken for this one's.
 */
public final class WeaveState {
    private WeaveState() {}

    /** What the recorded state says about the classes now. */
    public enum Verdict {
        /** Woven with these models by this Dyper, and unchanged since. */
        WOVEN,
        /** Not woven yet, or the models or the classes changed since. */
        CHANGED,
        /** Woven with these models and unchanged, but by another build of Dyper (older, or rebuilt since). */
        OTHER_DYPER
    }

    /** SHA-256 over the inputs' paths and bytes and each output's {@link TreeFingerprint}. */
    public static String hash(List<Path> inputFiles, List<Path> outputs) throws IOException {
        Sha256 digest = new Sha256().addItem("dyper-weave-state-2");
        for (Path p : inputFiles) {
            digest.addItem(p.toAbsolutePath().toString()).add(Files.readAllBytes(p));
        }
        for (Path root : outputs) {
            TreeFingerprint.describe(root, digest::addItem);
        }
        return digest.hex(64);
    }

    /**
     * This Dyper: the {@link TreeFingerprint} of the plugin's jar, the generator's and weaver's, and the runtime jars
     * woven code runs with (each a jar, or a class folder in a reactor build).
     */
    public static String dyper() throws IOException {
        List<Path> own = new ArrayList<>();
        own.add(Weaver.codeOf(WeaveState.class));
        own.add(Weaver.codeOf(Weaver.class));
        own.addAll(Weaver.runtimeClasspath());
        return dyper(own);
    }

    static String dyper(List<Path> own) throws IOException {
        Sha256 digest = new Sha256().addItem("dyper-code-1");
        for (Path p : own) {
            if (p != null) {
                TreeFingerprint.describe(p, digest::addItem);
            }
        }
        return digest.hex(32);
    }

    /**
     * What {@code file} says of the classes whose state is {@code hash}, woven by {@code dyper}. A file of an older
     * plugin (one line, no Dyper named) with the same hash counts as another Dyper's.
     */
    public static Verdict check(Path file, String hash, String dyper) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Verdict.CHANGED;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).trim().equals(hash)) {
            return Verdict.CHANGED;
        }
        return lines.size() > 1 && lines.get(1).trim().equals("dyper " + dyper) ? Verdict.WOVEN : Verdict.OTHER_DYPER;
    }

    public static void write(Path file, String hash, String dyper) throws IOException {
        AtomicWrite.write(file, hash + "\ndyper " + dyper + "\n");
    }
}
