package org.dyper.maven.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dyper.patch.build.Sha256;
import org.dyper.patch.build.TreeFingerprint;
import org.dyper.runtime.io.AtomicWrite;

/**
 * Remembers what the weave goal left behind, so a second build without {@code clean} does not weave woven classes
 * again: a hash over the model and mode files and every file of the class folder (and woven jar) after weaving.
 */
public final class WeaveState {
    private WeaveState() {}

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

    /** True when {@code file} holds {@code hash}. */
    public static boolean matches(Path file, String hash) throws IOException {
        return Files.isRegularFile(file) && Files.readString(file, StandardCharsets.UTF_8).trim().equals(hash);
    }

    public static void write(Path file, String hash) throws IOException {
        AtomicWrite.write(file, hash + "\n");
    }
}
