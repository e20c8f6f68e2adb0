package org.dyper.patch.scan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.ClassScanner;

/**
 * Finds the classes a mode's CODE calls: first in the given class path (jars and folders), then among the classes
 * the generator itself can load (Dyper's runtime). Results are cached.
 */
public final class ClassLookup {
    private final List<Path> classPath;
    private final ClassLoader fallback;
    private final Map<String, Optional<ClassInfo>> cache = new HashMap<>();

    public ClassLookup(List<Path> classPath, ClassLoader fallback) {
        this.classPath = List.copyOf(classPath);
        this.fallback = fallback;
    }

    public Optional<ClassInfo> find(String binaryName) {
        return cache.computeIfAbsent(binaryName, this::load);
    }

    private Optional<ClassInfo> load(String binaryName) {
        String entry = binaryName.replace('.', '/') + ".class";
        try {
            for (Path root : classPath) {
                if (Files.isDirectory(root)) {
                    Path file = root.resolve(entry);
                    if (Files.isRegularFile(file)) {
                        try (InputStream in = Files.newInputStream(file)) {
                            return Optional.of(ClassScanner.read(in, file.toString()));
                        }
                    }
                } else if (Files.isRegularFile(root)) {
                    try (JarFile jar = new JarFile(root.toFile())) {
                        ZipEntry e = jar.getEntry(entry);
                        if (e != null) {
                            try (InputStream in = jar.getInputStream(e)) {
                                return Optional.of(ClassScanner.read(in, root + "!/" + entry));
                            }
                        }
                    }
                }
            }
            try (InputStream in = fallback.getResourceAsStream(entry)) {
                if (in != null) {
                    return Optional.of(ClassScanner.read(in, entry));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
