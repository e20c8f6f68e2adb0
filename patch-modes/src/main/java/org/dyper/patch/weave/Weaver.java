package org.dyper.patch.weave;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.gen.BytecodePlan;
import org.dyper.patch.gen.ClassLookup;
import org.dyper.patch.gen.GeneratedCode;
import org.dyper.patch.gen.Generator;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Problem;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.patch.xml.ModelReader;

/**
 * The one implementation of Dyper's build steps, shared by the CLI and the Maven plugin: read models and modes,
 * generate aspects against the target classes, compile them with ajc, weave binaries.
 */
public final class Weaver {
    /** Where the site table goes in a woven jar or aspect folder. */
    public static final String SITE_TABLE = "META-INF/dyper/sites.tsv";
    /** Where the load-time weaving configuration goes in an aspect folder. */
    public static final String AOP_XML = "META-INF/aop.xml";
    /**
     * Where, in an aspect folder for load-time weaving, the bytecode pass leaves the patched class files, their index
     * ({@code replace.tsv}) and the agent jar that swaps them in ({@code agent.jar}).
     */
    public static final String REPLACE_DIR = "META-INF/dyper/replace";
    /**
     * Marks an aspect folder made by {@link #weaveForLaunch}: its classes are woven already, so a launch needs the
     * replace agent only, not the AspectJ weaver agent.
     */
    public static final String PREWOVEN = "META-INF/dyper/prewoven";
    private static final String REPLACE_AGENT = "org.dyper.runtime.agent.ReplaceAgent";

    private Weaver() {}

    /**
     * What to generate from: model files, user mode files (library modes need none), the jars or folders whose
     * classes get patched, and what else the modes' code needs to compile against.
     */
    public record Inputs(List<Path> models, List<Path> modeFiles, List<Path> targets, List<Path> classpath,
                         List<String> includes, List<String> excludes) {
        public Inputs {
            models = List.copyOf(models);
            modeFiles = List.copyOf(modeFiles);
            targets = List.copyOf(targets);
            classpath = List.copyOf(classpath);
            includes = List.copyOf(includes);
            excludes = List.copyOf(excludes);
        }

        /** Every class of the targets may be patched. */
        public Inputs(List<Path> models, List<Path> modeFiles, List<Path> targets, List<Path> classpath) {
            this(models, modeFiles, targets, classpath, List.of(), List.of());
        }

        /**
         * These inputs where only classes matching an include pattern (when there is one) and no exclude pattern may
         * be patched. Patterns are class names where {@code *} matches any run of characters
         * ({@code com.acme.*}, {@code *Test}).
         */
        public Inputs withPatterns(List<String> includes, List<String> excludes) {
            return new Inputs(models, modeFiles, targets, classpath, includes, excludes);
        }

        /** Whether the class {@code binaryName} may be patched. */
        public boolean admits(String binaryName) {
            return (includes.isEmpty() || includes.stream().anyMatch(p -> matches(p, binaryName)))
                    && excludes.stream().noneMatch(p -> matches(p, binaryName));
        }

        private static boolean matches(String pattern, String binaryName) {
            return Generator.glob(pattern).matcher(binaryName).matches()
                    || Generator.glob(pattern).matcher(binaryName.replace('$', '.')).matches();
        }
    }

    /** Reads, validates and generates; every problem of every file is reported in one exception. */
    public static GeneratedCode generate(Inputs in) throws InvalidInputException, IOException {
        return generate(in, false);
    }

