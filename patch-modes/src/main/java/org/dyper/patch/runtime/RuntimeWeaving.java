package org.dyper.patch.runtime;

import org.dyper.patch.build.Sha256;
import org.dyper.patch.build.Jars;
import org.dyper.patch.aspectj.Generator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.Ajc;
import org.dyper.patch.build.AjcBatches;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;

/**
 * Weaves the classes of one model for a running JVM. The code must have been generated for run-time patching
 * ({@code Weaver.generateForRunTime}, {@code Generator.contextsInLocals}): before and after advice only (inlined around
 * advice would add methods), an ENTER→EXIT context in locals of the method, other contexts on the per-thread stack.
 * The bytecode pass runs first, then ajc weaves only the patched classes, then {@link Redefinable} makes sure the
 * result can replace the loaded classes, and the aspects move into a package of their own
 * ({@code org.dyper.generated.r<id>}), so that patch sets never share a class name.
 */
public final class RuntimeWeaving {
    /** Changes whenever what this class produces changes, so cached patches are made again. */
    static final String FORMAT = "dyper-runtime-patch-2";

    private RuntimeWeaving() {}

    /**
     * The id of the patch that {@link #weave} makes from these inputs: a hash of the model's name, the generated code
     * (which holds the site ids), the original class files, the weaver options and the runtime class path it compiles
     * against.
     */
    public static String id(String model, GeneratedCode code, Map<String, byte[]> originals) {
        Sha256 d = new Sha256().addItem(FORMAT).addItem(model);
        new TreeMap<>(code.aspects()).forEach((name, source) -> d.addItem(name).addItem(source));
        d.addItem(String.join(" ", code.weaverOptions()));
        for (BytecodePlan.ClassPlan c : code.bytecode().classes().values()) {
            d.addItem(c.className() + " " + c.methods());
        }
        new TreeMap<>(originals).forEach((name, bytes) -> d.addItem(name).add(bytes));
        for (Path p : Weaver.runtimeClasspath()) {
            d.addItem(p.getFileName() + " " + size(p));
        }
        return d.hex(16);
    }

    private static long size(Path p) {
        try {
            return Files.isRegularFile(p) ? Files.size(p) : 0;
        } catch (IOException e) {
            return -1;
        }
    }

    /** A patch as files: its folder, and whether it came from the cache. */
    public record Woven(RuntimePatch patch, Path dir, boolean cached) {}

    /**
     * As {@link #weave}, through the cache under {@code cacheRoot} ({@link PatchFiles}): the same inputs give the
     * folder written before, without weaving again.
     */
    public static Woven weaveCached(String model, String id, GeneratedCode code, Map<String, byte[]> originals,
                                    List<Path> classpath, Path cacheRoot) throws IOException, WeaveException {
        Path found = PatchFiles.find(cacheRoot, id);
        if (found != null) {
            return new Woven(PatchFiles.read(found), found, true);
        }
        RuntimePatch patch = weave(model, id, code, originals, classpath);
        return new Woven(patch, PatchFiles.write(patch, cacheRoot), false);
    }

