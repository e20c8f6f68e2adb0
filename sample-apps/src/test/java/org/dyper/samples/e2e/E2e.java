package org.dyper.samples.e2e;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.cli.Main;
import org.dyper.samples.bank.BankApp;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.junit.jupiter.params.provider.Arguments;

/**
 * What the end-to-end tests share: the dyper command and the ways of weaving (the JDKs, spawning and reading reports
 * are test-support's {@link Jdk}, {@link Processes} and {@code XmlReports}).
 */
final class E2e {
    static final Path REPO = Path.of("").toAbsolutePath().getParent();
    static final Path MODELS = REPO.resolve("sample-apps/models");

    private E2e() {}

    /**
     * How the program is woven: {@code dyper run} (classes woven ahead of the launch, swapped in as they load),
     * {@code dyper run --weaver-agent} (the AspectJ weaver agent weaves as classes load), {@code dyper weave} + java.
     */
    enum Way { LAUNCH, WEAVER_AGENT, BINARY }

    /** The {@code @MethodSource} of a test run every {@link Way} on every {@link Jdk}. */
    static final String WAYS_AND_JDKS = "org.dyper.samples.e2e.E2e#waysAndJdks";

    /** Every {@link Way} on every {@link Jdk}, as the arguments {@code (Way, Jdk)}. */
    static Stream<Arguments> waysAndJdks() {
        List<Arguments> all = new ArrayList<>();
        for (Way way : Way.values()) {
            for (Jdk jdk : Jdk.values()) {
                all.add(Arguments.of(way, jdk));
            }
        }
        return all.stream();
    }

    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
        }
    }

    static Path appClasses() {
        try {
            return Path.of(BankApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The dyper command, in this JVM. */
    static Run dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), System.getenv());
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The dyper command in its own JVM (for {@code run}, whose program writes to the inherited stdout). */
    static Run dyperProcess(Path javaHome, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        Map<String, String> env = new HashMap<>();
        env.put("JAVA_HOME", javaHome.toString());
        return exec(cmd, env);
    }

    static Run exec(List<String> cmd, Map<String, String> env) throws IOException, InterruptedException {
        Processes.Result r = Processes.run(cmd, env, Duration.ofSeconds(180));
        return new Run(r.exit(), r.out(), r.err());
    }

    private static final Map<String, Path> WOVEN = new HashMap<>();

    /**
     * Runs {@code main} of the sample classes with {@code model} (and {@code modes}, both from sample-apps/models),
     * woven {@code way}, on {@code jdk}, writing the XML report to {@code xml}; {@code shared} holds the load-time
     * cache and the woven jars, which are made once per model.
     */
    static Run run(Way way, Jdk jdk, String model, String modes, String main, Path xml, Path shared) throws Exception {
        List<String> inputs = new ArrayList<>(List.of("--model", MODELS.resolve(model).toString()));
        if (modes != null) {
            inputs.addAll(List.of("--modes", MODELS.resolve(modes).toString()));
        }
        if (way != Way.BINARY) {
            List<String> args = new ArrayList<>(List.of("run"));
            args.addAll(inputs);
            if (way == Way.WEAVER_AGENT) {
                args.add("--weaver-agent");
            }
            args.addAll(List.of("--report", "none", "--xml", xml.toString(), "--cache", shared.resolve("cache")
                    .toString(), "--", "-cp", appClasses().toString(), main));
            return dyperProcess(jdk.home(), args);
        }
        Path jar = woven(model, inputs, shared);
        String runtime = dyper("classpath").out().trim();
        List<String> cmd = List.of(jdk.java().toString(), "-Ddyper.report=none", "-Ddyper.report.xml=" + xml,
                "-cp", jar + java.io.File.pathSeparator + runtime, main);
        return exec(cmd, Map.of());
    }

    /** Weaves the sample classes once per model (the woven jar runs on both JDKs). */
    private static synchronized Path woven(String model, List<String> inputs, Path shared) {
        return WOVEN.computeIfAbsent(shared + "/" + model, k -> {
            Path jar = shared.resolve(model.replace(".xml", "") + "-woven.jar");
            List<String> args = new ArrayList<>(List.of("weave"));
            args.addAll(inputs);
            args.addAll(List.of("--in", appClasses().toString(), "--out", jar.toString()));
            Run weave = dyper(args.toArray(String[]::new));
            if (weave.exit() != 0 || !Files.isRegularFile(jar)) {
                throw new AssertionError("dyper weave failed:\n" + weave.err());
            }
            return jar;
        });
    }

    /** The program's own run without Dyper, for comparing outputs. */
    static Run plain(Jdk jdk, String main) throws Exception {
        String key = jdk + " " + main;
        synchronized (PLAIN) {
            Run known = PLAIN.get(key);
            if (known != null) {
                return known;
            }
        }
        Run run = exec(List.of(jdk.java().toString(), "-cp", appClasses().toString(), main), Map.of());
        if (run.exit() == 0) {
            synchronized (PLAIN) {
                PLAIN.put(key, run);
            }
        }
        return run;
    }

    /**
     * The plain runs made so far, by JDK and main class: the samples are deterministic (their output is what their
     * facts classes say, which every caller checks), so one plain run per JDK serves every way of weaving.
     */
    private static final Map<String, Run> PLAIN = new HashMap<>();
}
