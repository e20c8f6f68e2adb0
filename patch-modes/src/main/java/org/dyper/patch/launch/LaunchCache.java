package org.dyper.patch.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.Generation;
import org.dyper.patch.build.TempFiles;
import org.dyper.patch.build.TreeFingerprint;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.launch.LaunchOptions.Weaving;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.runtime.io.AtomicWrite;

/**
 * Prepares a monitored launch ({@code dyper run}, the plugin's {@code run} goal) into a cached folder keyed by a hash
 * of every input (so a changed model, mode file or target jar never reuses stale work); {@link LaunchCommand} builds
 * the {@code java} command that uses it. Two ways, see {@link Weaving}: by default the patched classes are woven
 * once, ahead of the launch ({@link LaunchWeaving}), and a small agent hands the JVM the woven bytes as each class
 * loads; or the aspects alone are compiled and the AspectJ weaver agent weaves every class as it loads.
 */
public final class LaunchCache {
    private static final String FORMAT = "dyper-ltw-4";

    private LaunchCache() {}

    /**
     * The prepared aspects folder; {@code cached} is true when it was reused (then {@code code} is null).
     * {@code warnings} are the generator's warnings, kept with the cache so a reused folder shows them again.
     */
    public record Prepared(Path aspects, boolean cached, GeneratedCode code, List<String> notes,
                           List<String> warnings) {}

    /**
     * Returns a folder holding the compiled aspects and {@code META-INF/aop.xml} for {@code in}, reusing the one in
     * {@code cacheRoot} when every input is unchanged.
     */
    public static Prepared prepare(Weaver.Inputs in, Path cacheRoot) throws IOException, InvalidInputException,
            WeaveException {
        return prepare(in, cacheRoot, Weaving.AHEAD);
    }

    /** As {@link #prepare(Weaver.Inputs, Path)}, the given way. */
    public static Prepared prepare(Weaver.Inputs in, Path cacheRoot, Weaving weaving) throws IOException,
            InvalidInputException, WeaveException {
        return prepare(in, cacheRoot, weaving, Runtime.version().feature(), line -> {});
    }

