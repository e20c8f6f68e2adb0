package org.dyper.patch.scan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        try (ClassPath cp = ClassPath.compound(List.of(ClassPath.of(classPath, 0), ClassPath.loader(fallback)))) {
            ClassPath.Found f = cp.find(binaryName.replace('.', '/') + ".class");
            return f == null ? Optional.empty()
                    : Optional.of(ClassScanner.read(f.bytes(), f.source()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
