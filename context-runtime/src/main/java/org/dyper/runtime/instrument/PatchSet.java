package org.dyper.runtime.instrument;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one INSTRUMENT inserts: the patched classes of one model, the generated classes they call (aspects and the
 * site-table class {@code DyperSites}, whose {@code BASE} the runtime chooses when it initialises, see
 * {@code Sites.base}), and the site table with the ids relative to that base. Made by the DYPATCH service
 * ({@code dyper patchd}, {@code dyper ctl instrument}); {@code id} identifies its content (the same model, modes and
 * classes give the same id, and the same ids in one JVM).
 *
 * <p>The aspect classes are named under {@link #aspectPrefix()} ({@code org/dyper/generated/r<id>/}); the patcher
 * defines a copy of them in every class loader whose classes it patches, renamed into a package of that loader, so
 * the classes they patch reach them whatever the loader. {@code runtimeJars} are the jars the woven code needs (the
 * Dyper and AspectJ runtimes): appended to the system class loader's search when their classes are not found there.
 */
public record PatchSet(String model, String id, String siteTable, List<ClassPatch> classes,
                       Map<String, byte[]> aspects, List<Path> runtimeJars) {
    public PatchSet {
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("a patch set needs a model name");
        }
        if (id == null || !id.matches("[0-9a-z]{1,40}")) {
            throw new IllegalArgumentException("a patch set id is 1 to 40 lower-case letters and digits, not '" + id
                    + "'");
        }
        classes = List.copyOf(classes);
        aspects = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(aspects));
        runtimeJars = List.copyOf(runtimeJars);
        siteTable = siteTable == null ? "" : siteTable;
    }

    /** The package prefix (internal form, with the trailing slash) of the aspect classes as the service named them. */
    public String aspectPrefix() {
        return aspectPrefix(id);
    }

    /** {@code org/dyper/generated/r<id>/}. */
    public static String aspectPrefix(String id) {
        return "org/dyper/generated/r" + id + "/";
    }
}
