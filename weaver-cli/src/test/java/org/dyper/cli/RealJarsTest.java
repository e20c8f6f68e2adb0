package org.dyper.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.xml.parsers.DocumentBuilderFactory;
import org.dyper.cli.CliFixture.Child;
import org.dyper.patch.build.Weaver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What real jars contain, built here the way libraries build them (javac, jar, jarsigner): two jars woven separately
 * with one model and run together, optional dependencies missing at weave time, a signed jar and a modular jar, each
 * through {@code dyper weave} and, where it applies, {@code dyper run}; the woven jar's permissions. Every woven
 * program runs in a child JVM and its exact counts are read from the XML report.
 */
class RealJarsTest {
    private static final String SEP = File.pathSeparator;

    @TempDir
    static Path dir;
    /** lib.Counter, with hit() and value(). */
    static Path lib;
    /** app.Main: three Counter.hit() calls and two work() calls; needs lib. */
    static Path app;
    /** a.Plain and friends (the optional-dependency fixture); b.jar is its optional dependency. */
    static Path opt;
    static Path optional;
    /** Counts every method of lib.*, app.* and a.*. */
    static Path countAll;
    /** Counts every method of a.* (the optional-dependency fixture). */
    static Path countA;

    @BeforeAll
    static void fixtures() throws Exception {
        lib = jar("lib", Map.of("lib/Counter.java", """
                package lib;
                public class Counter {
                    private int n;
                    public void hit() { n++; }
                    public int value() { return n; }
                }
                """), List.of(), null);
        app = jar("app", Map.of("app/Main.java", """
                package app;
                public class Main {
                    static int work(int k) { return k * 2; }
                    public static void main(String[] args) {
                        lib.Counter c = new lib.Counter();
                        for (int i = 0; i < 3; i++) c.hit();
                        System.out.println("value " + c.value() + " work " + (work(1) + work(2)));
                    }
                }
                """), List.of(lib), "app.Main");
        optional = jar("optional", Map.of(
                "b/Missing.java", "package b; public class Missing { public int base() { return 1; } }",
                "b/MissingIface.java", "package b; public interface MissingIface { int f(); }",
                "b/MissingArg.java", "package b; public class MissingArg { }",
                "b/MissingUtil.java", "package b; public class MissingUtil { public static int f() { return 3; } }"),
                List.of(), null);
        opt = jar("opt", Map.of(
                "a/Plain.java", """
                        package a;
                        public class Plain {
                            public int one() { return 1; }
                            public static void main(String[] x) {
                                Plain p = new Plain();
                                int s = 0;
                                for (int i = 0; i < 5; i++) s += p.one();
                                System.out.println("sum " + s + " " + new Sig().n(2) + " " + Body.safe());
                            }
                        }
                        """,
                "a/Sub.java", "package a; public class Sub extends b.Missing { public int two() { return 2; } }",
                "a/Impl.java", "package a; public class Impl implements b.MissingIface { public int f() { return 4; } }",
                "a/Sig.java", "package a; public class Sig { public int m(b.MissingArg x) { return 5; } "
                        + "public int n(int k) { return k * 2; } }",
                "a/Ret.java", "package a; public class Ret { public b.MissingArg r() { return null; } "
                        + "public int ok() { return 6; } }",
                "a/Body.java", "package a; public class Body { public int g() { return b.MissingUtil.f(); } "
                        + "public static int safe() { return 7; } }",
                "a/Field.java", "package a; public class Field { b.MissingArg f; public int h() { return 8; } }"),
                List.of(optional), "a.Plain");
        countAll = Files.writeString(dir.resolve("count-all.xml"), """
                <MODEL NAME='all'>
                  <FOR CLASS='lib.*' METHOD='*'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>
                  <FOR CLASS='app.*' METHOD='*'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>
                  <FOR CLASS='a.*' METHOD='*'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>
                </MODEL>
                """);
        countA = Files.writeString(dir.resolve("count-a.xml"), """
                <MODEL NAME='a'>
                  <FOR CLASS='a.*' METHOD='*'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>
                </MODEL>
                """);
    }

    private static final Map<String, String> APP_COUNTS = Map.of(
            "lib.Counter.<init>()", "1", "lib.Counter.hit()", "3", "lib.Counter.value()", "1",
            "app.Main.main(java.lang.String[])", "1", "app.Main.work(int)", "2");

    // ---- two jars, one model ----

