package org.dyper.patch.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * The arguments of a {@code java} command line, split into JVM options, class path and the rest (main class or
 * {@code -jar} and program arguments), so Dyper can add to the class path without disturbing anything else.
 */
final class JavaArgs {
    /** JVM options that take their value as the next argument. */
    private static final Set<String> WITH_VALUE = Set.of("-p", "--module-path", "--upgrade-module-path",
            "--add-modules", "--limit-modules", "--add-exports", "--add-opens", "--add-reads", "--patch-module",
            "--enable-native-access", "--source");
    private static final Set<String> CLASSPATH = Set.of("-cp", "-classpath", "--class-path");

    private final List<String> options;
    private final String classpath;
    private final String jar;
    private final List<String> rest;

    private JavaArgs(List<String> options, String classpath, String jar, List<String> rest) {
        this.options = options;
        this.classpath = classpath;
        this.jar = jar;
        this.rest = rest;
    }

    static JavaArgs parse(List<String> args) {
        List<String> options = new ArrayList<>();
        String classpath = null;
        String jar = null;
        int i = 0;
        for (; i < args.size(); i++) {
            String a = args.get(i);
            if (CLASSPATH.contains(a)) {
                classpath = value(args, ++i, a);
            } else if (a.startsWith("--class-path=")) {
                classpath = a.substring("--class-path=".length());
            } else if (a.equals("-jar")) {
                jar = value(args, ++i, a);
                i++;
                break;
            } else if (a.equals("-m") || a.equals("--module") || a.startsWith("--module=")) {
                throw new IllegalArgumentException("running a module (" + a + ") is not supported: use -cp and a main "
                        + "class, or -jar");
            } else if (WITH_VALUE.contains(a)) {
                options.add(a);
                options.add(value(args, ++i, a));
            } else if (a.startsWith("-")) {
                options.add(a);
            } else {
                break;
            }
        }
        List<String> rest = new ArrayList<>(args.subList(Math.min(i, args.size()), args.size()));
        if (jar == null && rest.isEmpty()) {
            throw new IllegalArgumentException("no main class after the java options (give -cp PATH MAIN or -jar JAR)");
        }
        return new JavaArgs(options, classpath, jar, rest);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException("java option " + option + " needs a value");
        }
        return args.get(i);
    }

    /** The class path the program would run with: -cp, else the jar and its manifest Class-Path, else CLASSPATH or ".". */
    private List<String> effectiveClasspath() throws IOException {
        List<String> entries = new ArrayList<>();
        if (jar != null) {
            entries.add(jar);
            Manifest mf = manifest();
            String cp = mf == null ? null : mf.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
            if (cp != null) {
                // entries are URLs relative to the jar's folder (a blank in a name is %20); like the JVM, skip the
                // ones that are not file URLs or not valid
                java.net.URI base = Path.of(jar).toAbsolutePath().getParent().toUri();
                for (String e : cp.trim().split("\\s+")) {
                    try {
                        java.net.URI u = base.resolve(new java.net.URI(e));
                        if (!e.isEmpty() && "file".equalsIgnoreCase(u.getScheme())) {
                            entries.add(Path.of(u).toString());
                        }
                    } catch (java.net.URISyntaxException | IllegalArgumentException
                             | java.nio.file.FileSystemNotFoundException invalid) {
                        // not a usable class path entry
                    }
                }
            }
            return entries;
        }
        String cp = classpath != null ? classpath : System.getenv().getOrDefault("CLASSPATH", ".");
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(e);
            }
        }
        return entries;
    }

    private Manifest manifest() throws IOException {
        try (JarFile file = new JarFile(jar)) {
            return file.getManifest();
        }
    }

    /** Existing jars and folders of the class path, with {@code dir/*} expanded to the jars in dir. */
    List<Path> classpathEntries() throws IOException {
        List<Path> paths = new ArrayList<>();
        for (String e : effectiveClasspath()) {
            if (e.endsWith("*")) {
                Path dir = Path.of(e.substring(0, e.length() - 1));
                if (Files.isDirectory(dir)) {
                    try (Stream<Path> files = Files.list(dir)) {
                        files.filter(f -> f.toString().endsWith(".jar") || f.toString().endsWith(".JAR")).sorted()
                                .forEach(paths::add);
                    }
                }
            } else if (Files.exists(Path.of(e))) {
                paths.add(Path.of(e));
            }
        }
        return paths;
    }

    /** The arguments again, with {@code extra} appended to the class path ({@code -jar} becomes {@code -cp MAIN}). */
    List<String> withClasspathAppended(List<String> extra) throws IOException {
        List<String> out = new ArrayList<>(options);
        List<String> cp = new ArrayList<>(effectiveClasspath());
        cp.addAll(extra);
        out.add("-cp");
        out.add(String.join(File.pathSeparator, cp));
        if (jar != null) {
            Manifest mf = manifest();
            String main = mf == null ? null : mf.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (main == null) {
                throw new IllegalArgumentException(jar + " has no Main-Class in its manifest");
            }
            out.add(main.trim());
        }
        out.addAll(rest);
        return out;
    }
}
