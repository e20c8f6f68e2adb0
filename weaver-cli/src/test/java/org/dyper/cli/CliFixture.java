package org.dyper.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of the {@code dyper} command share: the fixture classes ({@code com.acme.cli}: {@link App} calls
 * {@code Tally.add} five times and prints {@code total 15}), a model that counts {@code Tally.add}, and running
 * {@code dyper} in-process ({@link #dyper}) or in a child JVM ({@link #cli}, where the program under test inherits
 * the terminal or must run woven). Each test class gets its own folder.
 */
abstract class CliFixture {
    static final String SEP = File.pathSeparator;
    static final String ADD = "com.acme.cli.Tally.add(int)";

    @TempDir
    static Path dir;
    /** Only the fixture package's classes, so the scanner sees exactly App and Tally. */
    static Path classes;
    /** Counts every execution of Tally.add. */
    static Path model;

    @BeforeAll
    static void fixture() throws Exception {
        Path compiled = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path pkg = Path.of("com", "acme", "cli");
        classes = dir.resolve("classes");
        Files.createDirectories(classes.resolve(pkg));
        for (String name : List.of("App.class", "Tally.class")) {
            Files.copy(compiled.resolve(pkg).resolve(name), classes.resolve(pkg).resolve(name));
        }
        model = write("count.xml", """
                <MODEL NAME='count'>
                  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>
                    <PATCH WHAT='ENTER' MODE='COUNT'/>
                  </FOR>
                </MODEL>
                """);
    }

    static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, UTF_8);
    }

    record Result(int code, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    /** Runs {@code dyper} in-process; {@code {dir}}, {@code {classes}} and {@code {model}} stand for the fixtures. */
    static Result dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] resolved = Arrays.stream(args).map(CliFixture::at).toArray(String[]::new);
        int code;
        try (PrintStream o = new PrintStream(out, true, UTF_8); PrintStream e = new PrintStream(err, true, UTF_8)) {
            code = Main.run(resolved, o, e, Map.of());
        }
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    static String at(String s) {
        return s.replace("{dir}", dir.toString()).replace("{classes}", classes.toString())
                .replace("{model}", model.toString());
    }

    static String[] split(String line) {
        return line.isEmpty() ? new String[0] : line.split(" ");
    }

    /** The site table of the fixture model over the fixture classes. */
    static final List<String> SITES = List.of("# Dyper site table: id\tkind\tclass\tmethod\tparameters",
            "1\tMETHOD\tcom.acme.cli.Tally\tadd\tint");

    record Child(int code, String out, String err) {}

    static Child java(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Processes.currentJava().toString());
        cmd.addAll(args);
        return run(cmd, dir, 60);
    }

    /** Runs {@code cmd} in {@code workDir}, reading both its streams; fails the test if it takes over {@code seconds}. */
    static Child run(List<String> cmd, Path workDir, int seconds) throws IOException, InterruptedException {
        Processes.Result r = Processes.run(new ProcessBuilder(cmd).directory(workDir.toFile()),
                Duration.ofSeconds(seconds));
        return new Child(r.exit(), r.out(), r.err());
    }

    static Child cli(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return java(cmd);
    }

    /** {@code jvmOptions... Main args...}: the CLI's command after {@code java}, JVM options first. */
    static List<String> withCli(List<String> optionsThenArgs) {
        List<String> cmd = new ArrayList<>();
        int i = 0;
        while (i < optionsThenArgs.size() && optionsThenArgs.get(i).startsWith("-D")) {
            cmd.add(optionsThenArgs.get(i++));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(optionsThenArgs.subList(i, optionsThenArgs.size()));
        return cmd;
    }

    static String read(JarFile jar, String name) throws IOException {
        JarEntry e = jar.getJarEntry(name);
        assertTrue(e != null, name + " is missing");
        try (InputStream in = jar.getInputStream(e)) {
            return new String(in.readAllBytes(), UTF_8);
        }
    }

    /** A jar of the fixture classes with a Main-Class manifest and the given extra files. */
    static void jar(Path file, String mainClass, Map<String, String> extra) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            try (Stream<Path> walk = Files.walk(classes)) {
                for (Path f : walk.filter(Files::isRegularFile).sorted().toList()) {
                    jar.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                    jar.write(Files.readAllBytes(f));
                    jar.closeEntry();
                }
            }
            for (Map.Entry<String, String> e : extra.entrySet()) {
                jar.putNextEntry(new JarEntry(e.getKey()));
                jar.write(e.getValue().getBytes(UTF_8));
                jar.closeEntry();
            }
        }
    }

    /** COUNTS of the XML report, site name to COUNT. */
    static Map<String, String> counts(Path report) throws Exception {
        return XmlReports.counts(report);
    }

    /**
     * The fixture as a multi-release jar: Tally also under META-INF/versions/17 with different bytes (an extra field),
     * which is the one JDK 17 and later load.
     */
    static Path multiReleaseJar(Path app) throws IOException {
        byte[] tally = Files.readAllBytes(classes.resolve("com/acme/cli/Tally.class"));
        org.objectweb.asm.ClassWriter versioned = new org.objectweb.asm.ClassWriter(0);
        new org.objectweb.asm.ClassReader(tally).accept(new org.objectweb.asm.ClassVisitor(
                org.objectweb.asm.Opcodes.ASM9, versioned) {
            @Override
            public void visitEnd() {
                visitField(org.objectweb.asm.Opcodes.ACC_PRIVATE | org.objectweb.asm.Opcodes.ACC_STATIC,
                        "release17", "I", null, null).visitEnd();
                super.visitEnd();
            }
        }, 0);
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.acme.cli.App");
        mf.getMainAttributes().putValue("Multi-Release", "true");
        try (OutputStream out = Files.newOutputStream(app); JarOutputStream jar = new JarOutputStream(out, mf)) {
            for (String name : List.of("com/acme/cli/App.class", "com/acme/cli/Tally.class")) {
                jar.putNextEntry(new JarEntry(name));
                jar.write(Files.readAllBytes(classes.resolve(name)));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("META-INF/versions/17/com/acme/cli/Tally.class"));
            jar.write(versioned.toByteArray());
            jar.closeEntry();
        }
        return app;
    }

    /** A jar of the named fixture classes of {@code com.acme.cli}, with {@code mainClass} as its Main-Class. */
    static Path fixtureJar(Path file, String mainClass, List<String> names) throws Exception {
        Path compiled = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            for (String name : names) {
                String entry = "com/acme/cli/" + name + ".class";
                jar.putNextEntry(new JarEntry(entry));
                jar.write(Files.readAllBytes(compiled.resolve(entry)));
                jar.closeEntry();
            }
        }
        return file;
    }
}
