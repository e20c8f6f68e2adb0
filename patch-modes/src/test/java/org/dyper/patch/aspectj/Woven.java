package org.dyper.patch.aspectj;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.example.fixture.Target;
import org.dyper.patch.build.Weaver;

/** Test harness: weaves the fixture classes with a model and modes, and runs the woven script in-process. */
public final class Woven {
    public static final Path TEST_CLASSES = classesOf(Target.class);

    private Woven() {}

    static Path classesOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A folder holding only the fixture package, so only it is woven. */
    public static Path fixtureClasses(Path dir) throws IOException {
        Path out = dir.resolve("fixture-classes");
        Path pkg = TEST_CLASSES.resolve("org/example/fixture");
        Path dest = out.resolve("org/example/fixture");
        Files.createDirectories(dest);
        try (Stream<Path> files = Files.list(pkg)) {
            for (Path f : files.toList()) {
                Files.copy(f, dest.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return out;
    }

    public static Weaver.Inputs inputs(Path dir, String modes, String model) throws IOException {
        Path modeFile = dir.resolve("modes.xml");
        Path modelFile = dir.resolve("model.xml");
        Files.writeString(modeFile, modes);
        Files.writeString(modelFile, model);
        return new Weaver.Inputs(List.of(modelFile), List.of(modeFile), List.of(fixtureClasses(dir)),
                List.of(TEST_CLASSES));
    }

    /** Loads the woven fixture child-first (the runtime and the recorder stay shared) and runs its script. */
    public static String runScript(Path wovenJar) throws Exception {
        return runScript(new URL[] {wovenJar.toUri().toURL()});
    }

    public static String runScript(URL[] urls) throws Exception {
        return run(urls, null);
    }

    /**
     * Runs the script like {@link #runScript(URL[])}, then adds to {@code shapes} what reflection sees of every class
     * of the fixture package ({@link ClassShape}), as loaded (and woven) in the same class loader.
     */
    static String run(URL[] urls, List<String> shapes) throws Exception {
        try (URLClassLoader loader = new ChildFirst(urls, Woven.class.getClassLoader())) {
            Class<?> target = Class.forName(Target.class.getName(), true, loader);
            if (target == Target.class) {
                throw new AssertionError("the woven fixture was not loaded");
            }
            String result;
            try {
                result = (String) target.getMethod("script").invoke(null);
            } finally {
                if (shapes != null) {
                    for (String name : fixtureClassNames()) {
                        shapes.addAll(ClassShape.of(Class.forName(name, false, loader)));
                    }
                }
            }
            return result;
        }
    }

    /** The binary names of the fixture package's classes, sorted. */
    static List<String> fixtureClassNames() throws IOException {
        try (Stream<Path> files = Files.list(TEST_CLASSES.resolve("org/example/fixture"))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".class")).sorted()
                    .map(f -> "org.example.fixture." + f.substring(0, f.length() - ".class".length())).toList();
        }
    }

    /** A loader of {@code urls} that loads the fixture and generated classes itself, everything else from this one. */
    static URLClassLoader childFirst(URL[] urls) {
        return new ChildFirst(urls, Woven.class.getClassLoader());
    }

    private static final class ChildFirst extends URLClassLoader {
        ChildFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.example.fixture.") || name.startsWith("org.dyper.generated.")) {
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c == null) {
                        c = findClass(name);
                    }
                    return c;
                }
            }
            return super.loadClass(name, resolve);
        }
    }
}
