package org.dyper.patch.scan;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.stream.Stream;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;

/**
 * Where class files (and the other files of a jar or class folder) are read from: a class folder, a jar (a
 * multi-release jar as a given Java release sees it), a class loader, or a compound of these searched in order, the
 * first part that holds an entry winning, as on a JVM's class path. Every step of the pipeline that reads class files
 * reads them through one: the scanner, the lookup of the classes modes call, missing-type detection and the weave's
 * jar copying.
 *
 * <p>A jar is opened when it is first read, once, and without verifying signatures (weaving drops them anyway);
 * closing the class path closes it. Entry names use {@code /} separators ({@code com/acme/App.class}).
 */
public interface ClassPath extends Closeable {
    /** An entry's bytes and where they were found, for messages ({@code /app.jar!/com/acme/App.class}). */
    record Found(byte[] bytes, String source) {
    }

    /** The entry {@code name}, from the first part that holds it, or null when none does. */
    Found find(String name) throws IOException;

    /** The bytes of the entry {@code name}, from the first part that holds it, or null when none does. */
    default byte[] read(String name) throws IOException {
        Found f = find(name);
        return f == null ? null : f.bytes();
    }

    /** The class file of the class {@code binaryName} ({@code com.acme.App}), or null when no part holds it. */
    default byte[] readClass(String binaryName) throws IOException {
        return read(binaryName.replace('.', '/') + ".class");
    }

    /** Closes the jars this class path opened. */
    @Override
    void close() throws IOException;

    /** Visits one entry: its name, modification time (-1 when unknown) and bytes. */
    @FunctionalInterface
    interface EntryVisitor {
        void visit(String name, long time, Bytes data) throws IOException;
    }

    /** An entry's bytes, read only when asked for; null for a jar's directory entries. */
    @FunctionalInterface
    interface Bytes {
        byte[] read() throws IOException;
    }

    /** One jar or class folder, whose entries can also be listed. */
    interface Root extends ClassPath {
        /** The jar or folder. */
        Path path();

        /** Where the entry {@code name} is, for messages: the file in a folder, {@code JAR!/name} in a jar. */
        String source(String name);

        /**
         * Visits every entry: a jar's in its order (directory entries, named with a trailing {@code /}, have no
         * bytes; a multi-release jar's versioned entries under their own {@code META-INF/versions/} names), a
         * folder's files sorted by relative name.
         */
        void forEach(EntryVisitor visitor) throws IOException;

        /** The names {@link #forEach} visits, in its order. */
        default List<String> entries() throws IOException {
            List<String> names = new ArrayList<>();
            forEach((name, time, data) -> names.add(name));
            return names;
        }
    }

    /**
     * The jar or class folder {@code path}; from a multi-release jar, {@link #find} reads the version Java
     * {@code javaFeature} loads (0: the base version).
     *
     * @throws IOException when {@code path} is neither a folder nor a file (naming it)
     */
    static Root root(Path path, int javaFeature) throws IOException {
        if (Files.isDirectory(path)) {
            return new Folder(path);
        }
        if (Files.isRegularFile(path)) {
            return new Jar(path, javaFeature);
        }
        throw new IOException(path + ": no such jar or class folder");
    }

    /**
     * The jars and folders of {@code roots} in order, as {@link #root} reads each; those that do not exist are left
     * out (a class path may name them, as the JVM's may).
     */
    static ClassPath of(List<Path> roots, int javaFeature) throws IOException {
        List<ClassPath> parts = new ArrayList<>();
        for (Path r : roots) {
            if (Files.exists(r)) {
                parts.add(root(r, javaFeature));
            }
        }
        return compound(parts);
    }

    /** The resources of {@code loader}: what it can load (it is not closed with the class path). */
    static ClassPath loader(ClassLoader loader) {
        return new Loader(loader);
    }

    /** {@code parts} searched in order; closing it closes each. */
    static ClassPath compound(List<? extends ClassPath> parts) {
        return new Compound(List.copyOf(parts));
    }

    /** A class folder, {@code path}. */
    record Folder(Path path) implements Root {
        @Override
        public Found find(String name) throws IOException {
            Path f = path.resolve(name);
            return Files.isRegularFile(f) ? new Found(Files.readAllBytes(f), source(name)) : null;
        }

        @Override
        public String source(String name) {
            return path.resolve(name).toString();
        }

        @Override
        public void forEach(EntryVisitor visitor) throws IOException {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(path)) {
                files = walk.filter(Files::isRegularFile).sorted().toList();
            }
            for (Path f : files) {
                visitor.visit(path.relativize(f).toString().replace('\\', '/'), -1, () -> Files.readAllBytes(f));
            }
        }

        @Override
        public void close() {
            // nothing open
        }

        @Override
        public String toString() {
            return path.toString();
        }
    }

    /** A jar, opened when first read. */
    final class Jar implements Root {
        private final Path file;
        private final Runtime.Version release;
        private JarFile open;

        private Jar(Path file, int javaFeature) {
            this.file = file;
            this.release = javaFeature <= 0 ? null : Runtime.Version.parse(Integer.toString(Math.max(9, javaFeature)));
        }

        private JarFile jar() throws IOException {
            if (open == null) {
                open = release == null ? new JarFile(file.toFile(), false)
                        : new JarFile(file.toFile(), false, ZipFile.OPEN_READ, release);
            }
            return open;
        }

        @Override
        public Path path() {
            return file;
        }

        @Override
        public Found find(String name) throws IOException {
            JarFile jar = jar();
            JarEntry e = jar.getJarEntry(name);
            if (e == null || e.isDirectory()) {
                return null;
            }
            try (InputStream in = jar.getInputStream(e)) {
                return new Found(in.readAllBytes(), source(name));
            }
        }

        @Override
        public String source(String name) {
            return file + "!/" + name;
        }

        @Override
        public void forEach(EntryVisitor visitor) throws IOException {
            JarFile jar = jar();
            Enumeration<JarEntry> all = jar.entries();
            while (all.hasMoreElements()) {
                JarEntry e = all.nextElement();
                visitor.visit(e.getName(), e.getTime(), () -> {
                    if (e.isDirectory()) {
                        return null;
                    }
                    try (InputStream in = jar.getInputStream(e)) {
                        return in.readAllBytes();
                    }
                });
            }
        }

        @Override
        public void close() throws IOException {
            if (open != null) {
                open.close();
                open = null;
            }
        }

        @Override
        public String toString() {
            return file.toString();
        }
    }

    /** What a class loader finds as resources. */
    final class Loader implements ClassPath {
        private final ClassLoader loader;

        private Loader(ClassLoader loader) {
            this.loader = loader;
        }

        @Override
        public Found find(String name) throws IOException {
            try (InputStream in = loader.getResourceAsStream(name)) {
                return in == null ? null : new Found(in.readAllBytes(), name);
            }
        }

        @Override
        public void close() {
            // the loader is its owner's
        }

        @Override
        public String toString() {
            return "class loader " + loader;
        }
    }

    /** Several parts, searched in order. */
    final class Compound implements ClassPath {
        private final List<ClassPath> parts;

        private Compound(List<ClassPath> parts) {
            this.parts = parts;
        }

        @Override
        public Found find(String name) throws IOException {
            for (ClassPath p : parts) {
                Found f = p.find(name);
                if (f != null) {
                    return f;
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            IOException failure = null;
            for (ClassPath p : parts) {
                try {
                    p.close();
                } catch (IOException e) {
                    if (failure == null) {
                        failure = e;
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        public String toString() {
            return parts.toString();
        }
    }
}
