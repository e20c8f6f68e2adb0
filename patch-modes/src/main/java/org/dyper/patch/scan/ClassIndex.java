package org.dyper.patch.scan;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The classes Dyper may patch, by binary name, in the order they were found. */
public final class ClassIndex {
    private final Map<String, ClassInfo> classes = new LinkedHashMap<>();

    void add(ClassInfo info) {
        classes.putIfAbsent(info.name(), info);
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