    /**
     * As {@link #generate(Inputs)}; with {@code forLoadTime} the advice avoids around advice, which the load-time
     * weaver does not inline.
     */
    public static GeneratedCode generate(Inputs in, boolean forLoadTime) throws InvalidInputException, IOException {
        List<Problem> problems = new ArrayList<>();
        ModeCatalog catalog = null;
        try {
            catalog = ModeCatalog.load(in.modeFiles());
        } catch (InvalidInputException e) {
            problems.addAll(e.problems());
        }
        List<Model> models = new ArrayList<>();
        for (Path file : in.models()) {
            try {
                models.add(ModelReader.read(file));
            } catch (InvalidInputException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            if (catalog != null) {
                problems.addAll(catalog.warnings());
            }
            throw new InvalidInputException(problems);
        }
        ClassIndex targets = ClassScanner.scan(in.targets()).restrict(in::admits);
        List<Path> lookupPath = new ArrayList<>(in.targets());
        lookupPath.addAll(in.classpath());
        ClassLookup lookup = new ClassLookup(lookupPath, Weaver.class.getClassLoader());
        GeneratedCode code;
        try {
            code = new Generator(catalog, targets, lookup, forLoadTime).generate(models);
        } catch (InvalidInputException e) {
            List<Problem> all = new ArrayList<>(e.problems());
            all.addAll(catalog.warnings());
            throw new InvalidInputException(all);
        }
        List<Problem> warnings = new ArrayList<>(catalog.warnings());
        warnings.addAll(code.warnings());
        return code.withWarnings(warnings);
    }

    /** Writes the aspect sources under {@code dir} (package folders), plus {@code aop.xml} and the site table. */
    public static List<Path> writeSources(GeneratedCode code, Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, String> e : code.aspects().entrySet()) {
            Path file = dir.resolve(e.getKey().replace('.', '/') + ".aj");
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            files.add(file);
        }
        Files.writeString(dir.resolve("aop.xml"), code.aopXml(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("sites.tsv"), code.siteTable(), StandardCharsets.UTF_8);
        return files;
    }

    /**
     * Compiles the aspects with ajc into {@code classesDir} and adds {@code META-INF/aop.xml} and the site table,
     * so the folder is ready for load-time weaving.
     */
    public static List<String> compileAspects(GeneratedCode code, Path classesDir, List<Path> classpath)
            throws IOException, WeaveException {
        Path sources = TempFiles.directory("src");
        try {
            List<Path> files = writeSources(code, sources);
            List<String> args = new ArrayList<>(List.of("-d", classesDir.toString(), "-classpath",
                    Ajc.path(compileClasspath(classpath))));
            args.addAll(code.weaverOptions());
            files.forEach(f -> args.add(f.toString()));
            Ajc.Result result = Ajc.run(args, "compiling the generated aspects");
            Path aop = classesDir.resolve(AOP_XML);
            Files.createDirectories(aop.getParent());
            Files.writeString(aop, code.aopXml(), StandardCharsets.UTF_8);
            writeSiteTable(code, classesDir);
            if (!code.bytecode().isEmpty()) {
                writeReplacements(code.bytecode(), classesDir.resolve(REPLACE_DIR));
            }
            return result.warnings();
        } finally {
            deleteTree(sources);
        }
    }

    /**
     * Weaves the classes of {@code input} (a jar or class folder) with the generated aspects into {@code outJar}.
     * Resources and the manifest are kept; signature files are dropped (the classes changed, so they would no
     * longer verify) and reported in the returned notes.
     */
    public static List<String> weaveBinary(GeneratedCode code, Path input, Path outJar, List<Path> classpath)
            throws IOException, WeaveException {
        Path sources = null;
        Path raw = null;
        Path patched = null;
        Path base = null;
        try {
            sources = TempFiles.directory("src");
            raw = TempFiles.file("woven", ".jar");
            patched = code.bytecode().isEmpty() ? null : TempFiles.file("bytecode", ".jar");
            List<Path> files = writeSources(code, sources);
            List<Path> cp = new ArrayList<>(classpath);
            // the bytecode pass runs first: ajc weaves the classes with the wrapper calls already in them
            Path woven = input;
            if (patched != null) {
                applyBytecode(code.bytecode(), input, patched);
                woven = patched;
            }
            // a multi-release jar's versioned classes (META-INF/versions/N/...) would reach ajc as second copies of
            // the same types: they are set apart, and the patched ones woven by release below
            Map<String, byte[]> versioned = new java.util.TreeMap<>();
            if (Files.isRegularFile(woven)) {
                base = TempFiles.file("base", ".jar");
                if (splitVersioned(woven, base, versioned)) {
                    woven = base;
                }
            }
            List<String> args = new ArrayList<>(List.of("-inpath", woven.toString(), "-outjar", raw.toString(),
                    "-classpath", Ajc.path(compileClasspath(cp))));
            args.addAll(code.weaverOptions());
            files.forEach(f -> args.add(f.toString()));
            Ajc.Result result = Ajc.run(args, "weaving " + input, true);
            List<String> notes = new ArrayList<>(result.warnings());
            notes.addAll(unapplied(code, result));
            if (!versioned.isEmpty()) {
                notes.addAll(weaveVersioned(code, versioned, raw, cp));
            }
            finishJar(raw, outJar, code, notes, versioned);
            return notes;
        } finally {
            if (sources != null) {
                deleteTree(sources);
            }
            if (raw != null) {
                Files.deleteIfExists(raw);
            }
            if (base != null) {
                Files.deleteIfExists(base);
            }
            if (patched != null) {
                Files.deleteIfExists(patched);
            }
        }
    }

    private static final String VERSIONS = "META-INF/versions/";

    /**
     * Copies the jar {@code in} to {@code out} without its versioned class files ({@code META-INF/versions/N/...class}),
     * which go to {@code versioned} by entry name; returns false (and writes nothing to the map) when it has none.
     */
    private static boolean splitVersioned(Path in, Path out, Map<String, byte[]> versioned) throws IOException {
        try (JarFile jar = new JarFile(in.toFile())) {
            if (jar.stream().noneMatch(e -> isVersionedClass(e.getName()))) {
                return false;
            }
            try (OutputStream file = Files.newOutputStream(out); JarOutputStream copy = new JarOutputStream(file)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry e = entries.nextElement();
                    try (InputStream data = jar.getInputStream(e)) {
                        if (isVersionedClass(e.getName())) {
                            versioned.put(e.getName(), data.readAllBytes());
                            continue;
                        }
                        copy.putNextEntry(new JarEntry(e.getName()));
                        data.transferTo(copy);
                        copy.closeEntry();
                    }
                }
            }
        }
        return true;
    }

