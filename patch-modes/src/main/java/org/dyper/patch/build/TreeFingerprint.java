package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * What tells one state of a jar or class folder from another without reading its files: its path, then every file's
 * relative path, size and modification time (in nanoseconds), in sorted order. The launch cache's key and the Maven
 * plugin's record of what it wove both hash these items, each with its own hash.
 */
public final class TreeFingerprint {
    private TreeFingerprint() {
    }

    /** Gives {@code items} the fingerprint of {@code root}, item by item ({@code missing} when it does not exist). */
    public static void describe(Path root, Consumer<String> items) throws IOException {
        items.accept(root.toAbsolutePath().toString());
        if (Files.isDirectory(root)) {
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                    items.accept(root.relativize(f) + ":" + sizeAndTime(f));
                }
            }
        } else if (Files.exists(root)) {
            items.accept(sizeAndTime(root));
        } else {
            items.accept("missing");
        }
    }

    private static String sizeAndTime(Path file) throws IOException {
        return Files.size(file) + ":" + Files.getLastModifiedTime(file).to(TimeUnit.NANOSECONDS);
    }
}