    /** Each jar gets its own generated package and its own ids, so the two run side by side with exact counts. */
    @Test
    void twoJarsWovenSeparatelyWithOneModelRunTogether() throws Exception {
        Path libWoven = dir.resolve("two/lib-woven.jar");
        Path appWoven = dir.resolve("two/app-woven.jar");
        assertEquals(ExitCode.OK, dyper("weave", "--model", countAll.toString(), "--in", lib.toString(), "--out",
                libWoven.toString()).code());
        Result r = dyper("weave", "--model", countAll.toString(), "--in", app.toString(), "--out",
                appWoven.toString(), "--classpath", lib.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertNotEquals(generatedPackages(libWoven), generatedPackages(appWoven));
        assertEquals(1, generatedPackages(libWoven).size());

        Path report = dir.resolve("two/report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp",
                appWoven + SEP + libWoven + SEP + runtime(), "app.Main"));
        assertEquals(new Child(0, "value 3 work 6\n", ""), run);
        assertEquals(new TreeMap<>(APP_COUNTS), counts(report));
    }

    /**
     * {@code dyper run --patch}: only the named entry is woven at launch; the other one, woven before with the same
     * model, keeps its own ids.
     */
    @Test
    void runPatchesOnlyTheNamedEntryBesideAJarWovenBefore() throws Exception {
        Path libWoven = dir.resolve("patch/lib-woven.jar");
        assertEquals(ExitCode.OK, dyper("weave", "--model", countAll.toString(), "--in", lib.toString(), "--out",
                libWoven.toString()).code());
        Path report = dir.resolve("patch/report.xml");
        Child run = cli(List.of("run", "--model", countAll.toString(), "--patch", app.toString(), "--cache",
                dir.resolve("patch/cache").toString(), "--no-monitor", "--report", "none", "--xml", report.toString(),
                "--", "-cp", app + SEP + libWoven, "app.Main"));
        assertEquals(0, run.code(), run.err());
        assertEquals("value 3 work 6\n", run.out());
        assertEquals(new TreeMap<>(APP_COUNTS), counts(report));

        Child wrong = cli(List.of("run", "--model", countAll.toString(), "--patch", opt.toString(), "--", "-cp",
                app.toString(), "app.Main"));
        assertEquals(new Child(ExitCode.USAGE, "", "dyper: error: run: --patch " + opt + " is not on the program's "
                + "class path (-cp or -jar): give one of its entries\n"), wrong);
    }

    // ---- optional dependencies missing ----

    private static final String SKIPPED = "warning: FOR: 5 class(es) left unpatched because types they need are not on "
            + "the class path: a.Field, a.Impl, a.Ret, a.Sig, a.Sub. Missing: b.Missing (needed by a.Sub); b.MissingArg "
            + "(needed by a.Field, a.Ret, a.Sig); b.MissingIface (needed by a.Impl). Put the jars that hold them on the "
            + "class path to patch these classes too.";
    private static final Map<String, String> OPT_COUNTS = Map.of("a.Plain.<init>()", "1", "a.Plain.one()", "5",
            "a.Plain.main(java.lang.String[])", "1", "a.Body.safe()", "1");

    /** A broad model over a jar whose optional dependency is absent: one warning, the rest woven, and it runs. */
    @Test
    void missingOptionalDependenciesLeaveTheirClassesUnpatchedWithOneWarning() throws Exception {
        Path woven = dir.resolve("opt/woven.jar");
        Result r = dyper("weave", "--model", countA.toString(), "--in", opt.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        List<String> warnings = r.errLines().stream().filter(l -> l.contains("warning:")).toList();
        assertEquals(List.of("dyper: " + countA + ":2:3: " + SKIPPED), warnings);
        assertTrue(r.out().startsWith("dyper: wrote " + woven + " (2 class(es) patched, 6 advice, 6 site id(s))"),
                r.out());

        Path report = dir.resolve("opt/report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp",
                woven + SEP + optional + SEP + runtime(), "a.Plain"));
        assertEquals(new Child(0, "sum 5 4 7\n", ""), run);
        assertEquals(new TreeMap<>(OPT_COUNTS), counts(report));
    }

    /** The same under dyper run: the program starts (before, dyper run exited 4 without starting it). */
    @Test
    void runStartsTheProgramWhenOptionalDependenciesAreMissing() throws Exception {
        Path report = dir.resolve("opt/run-report.xml");
        Child run = cli(List.of("run", "--model", countA.toString(), "--cache", dir.resolve("opt/cache").toString(),
                "--no-monitor", "--report", "none", "--xml", report.toString(), "--", "-cp", opt.toString(),
                "a.Plain"));
        assertEquals(0, run.code(), run.err());
        assertEquals("sum 5 4 7\n", run.out());
        assertTrue(run.err().contains("dyper: " + countA + ":2:3: " + SKIPPED + "\n"), run.err());
        assertEquals(new TreeMap<>(OPT_COUNTS), counts(report));
    }

    // ---- signed jars ----

