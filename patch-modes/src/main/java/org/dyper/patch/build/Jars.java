package org.dyper.patch.build;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Reads the entries of a jar or class folder alike, and writes entries into a folder: the loops every weave needs to
 * copy classes in and out, written once. Jars are read without verifying signatures.
 */
public final class Jars {
    private Jars() {}

    /** An entry's bytes, read only when asked for. */
    @FunctionalInterface
    public interface Bytes {
        byte[] read() throws IOException;
    }

    /** Visits one entry: its name ('/' separators), modification time (-1 when unknown) and bytes. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(String name, long time, Bytes data) throws IOException;
    }

    /**
     * Visits every entry of a jar (in its order; directory entries, named with a trailing '/', have no bytes) or every
     * file of a folder (sorted by relative name).
     */
    public static void forEach(Path input, EntryVisitor visitor) throws IOException {
        if (Files.isDirectory(input)) {
            for (String name : entries(input)) {
                visitor.visit(name, -1, () -> Files.readAllBytes(input.resolve(name)));
            }
            return;
        }
        try (ZipFile zip = new ZipFile(input.toFile())) {
            Enumeration<? extends ZipEntry> all = zip.entries();
            while (all.hasMoreElements()) {
                ZipEntry e = all.nextElement();
                visitor.visit(e.getName(), e.getTime(), () -> {
                    if (e.isDirectory()) {
                        return null;
                    }
                    try (InputStream in = zip.getInputStream(e)) {
                        return in.readAllBytes();
                    }
                });
            }
        }
    }

    /** Entry names of a jar (in its order) or relative file names of a folder (sorted), with '/' separators. */
    public static List<String> entries(Path input) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(input)) {
            try (var walk = Files.walk(input)) {
                walk.filter(Files::isRegularFile).sorted()
                        .forEach(f -> names.add(input.relativize(f).toString().replace('\\', '/')));
            }
            return names;
        }
        forEach(input, (name, time, data) -> names.add(name));
        return names;
    }

    /** One entry's bytes, or null when absent. */
    public static byte[] read(Path input, String name) throws IOException {
        if (Files.isDirectory(input)) {
            Path f = input.resolve(name);
            return Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
        }
        try (ZipFile zip = new ZipFile(input.toFile())) {
            ZipEntry e = zip.getEntry(name);
            if (e == null) {
                return null;
            }
            try (InputStream in = zip.getInputStream(e)) {
                return in.readAllBytes();
            }
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