    private static boolean isVersionedClass(String name) {
        return name.startsWith(VERSIONS) && name.endsWith(".class") && name.indexOf('/', VERSIONS.length()) > 0
                && !name.endsWith("module-info.class");
    }

    /**
     * Weaves the versioned classes of the patched types with the aspects ajc compiled into {@code raw}, one release at
     * a time, and puts the woven bytes back into {@code versioned}. The bytecode pass is not applied to them.
     */
    private static List<String> weaveVersioned(GeneratedCode code, Map<String, byte[]> versioned, Path raw,
            List<Path> cp) throws IOException, WeaveException {
        Map<String, Map<String, String>> byRelease = new java.util.TreeMap<>();  // release -> class entry -> entry
        versioned.keySet().forEach(name -> {
            int slash = name.indexOf('/', VERSIONS.length());
            String entry = name.substring(slash + 1);
            String binary = entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
            if (code.wovenClasses().contains(binary)) {
                byRelease.computeIfAbsent(name.substring(VERSIONS.length(), slash), k -> new java.util.TreeMap<>())
                        .put(entry, name);
            }
        });
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> release : byRelease.entrySet()) {
            Path work = TempFiles.directory("release");
            try {
                Path in = work.resolve("in");
                Path out = work.resolve("out");
                for (Map.Entry<String, String> c : release.getValue().entrySet()) {
                    Path f = in.resolve(c.getKey());
                    Files.createDirectories(f.getParent());
                    Files.write(f, versioned.get(c.getValue()));
                }
                Files.createDirectories(out);
                List<String> args = new ArrayList<>(List.of("-inpath", in.toString(), "-aspectpath", raw.toString(),
                        "-d", out.toString(), "-classpath", Ajc.path(compileClasspath(cp))));
                args.addAll(code.weaverOptions());
                notes.addAll(Ajc.run(args, "weaving the release " + release.getKey() + " classes of a multi-release "
                        + "jar").warnings());
                for (Map.Entry<String, String> c : release.getValue().entrySet()) {
                    versioned.put(c.getValue(), Files.readAllBytes(out.resolve(c.getKey())));
                }
            } finally {
                deleteTree(work);
            }
        }
        return notes;
    }

    /**
     * Weaves, ahead of a launch, only the classes the generated aspects touch ({@link GeneratedCode#wovenClasses()}),
     * read from the first of {@code targets} that holds each (class path order, as the JVM finds them). Leaves in
     * {@code classesDir}: the compiled aspects and any class ajc added (closures), the site table, the marker
     * {@link #PREWOVEN}, and under {@link #REPLACE_DIR} the woven classes with their index ({@code replace.tsv}: internal
     * name TAB SHA-256 of the original class file) and the replace agent jar that hands them to the JVM in place of the
     * originals. The bytecode pass, if any, is applied before ajc, as binary weaving does. The program runs on Java
     * {@code javaFeature}: from a multi-release jar, the class file that release loads is the one woven. Returns ajc's
     * warnings.
     */
    public static List<String> weaveForLaunch(GeneratedCode code, List<Path> targets, List<Path> classpath,
            Path classesDir, int javaFeature) throws IOException, WeaveException {
        Path work = TempFiles.directory("launch");
        try {
            Path input = work.resolve("in");
            Path raw = work.resolve("out");
            Files.createDirectories(input);
            Files.createDirectories(raw);
            Map<String, BytecodePlan.ClassPlan> plans = new java.util.HashMap<>();
            code.bytecode().classes().values().forEach(c -> plans.put(c.className(), c));
            Map<String, String> originals = new java.util.TreeMap<>();
            for (String name : code.wovenClasses()) {
                String entry = name.replace('.', '/') + ".class";
                byte[] original = readEntry(targets, entry, javaFeature);
                if (original == null) {
                    continue;  // the generator found it in the targets; it can only have gone since
                }
                BytecodePlan.ClassPlan plan = plans.get(name);
                Path file = input.resolve(entry);
                Files.createDirectories(file.getParent());
                Files.write(file, plan == null ? original : BytecodePlan.transform(plan));
                originals.put(name.replace('.', '/'), sha256(original));
            }
            List<Path> cp = new ArrayList<>(targets);
            cp.addAll(classpath);
            List<String> args = new ArrayList<>(List.of("-inpath", input.toString(), "-d", raw.toString(),
                    "-classpath", Ajc.path(compileClasspath(cp))));
            args.addAll(code.weaverOptions());
            writeSources(code, work.resolve("src")).forEach(f -> args.add(f.toString()));
            Ajc.Result result = Ajc.run(args, "weaving " + originals.size() + " class(es) for the launch", true);
            Path replace = classesDir.resolve(REPLACE_DIR);
            Files.createDirectories(replace);
            List<Path> produced;
            try (var walk = Files.walk(raw)) {
                produced = walk.filter(f -> f.toString().endsWith(".class")).sorted().toList();
            }
            for (Path f : produced) {
                String internal = raw.relativize(f).toString().replace('\\', '/');
                internal = internal.substring(0, internal.length() - ".class".length());
                Path to = (originals.containsKey(internal) ? replace : classesDir).resolve(internal + ".class");
                Files.createDirectories(to.getParent());
                Files.move(f, to, StandardCopyOption.REPLACE_EXISTING);
            }
            writeReplaceIndex(replace, "Dyper launch weaving", originals);
            writeSiteTable(code, classesDir);
            Files.writeString(classesDir.resolve(PREWOVEN), originals.size() + " class(es) woven ahead of the launch\n",
                    StandardCharsets.UTF_8);
            List<String> notes = new ArrayList<>(result.warnings());
            notes.addAll(unapplied(code, result));
            return notes;
        } finally {
            deleteTree(work);
        }
    }

    /**
     * The notes for advice ajc reported it did not apply: each the text of a warning naming a patch of the model
     * ({@link #isWarning}), so the join point it was generated for is never left unmeasured unnoticed.
     */
    private static List<String> unapplied(GeneratedCode code, Ajc.Result result) {
        List<String> notes = new ArrayList<>();
        for (Ajc.Unapplied u : result.unapplied()) {
            List<Problem> warnings = code.adviceIndex().unapplied(u.file(), u.line());
            if (warnings.isEmpty()) {
                notes.add("warning: AspectJ did not apply the advice at " + u.file() + ":" + u.line());
            }
            warnings.forEach(w -> notes.add(w.toString()));
        }
        return notes;
    }

    /** Whether a note the weaving returned is a warning the user must see (not only with {@code --verbose}). */
    public static boolean isWarning(String note) {
        return note.startsWith("warning: ") || note.matches("(?s)[^\\n]*:\\d+:\\d+: warning: .*");
    }

    /**
     * The bytes of {@code entry} from the first jar or folder of {@code roots} that has it, or null; from a
     * multi-release jar, the version Java {@code javaFeature} loads.
     */
    private static byte[] readEntry(List<Path> roots, String entry, int javaFeature) throws IOException {
        Runtime.Version release = Runtime.Version.parse(Integer.toString(Math.max(9, javaFeature)));
        for (Path root : roots) {
            if (Files.isDirectory(root)) {
                Path f = root.resolve(entry);
                if (Files.isRegularFile(f)) {
                    return Files.readAllBytes(f);
                }
            } else if (Files.isRegularFile(root)) {
                try (JarFile jar = new JarFile(root.toFile(), true, java.util.zip.ZipFile.OPEN_READ, release)) {
                    JarEntry e = jar.getJarEntry(entry);
                    if (e != null) {
                        try (InputStream data = jar.getInputStream(e)) {
                            return data.readAllBytes();
                        }
                    }
                }
            }
        }
        return null;
    }

    /**
     * Copies {@code input} (a jar or class folder) into the jar {@code out} with the classes of {@code plan}
     * replaced by their patched bytes; every other entry is copied as it is.
     */
    static void applyBytecode(BytecodePlan plan, Path input, Path out) throws IOException {
        Map<String, BytecodePlan.ClassPlan> byEntry = new java.util.HashMap<>();
        plan.classes().values().forEach(c -> byEntry.put(c.className().replace('.', '/') + ".class", c));
        try (OutputStream file = Files.newOutputStream(out); JarOutputStream jar = new JarOutputStream(file)) {
            if (Files.isDirectory(input)) {
                List<Path> all;
                try (var walk = Files.walk(input)) {
                    all = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path f : all) {
                    String name = input.relativize(f).toString().replace('\\', '/');
                    BytecodePlan.ClassPlan c = byEntry.get(name);
                    jar.putNextEntry(new JarEntry(name));
                    jar.write(c != null ? BytecodePlan.transform(c) : Files.readAllBytes(f));
                    jar.closeEntry();
                }
            } else {
                try (JarFile in = new JarFile(input.toFile())) {
                    Enumeration<JarEntry> entries = in.entries();
                    while (entries.hasMoreElements()) {
                        JarEntry e = entries.nextElement();
                        BytecodePlan.ClassPlan c = byEntry.get(e.getName());
                        jar.putNextEntry(new JarEntry(e.getName()));
                        if (c != null) {
                            jar.write(BytecodePlan.transform(c));
                        } else if (!e.isDirectory()) {
                            try (InputStream data = in.getInputStream(e)) {
                                data.transferTo(jar);
                            }
                        }
                        jar.closeEntry();
                    }
                }
            }
        }
    }

    /**
     * Writes what load-time runs need to apply the bytecode pass: each patched class file under {@code dir} (by
     * internal name), {@code replace.tsv} (internal name TAB SHA-256 of the original bytes) and {@code agent.jar},
     * the replace agent with its own manifest.
     */
    static void writeReplacements(BytecodePlan plan, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> originals = new java.util.LinkedHashMap<>();
        for (BytecodePlan.ClassPlan c : plan.classes().values()) {
            String internal = c.className().replace('.', '/');
            Path file = dir.resolve(internal + ".class");
            Files.createDirectories(file.getParent());
            Files.write(file, BytecodePlan.transform(c));
            originals.put(internal, sha256(c.original()));
        }
        writeReplaceIndex(dir, "Dyper bytecode pass", originals);
    }

    /**
     * Writes a replacement folder's index, {@code replace.tsv} (a {@code # what: ...} header, then internal name TAB
     * SHA-256 of the original class file per line), and the replace agent jar beside it.
     */
    private static void writeReplaceIndex(Path dir, String what, Map<String, String> shaByInternalName)
            throws IOException {
        StringBuilder index = new StringBuilder("# " + what + ": class\tSHA-256 of the original class file\n");
        shaByInternalName.forEach((name, sha) -> index.append(name).append('\t').append(sha).append('\n'));
        Files.writeString(dir.resolve("replace.tsv"), index.toString(), StandardCharsets.UTF_8);
        writeReplaceAgentJar(dir.resolve("agent.jar"));
    }

    /** Writes the site table under {@link #SITE_TABLE} in {@code classesDir}. */
    private static void writeSiteTable(GeneratedCode code, Path classesDir) throws IOException {
        Path sites = classesDir.resolve(SITE_TABLE);
        Files.createDirectories(sites.getParent());
        Files.writeString(sites, code.siteTable(), StandardCharsets.UTF_8);
    }

    /**
     * A jar holding only the replace agent's classes (copied from the Dyper runtime, a jar or a classes folder) and a
     * manifest naming it as {@code Premain-Class}, so the runtime jar's own manifest stays free for other agents.
     */
    static void writeReplaceAgentJar(Path jarFile) throws IOException {
        Path runtime = runtimeClasspath().get(0);
        String prefix = REPLACE_AGENT.replace('.', '/');
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Premain-Class", REPLACE_AGENT);
        try (OutputStream file = Files.newOutputStream(jarFile);
             JarOutputStream jar = new JarOutputStream(file, manifest)) {
            if (Files.isDirectory(runtime)) {
                try (var walk = Files.walk(runtime.resolve(prefix).getParent())) {
                    for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                        String name = runtime.relativize(f).toString().replace('\\', '/');
                        if (name.startsWith(prefix)) {
                            jar.putNextEntry(new JarEntry(name));
                            jar.write(Files.readAllBytes(f));
                            jar.closeEntry();
                        }
                    }
                }
            } else {
                try (JarFile in = new JarFile(runtime.toFile())) {
                    Enumeration<JarEntry> entries = in.entries();
                    while (entries.hasMoreElements()) {
                        JarEntry e = entries.nextElement();
                        if (e.getName().startsWith(prefix) && e.getName().endsWith(".class")) {
                            jar.putNextEntry(new JarEntry(e.getName()));
                            try (InputStream data = in.getInputStream(e)) {
                                data.transferTo(jar);
                            }
                            jar.closeEntry();
                        }
                    }
                }
            }
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Weaves a class folder in place (the Maven plugin's {@code weave} goal): weaves it into a temporary jar with
     * {@link #weaveBinary}, then writes every class of that jar (the woven classes and the compiled aspects) and the
     * site table and {@code aop.xml} under {@code META-INF/dyper/} back into {@code classes}. Other resources are
     * left as they are. Aspect classes of an earlier generation (package {@link Generator#PACKAGE}) are removed
     * first, since ajc would otherwise see each aspect twice.
     */
    public static List<String> weaveFolderInPlace(GeneratedCode code, Path classes, List<Path> classpath)
            throws IOException, WeaveException {
        deleteTree(classes.resolve(Generator.PACKAGE.replace('.', '/')));
        Path woven = TempFiles.file("woven-folder", ".jar");
        try {
            List<String> notes = weaveBinary(code, classes, woven, classpath);
            try (JarFile jar = new JarFile(woven.toFile())) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    JarEntry e = entries.nextElement();
                    String name = e.getName();
                    if (e.isDirectory() || !(name.endsWith(".class") || name.startsWith("META-INF/dyper/"))) {
                        continue;
                    }
                    Path target = classes.resolve(name).normalize();
                    if (!target.startsWith(classes.normalize())) {
                        throw new IOException("woven jar entry " + name + " points outside " + classes);
                    }
                    Files.createDirectories(target.getParent());
                    Path tmp = TempFiles.file(target.getParent(), "class", ".class");
                    try {
                        try (InputStream data = jar.getInputStream(e)) {
                            Files.copy(data, tmp, StandardCopyOption.REPLACE_EXISTING);
                        }
                        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
                    } finally {
                        Files.deleteIfExists(tmp);
                    }
                }
            }
            return notes;
        } finally {
            Files.deleteIfExists(woven);
        }
    }

    /**
     * Copies ajc's output jar, dropping signatures and adding the site table and aop.xml under META-INF/dyper, and
     * {@code versioned} (a multi-release jar's versioned classes, by entry name) at the end.
     */
    private static void finishJar(Path raw, Path outJar, GeneratedCode code, List<String> notes,
            Map<String, byte[]> versioned) throws IOException {
        Path folder = outJar.toAbsolutePath().getParent();
        TempFiles.sweep(folder);
        Path tmp = TempFiles.file(folder, "out", ".jar");
        try {
            copyJar(raw, tmp, code, notes, versioned);
            Files.move(tmp, outJar, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void copyJar(Path raw, Path tmp, GeneratedCode code, List<String> notes,
            Map<String, byte[]> versioned) throws IOException {
        try (JarFile in = new JarFile(raw.toFile());
             OutputStream file = Files.newOutputStream(tmp);
             JarOutputStream out = new JarOutputStream(file)) {
            Enumeration<JarEntry> entries = in.entries();
            while (entries.hasMoreElements()) {
                JarEntry e = entries.nextElement();
                String name = e.getName();
                if (isSignature(name)) {
                    notes.add("dropped signature file " + name + ": woven classes no longer match the signature");
                    continue;
                }
                if (name.equals(SITE_TABLE) || name.equals("META-INF/dyper/aop.xml")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(name));
                try (InputStream data = in.getInputStream(e)) {
                    data.transferTo(out);
                }
                out.closeEntry();
            }
            out.putNextEntry(new JarEntry(SITE_TABLE));
            out.write(code.siteTable().getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            out.putNextEntry(new JarEntry("META-INF/dyper/aop.xml"));
            out.write(code.aopXml().getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            for (Map.Entry<String, byte[]> v : versioned.entrySet()) {
                out.putNextEntry(new JarEntry(v.getKey()));
                out.write(v.getValue());
                out.closeEntry();
            }
        }
    }

    private static boolean isSignature(String name) {
        if (!name.startsWith("META-INF/") || name.indexOf('/', 9) >= 0) {
            return false;
        }
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return upper.endsWith(".SF") || upper.endsWith(".RSA") || upper.endsWith(".DSA") || upper.endsWith(".EC")
                || upper.startsWith("META-INF/SIG-");
    }

    /** The class path generated aspects compile against: the given entries plus Dyper's runtime and aspectjrt. */
    static List<Path> compileClasspath(List<Path> classpath) {
        List<Path> cp = new ArrayList<>(classpath);
        cp.addAll(runtimeClasspath());
        return cp;
    }

    /** What woven code needs at run time: the Dyper runtime and the AspectJ runtime, as jars or folders. */
    public static List<Path> runtimeClasspath() {
        return List.of(locate("dyper-runtime", org.dyper.runtime.Dyper.class),
                locate("aspectjrt", org.aspectj.lang.JoinPoint.class));
    }

    /** The AspectJ weaver agent jar, for {@code -javaagent}. */
    public static Path weaverAgent() {
        return locate("aspectjweaver", org.aspectj.weaver.loadtime.Agent.class);
    }

    /**
     * Finds a jar named {@code artifact-*.jar} on this JVM's class path, else the jar or folder that holds
     * {@code type} (in a reactor build, a module's classes folder).
     */
    static Path locate(String artifact, Class<?> type) {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(entry);
            String name = p.getFileName() == null ? "" : p.getFileName().toString();
            if (name.startsWith(artifact + "-") && name.endsWith(".jar")) {
                return p.toAbsolutePath();
            }
        }
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot find the " + artifact + " jar on the class path", e);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
