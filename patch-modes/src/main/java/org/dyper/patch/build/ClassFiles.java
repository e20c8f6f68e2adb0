package org.dyper.patch.build;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.zip.ZipFile;

/**
 * Reads class files from a list of jars and folders, the first that holds an entry winning (class path order, as the
 * JVM finds them), each jar opened once. Jars are opened without verifying signatures; from a multi-release jar the
 * version a given Java release loads is read.
 */
final class ClassFiles implements AutoCloseable {
    private final List<Path> roots;
    private final Runtime.Version release;
    private final Map<Path, JarFile> open = new LinkedHashMap<>();

    /** {@code javaFeature}: the Java release whose versions of multi-release classes to read; 0 for the base ones. */
    ClassFiles(List<Path> roots, int javaFeature) {
        this.roots = List.copyOf(roots);
        this.release = javaFeature <= 0 ? null : Runtime.Version.parse(Integer.toString(Math.max(9, javaFeature)));
    }

    /** The bytes of {@code entry} from the first root that has it, or null. */
    byte[] read(String entry) throws IOException {
        for (Path root : roots) {
            if (Files.isDirectory(root)) {
                Path f = root.resolve(entry);
                if (Files.isRegularFile(f)) {
                    return Files.readAllBytes(f);
                }
            } else if (Files.isRegularFile(root)) {
                JarFile jar = open.get(root);
                if (jar == null) {
                    jar = release == null ? new JarFile(root.toFile(), false)
                            : new JarFile(root.toFile(), false, ZipFile.OPEN_READ, release);
                    open.put(root, jar);
                }
                JarEntry e = jar.getJarEntry(entry);
                if (e != null) {
                    try (InputStream data = jar.getInputStream(e)) {
                        return data.readAllBytes();
                    }
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (JarFile jar : open.values()) {
            try {
                jar.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