    /**
     * As above for a program that runs on Java {@code javaFeature} (woven ahead, a multi-release jar's classes are
     * the ones that release loads; see {@link TargetJdk#featureVersion}), telling {@code progress} (one line) before the long
     * work when nothing is cached yet.
     */
    public static Prepared prepare(Weaver.Inputs in, Path cacheRoot, Weaving weaving, int javaFeature,
            java.util.function.Consumer<String> progress) throws IOException, InvalidInputException, WeaveException {
        String key = key(in, weaving == Weaving.AHEAD ? weaving + " java " + javaFeature : weaving.toString());
        Path dir = cacheRoot.resolve(key);
        Path done = dir.resolve("complete");
        if (Files.isRegularFile(done)) {
            Path saved = dir.resolve("warnings.txt");
            List<String> warnings = Files.isRegularFile(saved) ? Files.readAllLines(saved) : List.of();
            return new Prepared(dir.resolve("classes"), true, null, List.of(), warnings);
        }
        progress.accept((weaving == Weaving.AHEAD ? "weaving the patched classes" : "compiling the aspects")
                + " into the cache " + dir + " (first run with these inputs; later runs reuse it) ...");
        Generation generation = Generation.of(in, weaving == Weaving.AGENT);
        Files.createDirectories(cacheRoot);
        Path tmp = TempFiles.entry(cacheRoot, key);
        try {
            Path classes = tmp.resolve("classes");
            List<Path> cp = in.classpath().isEmpty() ? in.targets() : concat(in.targets(), in.classpath());
            List<String> notes = generation.weave(generated -> {
                Weaver.deleteTree(classes);  // what a try that ajc stopped left behind
                return weaving == Weaving.AHEAD
                        ? LaunchWeaving.weave(generated, in.targets(), in.classpath(), classes, javaFeature, progress)
                        : Weaver.compileAspects(generated, classes, cp);
            });
            GeneratedCode code = generation.code();
            Weaver.writeSources(code, tmp.resolve("sources"));
            // warnings from weaving (advice AspectJ did not apply) are kept with the generator's, so a reused folder
            // shows them again
            List<String> warnings = new ArrayList<>(code.warnings().stream().map(Object::toString).toList());
            notes.stream().filter(Weaver::isWarning).forEach(warnings::add);
            notes = notes.stream().filter(n -> !Weaver.isWarning(n)).toList();
            Files.write(tmp.resolve("warnings.txt"), warnings);
            Files.writeString(tmp.resolve("complete"), key + "\n");
            // another run may have prepared the same key at the same time: then theirs is used
            AtomicWrite.publishFolder(tmp, dir, d -> Files.isRegularFile(done));
            return new Prepared(dir.resolve("classes"), false, code, notes, warnings);
        } finally {
            Weaver.deleteTree(tmp);
        }
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * The cache key: a 128-bit hash (two independent 64-bit FNV-1a streams, mixed) over the format version and way,
     * Dyper's own code's, every model and mode file's path and bytes, each target's, class path entry's and runtime
     * jar's {@link TreeFingerprint}, and the include/exclude patterns. Not a cryptographic
     * hash: it only has to tell inputs apart, and it runs before every launch, where loading the JDK's message
     * digests would cost more than the hashing.
     */
    static String key(Weaver.Inputs in, String way) throws IOException {
        return key(in, way, OWN_CODE);
    }

    /**
     * Dyper's own generator and weaver (this class's jar or class folder): a Dyper built or installed again must not
     * reuse what an older one generated, which may carry a defect fixed since.
     */
    private static final List<Path> OWN_CODE = ownCode();

    private static List<Path> ownCode() {
        Path own = Weaver.codeOf(LaunchCache.class);
        return own == null ? List.of() : List.of(own);
    }

    /** The key, with {@code own} as Dyper's own code. */
    static String key(Weaver.Inputs in, String way, List<Path> own) throws IOException {
        Key digest = new Key();
        for (Path p : own) {
            TreeFingerprint.describe(p, digest::update);
        }
        digest.update(FORMAT + " " + way);
        for (Path p : concat(in.models(), in.modeFiles())) {
            digest.update(p.toAbsolutePath().toString());
            digest.update(Files.readAllBytes(p));
        }
        for (Path p : concat(in.targets(), in.classpath())) {
            TreeFingerprint.describe(p, digest::update);
        }
        for (Path p : Weaver.runtimeClasspath()) {
            TreeFingerprint.describe(p, digest::update);
        }
        digest.update("include " + in.includes());
        digest.update("exclude " + in.excludes());
        return digest.hex();
    }

    /** Two 64-bit FNV-1a hashes with different bases, each item followed by a separator byte. */
    private static final class Key {
        private long a = 0xcbf29ce484222325L;
        private long b = 0x84222325cbf29ce4L;

        void update(String s) {
            update(s.getBytes(StandardCharsets.UTF_8));
        }

        void update(byte[] bytes) {
            for (byte x : bytes) {
                add(x);
            }
            add((byte) 0);
            add((byte) 0xff);
        }

        private void add(byte x) {
            a = (a ^ (x & 0xff)) * 0x100000001b3L;
            b = (b ^ ((x & 0xff) + 0x9e)) * 0x100000001b3L;
            b = Long.rotateLeft(b, 5);
        }

        String hex() {
            return hex(mix(a), 16) + hex(mix(b) >>> 32, 8);
        }

        private static String hex(long v, int digits) {
            char[] c = new char[digits];
            for (int i = digits - 1; i >= 0; i--, v >>>= 4) {
                c[i] = Character.forDigit((int) (v & 15), 16);
            }
            return new String(c);
        }

        private static long mix(long z) {
            z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
            z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
            return z ^ (z >>> 33);
        }
    }
}