    @Test
    void signedJarsComeOutUnsignedAndRunnableWithNothingHalfWritten() throws Exception {
        Path signed = dir.resolve("signed/app-signed.jar");
        Files.createDirectories(signed.getParent());
        Files.copy(lib, signed);
        Path keystore = dir.resolve("signed/keys.p12");
        tool("keytool", "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass",
                "secret", "-keypass", "secret", "-alias", "dyper", "-keyalg", "RSA", "-keysize", "2048", "-dname",
                "CN=Dyper Test", "-validity", "2");
        tool("jarsigner", "-keystore", keystore.toString(), "-storepass", "secret", signed.toString(), "dyper");
        try (JarFile jar = new JarFile(signed.toFile())) {
            assertTrue(jar.getEntry("META-INF/DYPER.SF") != null, "the fixture is signed");
        }
        Path out = dir.resolve("signed/out");
        Files.createDirectories(out);
        Path woven = out.resolve("lib-woven.jar");
        Result r = dyper("weave", "--model", countAll.toString(), "--in", signed.toString(), "--out", woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.errLines().contains("dyper: note: dropped signature file META-INF/DYPER.SF: woven classes no "
                + "longer match the signature"), r.err());
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of(woven), files.toList(), "only the woven jar is left in the output folder");
        }
        try (JarFile jar = new JarFile(woven.toFile(), true)) {
            assertNull(jar.getEntry("META-INF/DYPER.SF"));
            assertNull(jar.getEntry("META-INF/DYPER.RSA"));
            assertTrue(jar.getManifest().getEntries().isEmpty(), "per-entry digests are dropped with the signature");
        }
        Path report = dir.resolve("signed/report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp",
                app + SEP + woven + SEP + runtime(), "app.Main"));
        assertEquals(new Child(0, "value 3 work 6\n", ""), run);
        assertEquals(Map.of("lib.Counter.<init>()", "1", "lib.Counter.hit()", "3", "lib.Counter.value()", "1"),
                counts(report));

        Path runReport = dir.resolve("signed/run-report.xml");
        Child launched = cli(List.of("run", "--model", countAll.toString(), "--patch", signed.toString(), "--cache",
                dir.resolve("signed/cache").toString(), "--no-monitor", "--report", "none", "--xml",
                runReport.toString(), "--", "-cp", app + SEP + signed, "app.Main"));
        assertEquals(0, launched.code(), launched.err());
        assertEquals(counts(report), counts(runReport));
    }

    // ---- modular jars ----

    /** A modular jar, woven, runs on the module path: its descriptor now requires the runtimes. */
    @Test
    void aWovenModularJarRunsOnTheModulePath() throws Exception {
        Path src = dir.resolve("mod/src");
        write(src, Map.of("module-info.java", "module mod.app { }", "app/Main.java", """
                package app;
                public class Main {
                    static int work(int k) { return k * 2; }
                    public static void main(String[] args) {
                        System.out.println("work " + (work(1) + work(2)) + " in " + Main.class.getModule().getName());
                    }
                }
                """));
        Path classes = dir.resolve("mod/classes");
        compile(src, classes, List.of());
        Path modular = dir.resolve("mod/mod-app.jar");
        tool("jar", "--create", "--file", modular.toString(), "--main-class", "app.Main", "-C", classes.toString(),
                ".");
        Path woven = dir.resolve("mod/mod-app-woven.jar");
        Result r = dyper("weave", "--model", countAll.toString(), "--in", modular.toString(), "--out",
                woven.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());

        Path report = dir.resolve("mod/report.xml");
        Child run = java(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + report, "--module-path",
                woven + SEP + moduleRuntime(), "-m", "mod.app"));
        assertEquals(new Child(0, "work 6 in mod.app\n", ""), run);
        assertEquals(Map.of("app.Main.main(java.lang.String[])", "1", "app.Main.work(int)", "2"), counts(report));
    }

    // ---- permissions ----

    @Test
    void theWovenJarGetsTheInputsPermissions() throws Exception {
        for (String mode : List.of("rw-r-----", "rw-rw-r--")) {
            Path in = dir.resolve("perm-" + mode + ".jar");
            Files.copy(lib, in);
            Files.setPosixFilePermissions(in, PosixFilePermissions.fromString(mode));
            Path out = dir.resolve("perm-" + mode + "-woven.jar");
            assertEquals(ExitCode.OK, dyper("weave", "--model", countAll.toString(), "--in", in.toString(), "--out",
                    out.toString()).code());
            assertEquals(mode, PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
        }
    }

    // ---- harness ----

    record Result(int code, String out, String err) {
        List<String> errLines() {
            return err.isEmpty() ? List.of() : List.of(err.split("\n"));
        }
    }

    static Result dyper(String... args) throws IOException {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--out")) {
                Files.createDirectories(Path.of(args[i + 1]).toAbsolutePath().getParent());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, UTF_8); PrintStream e = new PrintStream(err, true, UTF_8)) {
            code = Main.run(args, o, e, Map.of());
        }
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    private static String runtime() {
        return String.join(SEP, Weaver.runtimeClasspath().stream().map(Path::toString).toList());
    }

    /**
     * The runtimes as jars for the module path: the Dyper runtime's own jar when the build made one, else (in a
     * reactor build's test phase, a classes folder) a jar of that folder with the module name its pom gives it.
     */
    private static String moduleRuntime() throws Exception {
        List<String> jars = new ArrayList<>();
        for (Path p : Weaver.runtimeClasspath()) {
            if (Files.isDirectory(p)) {
                Path manifest = dir.resolve("runtime-manifest.txt");
                Files.writeString(manifest, "Automatic-Module-Name: org.dyper.runtime\n");
                Path jar = dir.resolve("dyper-runtime-for-module-path.jar");
                if (!Files.exists(jar)) {
                    tool("jar", "--create", "--file", jar.toString(), "--manifest", manifest.toString(), "-C",
                            p.toString(), ".");
                }
                jars.add(jar.toString());
            } else {
                jars.add(p.toString());
            }
        }
        return String.join(SEP, jars);
    }

    private static List<String> generatedPackages(Path jar) throws IOException {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.stream().map(e -> e.getName()).filter(n -> n.startsWith("org/dyper/generated/")
                    && n.endsWith("/DyperSites.class")).sorted().toList();
        }
    }

    private static void write(Path root, Map<String, String> sources) throws IOException {
        for (Map.Entry<String, String> s : sources.entrySet()) {
            Path f = root.resolve(s.getKey());
            Files.createDirectories(f.getParent());
            Files.writeString(f, s.getValue());
        }
    }

    private static void compile(Path src, Path out, List<Path> classpath) throws IOException {
        JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("--release", "17", "-d", out.toString()));
        if (!classpath.isEmpty()) {
            args.add("-cp");
            args.add(String.join(SEP, classpath.stream().map(Path::toString).toList()));
        }
        try (Stream<Path> walk = Files.walk(src)) {
            walk.filter(p -> p.toString().endsWith(".java")).forEach(p -> args.add(p.toString()));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, null, err, args.toArray(String[]::new)), err.toString(UTF_8));
    }

    /** Compiles {@code sources} against {@code classpath} into {@code name}.jar (with a Main-Class when not null). */
    private static Path jar(String name, Map<String, String> sources, List<Path> classpath, String main)
            throws IOException {
        Path src = dir.resolve(name + "-src");
        Path classes = dir.resolve(name + "-classes");
        write(src, sources);
        compile(src, classes, classpath);
        Path jar = dir.resolve(name + ".jar");
        List<String> args = new ArrayList<>(List.of("--create", "--file", jar.toString()));
        if (main != null) {
            args.addAll(List.of("--main-class", main));
        }
        args.addAll(List.of("-C", classes.toString(), "."));
        tool("jar", args.toArray(String[]::new));
        return jar;
    }

    /** Runs a JDK tool: in-process when it is a ToolProvider (jar), else from the JDK's bin folder. */
    private static void tool(String name, String... args) throws IOException {
        var provider = ToolProvider.findFirst(name);
        if (provider.isPresent()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (PrintStream p = new PrintStream(out, true, UTF_8)) {
                assertEquals(0, provider.get().run(p, p, args), name + ": " + out.toString(UTF_8));
            }
            return;
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", name).toString());
        cmd.addAll(List.of(args));
        try {
            Child c = run(cmd);
            assertEquals(0, c.code(), name + ": " + c.out() + c.err());
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    private static Child java(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(args);
        return run(cmd);
    }

    private static Child cli(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return java(cmd);
    }

    private static Child run(List<String> cmd) throws IOException, InterruptedException {
        return CliFixture.run(cmd, dir, 120);
    }

    /** COUNTS of the XML report, site name to COUNT. */
    private static Map<String, String> counts(Path report) throws Exception {
        assertTrue(Files.isRegularFile(report), "no report at " + report);
        Element counts = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                .getElementsByTagName("COUNTS").item(0);
        Map<String, String> result = new TreeMap<>();
        if (counts == null) {
            return result;
        }
        NodeList sites = counts.getElementsByTagName("SITE");
        for (int i = 0; i < sites.getLength(); i++) {
            Element s = (Element) sites.item(i);
            result.put(s.getAttribute("NAME"), s.getAttribute("COUNT"));
        }
        assertFalse(result.isEmpty());
        return result;
    }
}
