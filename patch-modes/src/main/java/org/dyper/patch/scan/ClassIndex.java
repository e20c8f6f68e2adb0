package org.dyper.patch.scan;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The classes Dyper may patch, by binary name, in the order they were found. */
public final class ClassIndex {
    private final Map<String, ClassInfo> classes = new LinkedHashMap<>();

    /** Where each class file was found: a class folder or jar, and the entry in it. */
    private record Origin(java.nio.file.Path root, String entry) {}

    private final Map<String, Origin> origins = new LinkedHashMap<>();

    void add(ClassInfo info) {
        classes.putIfAbsent(info.name(), info);
    }

    void add(ClassInfo info, java.nio.file.Path root, String entry) {
        if (classes.putIfAbsent(info.name(), info) == null) {
            origins.put(info.name(), new Origin(root, entry));
        }
    }

    /** The class file of a scanned class, read again from its jar or folder (for the bytecode pass). */
    public byte[] classFile(String binaryName) throws java.io.IOException {
        Origin origin = origins.get(binaryName);
        if (origin == null) {
            throw new java.io.IOException("class " + binaryName + " was not scanned from a jar or folder");
        }
        java.nio.file.Path root = origin.root();
        String entry = origin.entry();
        if (java.nio.file.Files.isDirectory(root)) {
            return java.nio.file.Files.readAllBytes(root.resolve(entry));
        }
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(root.toFile());
             java.io.InputStream in = jar.getInputStream(jar.getEntry(entry))) {
            return in.readAllBytes();
        }
    }

    public Optional<ClassInfo> find(String binaryName) {
        return Optional.ofNullable(classes.get(binaryName));
    }

    public Collection<ClassInfo> classes() {
        return Collections.unmodifiableCollection(classes.values());
    }

    public int size() {
        return classes.size();
    }

    /** The field {@code name} visible in {@code className}: declared there or in a scanned superclass. */
    public Optional<FieldInfo> field(String className, String name) {
        for (String c = className; c != null; ) {
            ClassInfo info = classes.get(c);
            if (info == null) {
                return Optional.empty();
            }
            for (FieldInfo f : info.fields()) {
                if (f.name().equals(name)) {
                    return Optional.of(f);
                }
            }
            c = info.superName();
        }
        return Optional.empty();
    }
}
