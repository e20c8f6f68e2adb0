package org.dyper.patch.scan;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The classes Dyper may patch, by binary name, in the order they were found. {@link #classes()} lists only those
 * an include/exclude restriction admits; lookups ({@link #find}, {@link #field}) still see every scanned class, so an
 * excluded superclass still declares its fields.
 */
public final class ClassIndex {
    private final Map<String, ClassInfo> classes;
    private final java.util.function.Predicate<String> admit;

    public ClassIndex() {
        this(new LinkedHashMap<>(), new LinkedHashMap<>(), name -> true);
    }

    private ClassIndex(Map<String, ClassInfo> classes, Map<String, Origin> origins,
                       java.util.function.Predicate<String> admit) {
        this.classes = classes;
        this.origins = origins;
        this.admit = admit;
    }

    /** Where each class file was found: a class folder or jar, and the entry in it. */
    private record Origin(java.nio.file.Path root, String entry) {}

    private final Map<String, Origin> origins;

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
        try (Reader reader = reader()) {
            return reader.classFile(binaryName);
        }
    }

    /**
     * A reader of many scanned classes' files that opens each jar or folder once (opening a jar reads its whole
     * directory: per class, that was most of a broad generation's time); close it when done.
     */
    public Reader reader() {
        return new Reader();
    }

    /** See {@link #reader()}. */
    public final class Reader implements AutoCloseable {
        private final Map<java.nio.file.Path, ClassPath.Root> open = new LinkedHashMap<>();

        private Reader() {}

        /** As {@link ClassIndex#classFile}. */
        public byte[] classFile(String binaryName) throws java.io.IOException {
            Origin origin = origins.get(binaryName);
            if (origin == null) {
                throw new java.io.IOException("class " + binaryName + " was not scanned from a jar or folder");
            }
            ClassPath.Root root = open.get(origin.root());
            if (root == null) {
                root = ClassPath.root(origin.root(), 0);
                open.put(origin.root(), root);
            }
            byte[] bytes = root.read(origin.entry());
            if (bytes == null) {
                throw new java.io.IOException(origin.root() + "!/" + origin.entry() + ": gone since the scan");
            }
            return bytes;
        }

        @Override
        public void close() throws java.io.IOException {
            java.io.IOException failed = null;
            for (ClassPath.Root r : open.values()) {
                try {
                    r.close();
                } catch (java.io.IOException e) {
                    failed = e;
                }
            }
            open.clear();
            if (failed != null) {
                throw failed;
            }
        }
    }

    public Optional<ClassInfo> find(String binaryName) {
        return Optional.ofNullable(classes.get(binaryName));
    }

    /** The classes that may be patched. */
    public Collection<ClassInfo> classes() {
        return classes.values().stream().filter(c -> admit.test(c.name())).toList();
    }

    /** The same classes, of which only those whose binary names pass {@code admit} may be patched. */
    public ClassIndex restrict(java.util.function.Predicate<String> admit) {
        return new ClassIndex(classes, origins, this.admit.and(admit));
    }

    /** How many classes may be patched. */
    public int size() {
        return classes().size();
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
