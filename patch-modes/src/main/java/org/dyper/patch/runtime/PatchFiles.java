package org.dyper.patch.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dyper.patch.build.Jars;
import org.dyper.runtime.instrument.ClassPatch;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.PatchSetFiles;
import org.dyper.runtime.io.AtomicWrite;

/**
 * A {@link RuntimePatch} as files, the form the DYPATCH service hands to INSTRUMENT: a folder per patch id holding
 * {@code orig/} and {@code patch/} class files (by internal name), {@code aspects/}, {@code sites.tsv} and an index,
 * {@code index.tsv}. A folder is written once (to a temporary folder beside it, then renamed) and then reused: it is
 * the cache of patched class files, keyed by the id, which hashes the original bytes, the model and the modes.
 */
public final class PatchFiles {
    private static final String INDEX = "index.tsv";

    private PatchFiles() {}

    /** The folder of patch {@code id} under {@code root}, or null when it was not written (completely) yet. */
    public static Path find(Path root, String id) {
        Path dir = root.resolve(id);
        return Files.isRegularFile(dir.resolve(INDEX)) ? dir : null;
    }

    /** Writes {@code patch} under {@code root} (unless it is there already) and returns its folder. */
    public static Path write(RuntimePatch patch, Path root) throws IOException {
        Path existing = find(root, patch.id());
        if (existing != null) {
            return existing;
        }
        org.dyper.runtime.wire.RegistryFiles.createPrivateDirectories(root);
        Path tmp = Files.createTempDirectory(root, patch.id() + ".tmp");
        try {
            StringBuilder index = new StringBuilder("# Dyper run-time patch: key TAB value\n");
            index.append("format\t").append(RuntimeWeaving.FORMAT).append('\n');
            index.append("model\t").append(patch.model()).append('\n');
            index.append("id\t").append(patch.id()).append('\n');
            for (Map.Entry<String, byte[]> c : patch.originals().entrySet()) {
                String file = c.getKey().replace('.', '/') + ".class";
                put(tmp.resolve("orig").resolve(file), c.getValue());
                byte[] patched = patch.patched().get(c.getKey());
                if (patched != null) {
                    put(tmp.resolve("patch").resolve(file), patched);
                }
                index.append("class\t").append(c.getKey()).append('\t').append(patched != null).append('\n');
            }
            for (Map.Entry<String, byte[]> a : patch.aspects().entrySet()) {
                put(tmp.resolve("aspects").resolve(a.getKey() + ".class"), a.getValue());
                index.append("aspect\t").append(a.getKey()).append('\n');
            }
            for (String note : patch.notes()) {
                index.append("note\t").append(note.replace('\n', ' ').replace('\t', ' ')).append('\n');
            }
            Files.writeString(tmp.resolve("sites.tsv"), patch.siteTable(), StandardCharsets.UTF_8);
            Files.writeString(tmp.resolve(INDEX), index, StandardCharsets.UTF_8);
            Path dir = root.resolve(patch.id());
            AtomicWrite.publishFolder(tmp, dir, d -> find(root, patch.id()) != null);
            return dir;
        } finally {
            org.dyper.patch.build.Weaver.deleteTree(tmp);
        }
    }

    private static void put(Path file, byte[] bytes) throws IOException {
        Jars.write(file, bytes);
    }

    /** Reads the patch in {@code dir} (written by {@link #write}). */
    public static RuntimePatch read(Path dir) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, byte[]> originals = new LinkedHashMap<>();
        Map<String, byte[]> patched = new LinkedHashMap<>();
        Map<String, byte[]> aspects = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(INDEX), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t", -1);
            if (line.startsWith("#") || f.length < 2) {
                continue;
            }
            switch (f[0]) {
                case "class" -> {
                    String file = f[1].replace('.', '/') + ".class";
                    originals.put(f[1], Files.readAllBytes(dir.resolve("orig").resolve(file)));
                    if (f.length > 2 && f[2].equals("true")) {
                        patched.put(f[1], Files.readAllBytes(dir.resolve("patch").resolve(file)));
                    }
                }
                case "aspect" -> aspects.put(f[1], Files.readAllBytes(dir.resolve("aspects").resolve(f[1] + ".class")));
                case "note" -> notes.add(f[1]);
                default -> values.put(f[0], f[1]);
            }
        }
        if (!RuntimeWeaving.FORMAT.equals(values.get("format"))) {
            throw new IOException(dir + ": written by another version of Dyper (" + values.get("format") + ")");
        }
        return new RuntimePatch(values.get("model"), values.get("id"), Files.readString(dir.resolve("sites.tsv"),
                StandardCharsets.UTF_8), originals, patched, aspects, notes);
    }

    /**
     * The patch in {@code dir} as it crosses process boundaries ({@link PatchSetFiles}, the DYPATCH PATCH reply's
     * {@code <PATCH>}): a class line per class ({@code PATCH} left out where the model patches nothing), an aspect
     * line per aspect class and the weaving's notes; paths are absolute. {@code unpatched}: classes asked for that the
     * model does not patch (name only); {@code warnings}: the generator's.
     */
    public static PatchSetFiles files(RuntimePatch patch, Path dir, List<String> unpatched, List<String> warnings) {
        Path abs = dir.toAbsolutePath();
        List<PatchSetFiles.ClassEntry> classes = new ArrayList<>();
        for (String name : patch.originals().keySet()) {
            String file = name.replace('.', '/') + ".class";
            classes.add(new PatchSetFiles.ClassEntry(name, abs.resolve("orig").resolve(file).toString(),
                    patch.patched().containsKey(name) ? abs.resolve("patch").resolve(file).toString() : null));
        }
        unpatched.forEach(name -> classes.add(new PatchSetFiles.ClassEntry(name, null, null)));
        Map<String, String> aspects = new LinkedHashMap<>();
        for (String aspect : patch.aspects().keySet()) {
            aspects.put(aspect.replace('/', '.'), abs.resolve("aspects").resolve(aspect + ".class").toString());
        }
        // a note that is a warning goes in the reply as a WARNING (PatchService lists it with the others)
        List<String> notes = patch.notes().stream().filter(n -> !org.dyper.patch.build.Weaver.isWarning(n)).toList();
        return new PatchSetFiles(patch.model(), patch.id(), abs.resolve("sites.tsv").toString(), classes, aspects,
                List.of(), notes, warnings);
    }

    /** The patch as the in-JVM patcher takes it, with the runtime jars the woven code needs. */
    public static PatchSet toPatchSet(RuntimePatch patch, List<Path> runtimeJars) {
        List<ClassPatch> classes = new ArrayList<>();
        patch.originals().forEach((name, original) -> classes.add(new ClassPatch(name, original,
                patch.patched().get(name))));
        return new PatchSet(patch.model(), patch.id(), patch.siteTable(), classes, patch.aspects(), runtimeJars);
    }

}
