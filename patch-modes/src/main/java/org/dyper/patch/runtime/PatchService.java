package org.dyper.patch.runtime;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.scan.ClassLookup;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.aspectj.Generator;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Problem;
import org.dyper.patch.model.Update;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.patch.build.Sha256;
import org.dyper.patch.build.TreeFingerprint;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.xml.ModelReader;
import org.dyper.runtime.instrument.PatchSetFiles;

/**
 * The DYPATCH service without its transport (the seed's "dypatch"): named patch models kept and updated by MODEL,
 * patched class files made by PATCH for the classes of one target (its class path and the class files of loaded
 * classes that are not on it), written into a patch directory that doubles as the cache. {@code dyper patchd} puts it
 * on a socket; {@code dyper ctl instrument} uses it in-process. Thread-safe (one request at a time).
 */
public final class PatchService {
    private final ModeCatalog catalog;
    private final Map<String, List<ForSpec>> models = new LinkedHashMap<>();
    private Path directory;
    private TargetClasses targets;
    private ClassIndex index;
    /** How often the target's class path was scanned (for tests: a PATCH known by its inputs scans nothing). */
    int scans;

    /**
     * The classes a model may patch: {@code roots} are the jars and folders to read them from, in class path order
     * (the target's class path first, then a folder with the class files of loaded classes that are not on it).
     */
    public record TargetClasses(List<Path> roots) {
        public TargetClasses {
            roots = List.copyOf(roots);
        }
    }

    public PatchService(ModeCatalog catalog, TargetClasses targets, Path directory) {
        this.catalog = catalog;
        this.targets = targets;
        this.directory = directory;
    }

    /** DIRECTORY: where patched class files go from now on (the cache folders stay where they are). */
    public synchronized void directory(Path dir) {
        this.directory = dir;
    }

    public synchronized Path directory() {
        return directory;
    }

    /** New classes to patch from (the target loaded more classes): scanned again at the next PATCH. */
    public synchronized void targets(TargetClasses classes) {
        this.targets = classes;
        this.index = null;
    }