    /**
     * Weaves the classes the generated code patches ({@link GeneratedCode#wovenClasses()}, whose class files are in
     * {@code originals} by binary name) for model {@code model} as patch {@code id} (see {@link #id}; its classes go
     * into the package {@code org.dyper.generated.r<id>}). {@code classpath} is what the classes and the modes' code
     * need to compile against.
     *
     * @throws WeaveException when ajc fails, or the woven classes could not replace loaded ones (each problem names
     *         the class)
     */
    public static RuntimePatch weave(String model, String id, GeneratedCode code, Map<String, byte[]> originals,
                                     List<Path> classpath) throws IOException, WeaveException {
        Path work = Files.createTempDirectory("dyper-runtime-patch");
        try {
            Path in = work.resolve("in");
            Path out = work.resolve("out");
            Map<String, BytecodePlan.ClassPlan> plans = new LinkedHashMap<>();
            code.bytecode().classes().values().forEach(c -> plans.put(c.className(), c));
            Map<String, byte[]> originalByInternal = new LinkedHashMap<>();
            for (String name : code.wovenClasses()) {
                byte[] original = originals.get(name);
                if (original == null) {
                    throw new WeaveException("weaving for the running JVM failed",
                            List.of(name + ": its class file was not given (the model patches it)"));
                }
                String internal = name.replace('.', '/');
                originalByInternal.put(internal, original);
                BytecodePlan.ClassPlan plan = plans.get(name);
                Jars.write(in.resolve(internal + ".class"), plan == null ? original : BytecodePlan.transform(plan));
            }
            Files.createDirectories(out);
            List<Path> cp = new ArrayList<>(classpath);
            List<String> args = new ArrayList<>(List.of("-inpath", in.toString(), "-d", out.toString(), "-classpath",
                    Ajc.path(Weaver.compileClasspath(cp))));
            args.addAll(code.weaverOptions());
            Weaver.writeSources(code, work.resolve("src")).forEach(f -> args.add(f.toString()));
            // lint on, as in binary weaving: this run sees every class the advice was generated for, so advice that
            // matched nothing is a join point the user asked for and will not get (a warning naming the patch)
            Ajc.Result result = Ajc.run(args, "weaving " + originalByInternal.size() + " class(es) for the running JVM",
                    true);
            Map<String, byte[]> woven = new LinkedHashMap<>();
            Map<String, byte[]> aspects = new LinkedHashMap<>();
            List<String> errors = new ArrayList<>();
            List<Path> produced;
            try (var walk = Files.walk(out)) {
                produced = walk.filter(f -> f.toString().endsWith(".class")).sorted().toList();
            }
            for (Path f : produced) {
                String internal = out.relativize(f).toString().replace('\\', '/');
                internal = internal.substring(0, internal.length() - ".class".length());
                byte[] bytes = Files.readAllBytes(f);
                if (originalByInternal.containsKey(internal)) {
                    woven.put(internal, bytes);
                } else if (generated(code, internal)) {
                    aspects.put(internal, bytes);
                } else {
                    errors.add(internal.replace('/', '.') + ": ajc made a class of its own, which a running JVM would"
                            + " have to load beside the patched classes (a closure of around advice?)");
                }
            }
            originalByInternal.keySet().stream().filter(c -> !woven.containsKey(c)).forEach(c ->
                    errors.add(c.replace('/', '.') + ": ajc did not write it back"));
            Redefinable fix = new Redefinable();
            Map<String, byte[]> fixed = fix.fix(originalByInternal, woven, aspects);
            errors.addAll(fix.errors());
            if (!errors.isEmpty()) {
                throw new WeaveException("the woven classes cannot replace the loaded ones", errors);
            }
            Map<String, String> names = new LinkedHashMap<>();
            String prefix = org.dyper.runtime.instrument.PatchSet.aspectPrefix(id);
            aspects.keySet().forEach(a -> names.put(a, prefix + a.substring(a.lastIndexOf('/') + 1)));
            Map<String, byte[]> patched = new LinkedHashMap<>();
            Map<String, byte[]> movedAspects = new LinkedHashMap<>();
            Map<String, byte[]> originalsOut = new LinkedHashMap<>();
            for (Map.Entry<String, byte[]> e : fixed.entrySet()) {
                byte[] bytes = remap(e.getValue(), names);
                if (names.containsKey(e.getKey())) {
                    movedAspects.put(names.get(e.getKey()), bytes);
                } else {
                    String binary = e.getKey().replace('/', '.');
                    patched.put(binary, bytes);
                    originalsOut.put(binary, originals.get(binary));
                }
            }
            List<String> notes = new ArrayList<>(AjcBatches.capped(AjcBatches.unapplied(code, result)));
            notes.addAll(result.warnings());
            notes.addAll(fix.notes());
            return new RuntimePatch(model, id, code.siteTable(), originalsOut, patched, movedAspects, notes);
        } finally {
            Weaver.deleteTree(work);
        }
    }

    /**
     * The warnings among a patch's notes (advice AspectJ did not apply, naming the patch): kept with the patch in the
     * cache, so a reused patch shows them again.
     */
    public static List<String> warnings(RuntimePatch patch) {
        return patch.notes().stream().filter(Weaver::isWarning).toList();
    }

    /** A class of the generated sources: an aspect, the site table, the shared class, or a class nested in one. */
    private static boolean generated(GeneratedCode code, String internal) {
        String binary = internal.replace('/', '.');
        int nested = binary.indexOf('$', binary.lastIndexOf('.') + 1);
        return code.aspects().containsKey(binary) || nested > 0 && code.aspects().containsKey(binary.substring(0, nested));
    }

    /** The class file with the aspects renamed; for unchanged references the bytes are rewritten all the same. */
    private static byte[] remap(byte[] bytes, Map<String, String> names) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassRemapper(writer, new SimpleRemapper(names)), 0);
        return writer.toByteArray();
    }
}
