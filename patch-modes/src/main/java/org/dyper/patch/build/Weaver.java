package org.dyper.patch.build;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.aspectj.Generator;
import org.dyper.patch.model.InvalidInputException;

/**
 * The one implementation of Dyper's build steps, shared by the CLI and the Maven plugin: read models and modes,
 * generate aspects against the target classes, compile them with ajc, weave binaries.
 */
public final class Weaver {
    /** Where the site table goes in a woven jar or aspect folder. */
    public static final String SITE_TABLE = "META-INF/dyper/sites.tsv";
    /** Where the load-time weaving configuration goes in an aspect folder. */
    public static final String AOP_XML = "META-INF/aop.xml";

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

        /** Whether the class {@code binaryName} may be patched (builds the patterns each time: see {@link #admitter}). */
        public boolean admits(String binaryName) {
            return admitter().test(binaryName);
        }

        /**
         * Whether a class may be patched, with the patterns compiled once: a test costs a few hash lookups however
         * many patterns there are, so restricting a big class path is one pass over its classes.
         */
        public java.util.function.Predicate<String> admitter() {
            ClassFilter in = new ClassFilter(includes);
            ClassFilter out = new ClassFilter(excludes);
            return name -> (in.isEmpty() || in.matches(name)) && !out.matches(name);
        }
    }

    /** Reads, validates and generates; every problem of every file is reported in one exception. */
    public static GeneratedCode generate(Inputs in) throws InvalidInputException, IOException {
        return generate(in, false);
    }

    /**
     * As {@link #generate(Inputs)}; with {@code forLoadTime} the advice avoids around advice, which the load-time
     * weaver does not inline. Classes that need types missing from the class path are left out with one warning
     * ({@link Generation}); weave through {@link Generation#weave} to also recover when ajc finds one more.
     */
    public static GeneratedCode generate(Inputs in, boolean forLoadTime) throws InvalidInputException, IOException {
        return Generation.of(in, forLoadTime).code();
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
                Replacements.writeBytecodePass(code.bytecode(), classesDir.resolve(Replacements.DIR));
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
        return weaveBinary(code, input, outJar, classpath, line -> {});
    }

    /**
     * As above, telling {@code progress} (one line at a time) how a weave of several batches goes. Only the classes the
     * code patches go to ajc (with the bytecode pass applied first), in batches ({@link AjcBatches}); the rest of the
     * input is copied as it is ({@link JarOutput}). In a multi-release jar every release's copy of a patched class is
     * woven; a module descriptor gains what woven code requires ({@link ModuleInfo}).
     */
    public static List<String> weaveBinary(GeneratedCode code, Path input, Path outJar, List<Path> classpath,
            java.util.function.Consumer<String> progress) throws IOException, WeaveException {
        Map<String, byte[]> inputs = PatchedClasses.read(code, List.of(input), 0, null);
        List<Path> cp = new ArrayList<>();
        cp.add(input);
        cp.addAll(classpath);
        AjcBatches.Result woven = AjcBatches.weave(code, inputs, cp, progress);
        List<String> notes = new ArrayList<>(woven.warnings());
        Map<String, byte[]> changes = new java.util.LinkedHashMap<>();
        woven.classes().forEach((name, bytes) -> changes.put(name + ".class", bytes));
        notes.addAll(MultiRelease.weave(code, input, woven.classes(), cp, changes));
        changes.put(SITE_TABLE, code.siteTable().getBytes(StandardCharsets.UTF_8));
        changes.put("META-INF/dyper/aop.xml", code.aopXml().getBytes(StandardCharsets.UTF_8));
        notes.addAll(JarOutput.write(input, outJar, changes, d -> ModuleInfo.withRuntime(d, code.packageName())));
        return notes;
    }

    /** Writes the site table under {@link #SITE_TABLE} in {@code classesDir}. */
    public static void writeSiteTable(GeneratedCode code, Path classesDir) throws IOException {
        Jars.write(classesDir.resolve(SITE_TABLE), code.siteTable().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Weaves a class folder in place (the Maven plugin's {@code weave} goal): the classes the code patches are woven
     * ({@link AjcBatches}) and written back, with the compiled aspects, the site table and {@code aop.xml} under
     * {@code META-INF/dyper/}, and a module descriptor gains what woven code requires. Other files are left as they
     * are. Aspect classes of earlier generations (under {@link Generator#PACKAGE}) are removed first. Each file is
     * written to a temporary file beside it and renamed, keeping the permissions of the file it replaces.
     */
    public static List<String> weaveFolderInPlace(GeneratedCode code, Path classes, List<Path> classpath)
            throws IOException, WeaveException {
        return weaveFolderInPlace(code, classes, classpath, line -> {});
    }

    /** As above, telling {@code progress} how a weave of several batches goes. */
    public static List<String> weaveFolderInPlace(GeneratedCode code, Path classes, List<Path> classpath,
            java.util.function.Consumer<String> progress) throws IOException, WeaveException {
        deleteTree(classes.resolve(Generator.PACKAGE.replace('.', '/')));
        Map<String, byte[]> inputs = PatchedClasses.read(code, List.of(classes), 0, null);
        List<Path> cp = new ArrayList<>();
        cp.add(classes);
        cp.addAll(classpath);
        AjcBatches.Result woven = AjcBatches.weave(code, inputs, cp, progress);
        Map<String, byte[]> files = new java.util.LinkedHashMap<>();
        woven.classes().forEach((name, bytes) -> files.put(name + ".class", bytes));
        files.put(SITE_TABLE, code.siteTable().getBytes(StandardCharsets.UTF_8));
        files.put("META-INF/dyper/aop.xml", code.aopXml().getBytes(StandardCharsets.UTF_8));
        Path descriptor = classes.resolve("module-info.class");
        if (Files.isRegularFile(descriptor)) {
            files.put("module-info.class", ModuleInfo.withRuntime(Files.readAllBytes(descriptor), code.packageName()));
        }
        for (Map.Entry<String, byte[]> f : files.entrySet()) {
            Path target = classes.resolve(f.getKey()).normalize();
            if (!target.startsWith(classes.normalize())) {
                throw new IOException("woven class " + f.getKey() + " points outside " + classes);
            }
            Files.createDirectories(target.getParent());
            Path tmp = JarOutput.create(target);
            try {
                Files.write(tmp, f.getValue());
                JarOutput.permissions(target, tmp);
                org.dyper.runtime.io.AtomicWrite.move(tmp, target);
            } finally {
                Files.deleteIfExists(tmp);
            }
        }
        return woven.warnings();
    }

    /**
     * Whether a note a weave returned is a warning the user must see (not only with {@code --verbose}): the text of a
     * {@link org.dyper.patch.model.Problem} warning, such as the one for advice AspectJ did not apply ({@link AjcBatches}).
     */
    public static boolean isWarning(String note) {
        return note.startsWith("warning: ") || note.matches("(?s)[^\\n]*:\\d+:\\d+: warning: .*");
    }

    /** The class path generated aspects compile against: the given entries plus Dyper's runtime and aspectjrt. */
    public static List<Path> compileClasspath(List<Path> classpath) {
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
        Path found = codeOf(type);
        if (found == null) {
            throw new IllegalStateException("cannot find the " + artifact + " jar on the class path");
        }
        return found;
    }

    /** The jar or class folder {@code type} was loaded from, or null when the JVM does not say. */
    public static Path codeOf(Class<?> type) {
        try {
            java.security.CodeSource cs = type.getProtectionDomain().getCodeSource();
            return cs == null || cs.getLocation() == null ? null : Path.of(cs.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** Deletes a folder and everything in it (nothing when it does not exist). */
    public static void deleteTree(Path root) throws IOException {
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
