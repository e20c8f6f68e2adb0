package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dyper.patch.scan.ClassPath;
import java.util.List;
import java.util.Map;

/**
 * Reads the entries of a jar or class folder alike (through {@link ClassPath}), and writes entries into a folder: the
 * loops every weave needs to copy classes in and out, written once. Jars are read without verifying signatures.
 */
public final class Jars {
    private Jars() {}

    /**
     * Visits every entry of a jar (in its order; directory entries, named with a trailing '/', have no bytes) or every
     * file of a folder (sorted by relative name).
     */
    public static void forEach(Path input, ClassPath.EntryVisitor visitor) throws IOException {
        try (ClassPath.Root root = ClassPath.root(input, 0)) {
            root.forEach(visitor);
        }
    }

    /** Entry names of a jar (in its order) or relative file names of a folder (sorted), with '/' separators. */
    public static List<String> entries(Path input) throws IOException {
        try (ClassPath.Root root = ClassPath.root(input, 0)) {
            return root.entries();
        }
    }

    /** One entry's bytes, or null when absent. */
    public static byte[] read(Path input, String name) throws IOException {
        try (ClassPath.Root root = ClassPath.root(input, 0)) {
            return root.read(name);
        }
    }

    /** Writes each of {@code files} (by relative name, '/' separators) under {@code dir}, making folders as needed. */
    public static void writeAll(Path dir, Map<String, byte[]> files) throws IOException {
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            write(dir.resolve(f.getKey()), f.getValue());
        }
    }

    /** Writes {@code bytes} to {@code file}, making its folder first. */
    public static void write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }
}