    /**
     * MODEL: adds the FORs of {@code xml} (a {@code <MODEL NAME>} element) to the model of that name, creating it.
     * The FORs apply in order as in a model file: {@code UPDATE='NEW'} drops the earlier patches of the methods it
     * selects, and a FOR {@code CLASS='*' METHOD='*' UPDATE='NEW'} without patches clears the whole model. Every
     * problem (XML, names, unknown modes) is reported at once and leaves the model as it was.
     *
     * @return the model's name
     */
    public synchronized String model(String xml, String origin) throws InvalidInputException {
        return model(ModelReader.read(origin, new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
    }

    /** MODEL with a model already read (from a file): as {@link #model(String, String)}. */
    public synchronized String model(Model m) throws InvalidInputException {
        List<Problem> problems = new ArrayList<>();
        for (ForSpec f : m.fors()) {
            for (Patch p : f.patches()) {
                if (catalog.mode(p.mode()).isEmpty() && catalog.external(p.mode()).isEmpty()) {
                    problems.add(Problem.error(p.at(), "PATCH", "unknown MODE '" + p.mode() + "': not in the mode "
                            + "library nor in the service's mode files (known: " + String.join(", ", catalog.names())
                            + ")"));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        List<ForSpec> fors = models.computeIfAbsent(m.name(), k -> new ArrayList<>());
        for (ForSpec f : m.fors()) {
            if (f.className().equals("*") && f.method().equals("*") && f.update() == Update.NEW) {
                fors.clear();  // everything before is cleared: keep only what follows
                if (f.patches().isEmpty()) {
                    continue;
                }
            }
            fors.add(f);
        }
        return m.name();
    }

    /** The CLASS patterns of every FOR of every model: which classes the models may patch. */
    public synchronized List<String> classPatterns() {
        List<String> patterns = new ArrayList<>();
        models.values().forEach(fors -> fors.forEach(f -> patterns.add(f.className())));
        return patterns;
    }

    /** The names of the models, in the order they were first given. */
    public synchronized Set<String> models() {
        return new LinkedHashSet<>(models.keySet());
    }

    /**
     * What PATCH made: the patch and its folder, and the warnings (the generator's, and AspectJ's for advice it did
     * not apply), each as the line a user reads.
     */
    public record Patched(RuntimePatch patch, Path dir, boolean cached, List<String> warnings,
                          List<String> unpatched) {
        /** The patch set by its files ({@link PatchSetFiles}), with the unpatched classes and the warnings. */
        public PatchSetFiles files() {
            return PatchFiles.files(patch, dir, unpatched, warnings);
        }

        /** The PATCH reply: {@code <PATCH ...><CLASS NAME ORIG PATCH/>...<ASPECT/>...<WARNING/>...</PATCH>}. */
        public String xml() {
            return files().toXml();
        }
    }

    /**
     * PATCH: makes the patched class files of model {@code name} (null: the only model) for every class it patches
     * ({@code all}) or for {@code classes}. A repeated PATCH with the same inputs finds its folder in the directory
     * and weaves nothing.
     */
    public synchronized Patched patch(String name, boolean all, List<String> classes)
            throws InvalidInputException, IOException, WeaveException {
        String model = name;
        if (model == null) {
            if (models.size() != 1) {
                throw usage(models.isEmpty() ? "no model was given yet (send MODEL first)"
                        : "say which model to patch (MODEL='...'): there are " + String.join(", ", models.keySet()));
            }
            model = models.keySet().iterator().next();
        }
        List<ForSpec> fors = models.get(model);
        if (fors == null) {
            throw usage("no model named '" + model + "' (models: " + String.join(", ", models.keySet()) + ")");
        }
        if (!all && classes.isEmpty()) {
            throw usage("PATCH names no class: set ALL='TRUE' or list <CLASS NAME/>");
        }
        Set<String> wanted = new LinkedHashSet<>(classes);
        String inputs = inputKey(model, fors, all, wanted);
        Patched known = known(inputs, wanted);
        if (known != null) {
            return known;
        }
        ClassIndex restricted = restricted(all, wanted);
        // generated twice: the first time to learn the patch's id (a hash of what was generated and the classes), the
        // second time in the package org.dyper.generated.r<id>, whose name is also the key of its site ids in a JVM
        // (Sites.base): the same patch gets the same ids again, another patch others. A patch in the cache needs no
        // second generation: the folder holds what it would weave (the classes and warnings are the first one's)
        GeneratedCode code = generate(model, fors, restricted, "org.dyper.generated.r0");
        Map<String, byte[]> originals = originals(code, restricted);
        String id = RuntimeWeaving.id(model, code, originals);
        if (PatchFiles.find(directory, id) == null) {
            code = generate(model, fors, restricted, "org.dyper.generated.r" + id);
            originals = originals(code, restricted);
        }
        if (code.wovenClasses().isEmpty()) {
            List<Problem> problems = new ArrayList<>(code.warnings());
            problems.add(Problem.error(new Location("MODEL " + model, 0, 0), "MODEL", "model '" + model
                    + "' patches no class of the target" + (all ? "" : " among " + String.join(", ", wanted))
                    + " (" + restricted.size() + " class(es) scanned)"));
            throw new InvalidInputException(problems);
        }
        List<Path> classpath = new ArrayList<>(targets.roots());
        RuntimeWeaving.Woven woven = RuntimeWeaving.weaveCached(model, id, code, originals, classpath, directory);
        List<String> unpatched = new ArrayList<>();
        for (String c : wanted) {
            if (!woven.patch().patched().containsKey(c)) {
                unpatched.add(c);
            }
        }
        List<String> generated = new ArrayList<>();
        code.warnings().forEach(w -> generated.add(w.toString()));
        remember(inputs, id, generated);
        return patched(woven.patch(), woven.dir(), woven.cached(), generated, unpatched);
    }

    private Patched patched(RuntimePatch patch, Path dir, boolean cached, List<String> generated,
                            List<String> unpatched) {
        List<String> warnings = new ArrayList<>();
        catalog.warnings().forEach(w -> warnings.add(w.toString()));
        warnings.addAll(generated);
        warnings.addAll(RuntimeWeaving.warnings(patch));
        return new Patched(patch, dir, cached, warnings, unpatched);
    }

    /** Where the patch ids of earlier PATCHes are kept by the key of their inputs ({@link #inputKey}). */
    private Path inputsFolder() {
        return directory.resolve("inputs");
    }

    /**
     * The key of everything a PATCH depends on, known before the target's classes are scanned or anything is
     * generated: Dyper's own generator and weaver, the AspectJ compiler and the runtime jars, the modes (their files'
     * bytes), the model's FORs (with where each was written: the generator's warnings say it), which classes are asked for, and every root of the target's class path by its {@link TreeFingerprint}
     * (path, and each file's size and modification time). A warm PATCH then reads its patch from the cache without
     * scanning the class path or generating twice (the round trip of {@code dyper ctl instrument}). Null when it
     * cannot be computed.
     */
    private String inputKey(String model, List<ForSpec> fors, boolean all, Set<String> wanted) {
        try {
            Sha256 d = new Sha256().addItem("dyper-patch-inputs-1").addItem(RuntimeWeaving.FORMAT);
            if (OWN_CODE == null) {
                return null;  // Dyper's own code cannot be told apart from another build's: no shortcut
            }
            for (Path p : OWN_CODE) {
                TreeFingerprint.describe(p, d::addItem);
            }
            for (Path p : Weaver.runtimeClasspath()) {
                TreeFingerprint.describe(p, d::addItem);
            }
            d.addItem(catalog.fingerprint()).addItem(model);
            for (ForSpec f : fors) {
                // spelled out, not the records' toString: that bootstraps method handles per record class, which
                // costs a short-lived CLI more than the whole key
                d.addItem("FOR " + f.className() + " " + f.method() + " " + f.update() + " " + at(f.at()));
                for (Patch p : f.patches()) {
                    d.addItem("PATCH " + p.what() + " " + p.mode() + " " + at(p.at()));
                    for (org.dyper.patch.model.When w : p.whens()) {
                        d.addItem("WHEN " + w.kind() + " " + w.arg() + " " + at(w.at()));
                    }
                }
            }
            d.addItem(all ? "all classes" : "classes " + String.join(" ", new java.util.TreeSet<>(wanted)));
            for (Path p : targets.roots()) {
                TreeFingerprint.describe(p, d::addItem);
            }
            return d.hex(32);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static String at(Location at) {
        return at == null ? "-" : at.file() + ":" + at.line() + ":" + at.column();
    }

    /**
     * Dyper's own code: the generator's and weaver's jar (or class folder) and the AspectJ compiler's; null when the
     * JVM does not say where one of them came from.
     */
    private static final List<Path> OWN_CODE = ownCode();

    private static List<Path> ownCode() {
        Path generator = Weaver.codeOf(PatchService.class);
        Path ajc = Weaver.codeOf(org.aspectj.tools.ajc.Main.class);
        return generator == null || ajc == null ? null : List.of(generator, ajc);
    }

    /** The patch an earlier PATCH with the same inputs made, from the cache, or null. */
    private Patched known(String inputs, Set<String> wanted) {
        if (inputs == null) {
            return null;
        }
        try {
            Path file = inputsFolder().resolve(inputs);
            if (!Files.isRegularFile(file)) {
                return null;
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            if (lines.isEmpty() || !lines.get(0).matches("id\t[0-9a-f]+")) {
                return null;
            }
            Path dir = PatchFiles.find(directory, lines.get(0).substring(3));
            if (dir == null) {
                return null;
            }
            List<String> generated = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                if (line.startsWith("warning\t")) {
                    generated.add(unescape(line.substring(8)));
                }
            }
            RuntimePatch patch = PatchFiles.read(dir);
            List<String> unpatched = new ArrayList<>();
            wanted.stream().filter(c -> !patch.patched().containsKey(c)).forEach(unpatched::add);
            return patched(patch, dir, true, generated, unpatched);
        } catch (IOException | RuntimeException e) {
            return null;  // an unreadable entry: the PATCH is made as if it were not there
        }
    }

    /** A warning as {@link #remember} wrote it: {@code \\n} is a line break, {@code \\\\} a backslash. */
    private static String unescape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char next = s.charAt(++i);
                out.append(next == 'n' ? '\n' : next);
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Keeps {@code id} under the key of its inputs, with the generator's warnings; a failure only costs speed. */
    private void remember(String inputs, String id, List<String> generated) {
        if (inputs == null) {
            return;
        }
        StringBuilder text = new StringBuilder("id\t").append(id).append('\n');
        for (String w : generated) {
            text.append("warning\t").append(w.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        }
        try {
            org.dyper.runtime.wire.RegistryFiles.createPrivateDirectories(inputsFolder());
            org.dyper.runtime.io.AtomicWrite.write(inputsFolder().resolve(inputs), text.toString());
        } catch (IOException | RuntimeException e) {
            // the next PATCH of the same inputs scans and generates again
        }
    }

    private static Map<String, byte[]> originals(GeneratedCode code, ClassIndex classes) throws IOException {
        Map<String, byte[]> originals = new LinkedHashMap<>();
        for (String c : code.wovenClasses()) {
            originals.put(c, classes.classFile(c));
        }
        return originals;
    }

    /** The classes of the target that may be patched: never Dyper's or AspectJ's own. */
    private ClassIndex restricted(boolean all, Set<String> wanted) throws IOException {
        if (index == null) {
            index = ClassScanner.scan(targets.roots()).restrict(PatchService::mayPatch);
            scans++;
        }
        return all ? index : index.restrict(wanted::contains);
    }

    /**
     * Whether a class may be patched at run time: not Dyper's runtime, not AspectJ's, not generated aspects (nor
     * their copies beside patched classes, {@code pkg.Dyper$<id>$...}).
     */
    public static boolean mayPatch(String binaryName) {
        String simple = binaryName.substring(binaryName.lastIndexOf('.') + 1);
        return !binaryName.startsWith(org.dyper.runtime.Dyper.class.getPackageName() + ".")
                && !binaryName.startsWith(org.dyper.patch.aspectj.Generator.PACKAGE + ".")
                && !binaryName.startsWith("org.aspectj.") && !simple.startsWith("Dyper$");
    }

    private GeneratedCode generate(String model, List<ForSpec> fors, ClassIndex classes, String pkg)
            throws InvalidInputException {
        ClassLookup lookup = new ClassLookup(targets.roots(), PatchService.class.getClassLoader());
        return new Generator(catalog, classes, lookup, true, pkg).contextsInLocals()
                .generate(List.of(new Model(model, fors, new Location("MODEL " + model, 0, 0))));
    }

    private static InvalidInputException usage(String message) {
        return new InvalidInputException(List.of(Problem.error(new Location("PATCH", 0, 0), "PATCH", message)));
    }
}
