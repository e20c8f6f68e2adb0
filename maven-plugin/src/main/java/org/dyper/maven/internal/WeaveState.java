package org.dyper.maven.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Remembers what the weave goal left behind, so a second build without {@code clean} does not weave woven classes
 * again: a hash over the model and mode files and every file of the class folder (and woven jar) after weaving.
 */
public final class WeaveState {
    private WeaveState() {}

    /** SHA-256 over the inputs' bytes and each output file's relative path, size and modification time. */
    public static String hash(List<Path> inputFiles, List<Path> outputs) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        update(digest, "dyper-weave-state-1");
        for (Path p : inputFiles) {
            update(digest, p.toAbsolutePath().toString());
            digest.update(Files.readAllBytes(p));
        }
        for (Path root : outputs) {
            update(digest, root.toAbsolutePath().toString());
            if (Files.isDirectory(root)) {
                try (var walk = Files.walk(root)) {
                    for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                        update(digest, root.relativize(f) + ":" + Files.size(f) + ":" + Files.getLastModifiedTime(f));
                    }
                }
            } else if (Files.exists(root)) {
                update(digest, Files.size(root) + ":" + Files.getLastModifiedTime(root));
            } else {
                update(digest, "missing");
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** True when {@code file} holds {@code hash}. */
    public static boolean matches(Path file, String hash) throws IOException {
        return Files.isRegularFile(file) && Files.readString(file, StandardCharsets.UTF_8).trim().equals(hash);
    }

    private static void update(MessageDigest digest, String s) {
        digest.update(s.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    public static void write(Path file, String hash) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, hash + "\n", StandardCharsets.UTF_8);
    }
}
