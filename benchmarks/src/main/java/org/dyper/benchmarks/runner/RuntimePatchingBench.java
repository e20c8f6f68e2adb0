package org.dyper.benchmarks.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;

/**
 * The run-time patching benchmark (issue 13; docs/performance.md): how long INSTRUMENT takes inside the JVM for 1,
 * 10 and 100 patched classes and the whole {@code dyper ctl instrument} round trip (cold and warm patch cache), and
 * the per-call cost of run-time-patched COUNT, exact timing and sampled timing beside binary weaving, plus JDK 25's
 * JFR method timing. Every configuration runs in its own JVM, interleaved over rounds; counts are checked. Started by
 * {@code benchmarks/run-runtime-patching}; {@code --quick} is a smoke test.
 */
public final class RuntimePatchingBench {
    private static final String SEP = java.io.File.pathSeparator;
    private static final Pattern TOOK = Pattern.compile("INSTRUMENT took ([0-9.]+) ms in the JVM \\(redefinition "
            + "([0-9.]+) ms\\); the whole round trip ([0-9.]+) s");
    private static final Pattern RESTORED = Pattern.compile("restored in ([0-9.]+) ms");
    private static final Pattern PHASES = Pattern.compile("phases in the JVM \\([^)]*\\): (.*)");
    /** {@code -Xlog:safepoint}'s line for a redefinition (JDK 17: Cleanup between; JDK 25: none). */
    private static final Pattern REDEFINE_SAFEPOINT = Pattern.compile("Safepoint \"RedefineClasses\".*At safepoint: "
            + "(\\d+) ns");
    /** Rows of the phase table: JDK, round, and INSTRUMENT's phases (10 classes), as the CLI printed them. */
    private final List<String[]> phaseRows = new ArrayList<>();
    private static final Pattern MOO = Pattern.compile("MOO ns=([0-9.]+) min=([0-9.]+) bytes=([0-9.]+) calls=(\\d+) "
            + "executions=(\\d+)");

    private final Path root;
    private final Path work;
    private final boolean quick;
    /** How many fresh JVMs take the 10-class case's first INSTRUMENT ({@code --first-jvms}). */
    private final int firstJvms;
    private final Path jdk25;
    private final StringBuilder page = new StringBuilder();
    private final List<String> problems = new ArrayList<>();
    private String runtimeClasspath;
    private Path runtimeJar;

    private RuntimePatchingBench(Path root, boolean quick, int firstJvms) {
        this.root = root;
        this.work = root.resolve("benchmarks/target/run-runtime");
        this.quick = quick;
        this.firstJvms = firstJvms > 0 ? firstJvms : quick ? 1 : 5;
        // the tests' rule (docs/testing.md): -Ddyper.jdk25, else JDK25_HOME, else the default path
        String home = System.getProperty("dyper.jdk25", "").isBlank()
                ? System.getenv().getOrDefault("JDK25_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
                : System.getProperty("dyper.jdk25");
        this.jdk25 = Files.isExecutable(Path.of(home, "bin/java")) ? Path.of(home) : null;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".").toAbsolutePath().normalize();
        boolean quick = false;
        int firstJvms = 0;
        List<String> only = new ArrayList<>(List.of("instrument", "bigclass", "percall"));
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--root")) {
                root = Path.of(args[++i]).toAbsolutePath().normalize();
            } else if (args[i].equals("--quick")) {
                quick = true;
            } else if (args[i].equals("--only")) {
                only = List.of(args[++i].split(","));
            } else if (args[i].equals("--first-jvms") && i + 1 < args.length && args[i + 1].matches("[1-9]\\d{0,2}")) {
                firstJvms = Integer.parseInt(args[++i]);
            } else {
                System.err.println("usage: RuntimePatchingBench [--root DIR] [--quick] [--only instrument,bigclass,percall] "
                        + "[--first-jvms N (1-999; default 5, 1 with --quick)]");
                System.exit(2);
            }
        }
        new RuntimePatchingBench(root, quick, firstJvms).run(only);
    }

    private void run(List<String> parts) throws Exception {
        long t0 = System.nanoTime();
        deleteTree(work);
        Files.createDirectories(work);
        runtimeClasspath = exec(List.of(dyper(), "classpath")).trim();
        runtimeJar = Path.of(runtimeClasspath.split(SEP)[0]);
        page.append("JDK (the CLI and the JDK 17 runs): ").append(System.getProperty("java.runtime.version"))
                .append("; JDK 25: ").append(jdk25 == null ? "not found" : jdk25).append("; ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores; ")
                .append(quick ? "QUICK MODE (numbers not meaningful)" : "full run").append("\n\n");
        if (parts.contains("instrument")) {
            instrumentTimes();
        }
        if (parts.contains("bigclass")) {
            bigClass();
        }
        if (parts.contains("percall")) {
            perCall();
        }
        page.append(String.format(Locale.ROOT, "Whole run: %.1f min.%n", (System.nanoTime() - t0) / 60e9));
        if (!problems.isEmpty()) {
            page.append("\nPROBLEMS:\n");
            problems.forEach(p -> page.append("- ").append(p).append('\n'));
        }
        Path out = root.resolve("benchmarks/target/runtime-patching.md");
        Files.writeString(out, page.toString());
        System.out.println(page);
        System.out.println("(also written to " + out + ")");
    }

    private String dyper() {
        return root.resolve("dyper").toString();
    }

    // ---------------------------------------------------------------- INSTRUMENT for 1, 10, 100 classes

    private void instrumentTimes() throws Exception {
        int rounds = quick ? 2 : 6;
        page.append("### INSTRUMENT: its own time in the JVM, and the whole `dyper ctl instrument` round trip\n\n");
        page.append("N generated classes `bench.gen.C0..` each with one method, all loaded and warm, timed exactly "
                + "(TIME_ENTER/TIME_EXIT); `dyper ctl PID instrument` then `uninstrument`, ").append(rounds)
                .append(" times in one JVM. Round 1 weaves (cold patch cache); later rounds reuse the cached patch "
                        + "(the same ids: the same patch). In-JVM times are INSTRUMENT's own reply (all checks, the "
                        + "aspects defined, the redefinition).\n\n");
        page.append("| JDK | classes | INSTRUMENT in the JVM, round 1 | later rounds (median, min–max) | of which "
                + "redefinition (median) | removal (median) | round trip, cold cache | round trip, warm (median) |\n");
        page.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        List<Path> javas = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        if (jdk25 != null) {
            javas.add(jdk25);
        }
        for (Path home : javas) {
            for (int n : List.of(1, 10, 100)) {
                instrumentTime(home, n, rounds);
            }
        }
        page.append('\n');
        firstInstruments(javas);
        phaseTable();
    }

    /**
     * The 10-class case's first INSTRUMENT in {@link #firstJvms} fresh JVMs per JDK (one sample per JVM: a single
     * JVM's first swings by 10 ms): the target as above, with {@code -Xlog:safepoint} to a file; after the monitor's
     * warm-up, the JVM's loaded classes ({@code jstat -class}, read from the JVM's performance counters, no attach),
     * then one {@code dyper ctl instrument} with the patch cache of the run above (warm). Reported: INSTRUMENT's time
     * in the JVM, its redefinition, and the time the JVM spent at that redefinition's safepoint (its own log).
     */
    private void firstInstruments(List<Path> javas) throws Exception {
        page.append("### The first INSTRUMENT of 10 classes, one per fresh JVM (").append(firstJvms)
                .append(" JVMs per JDK, warm patch cache; median (min–max))\n\n");
        page.append("| JDK | JVMs | first INSTRUMENT in the JVM | of which redefinition | at the redefinition's safepoint "
                + "(`-Xlog:safepoint`) | classes loaded in the JVM (`jstat -class`) |\n|---|---:|---:|---:|---:|---:|\n");
        for (Path home : javas) {
            String jdk = home.equals(jdk25) ? "25" : "17";
            Path dir = work.resolve("gen-" + jdk + "-10");
            Path model = dir.resolve("gen.xml");
            double[] inJvm = new double[firstJvms];
            double[] redefine = new double[firstJvms];
            double[] safepoint = new double[firstJvms];
            double[] classes = new double[firstJvms];
            for (int j = 0; j < firstJvms; j++) {
                progress("first INSTRUMENT of 10 classes, JDK " + jdk + ", JVM " + (j + 1) + " of " + firstJvms);
                Path registry = dir.resolve("registry-first-" + j);
                Path log = dir.resolve("safepoint-first-" + j + ".log");
                Interactive p = new Interactive(List.of(home.resolve("bin/java").toString(), "-javaagent:" + runtimeJar
                        + "=dir=" + registry + ",MONITOR=false", "-Ddyper.report=none",
                        "-Xlog:safepoint=info:file=" + log, "-cp", dir.resolve("classes").toString(), "bench.gen.Main"),
                        dir.resolve("app-first-" + j + ".err"));
                try {
                    p.expect("READY");
                    List<String> ctl = List.of(dyper(), "ctl", "--xml", "--dir", registry.toString(),
                            Long.toString(p.pid()), "instrumented");
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    for (String status = exec(ctl); status.contains("WARMUP='RUNNING'")
                            || status.contains("WARMUP='NOT_STARTED'"); status = exec(ctl)) {
                        if (System.nanoTime() > deadline) {
                            problems.add("first INSTRUMENT, JDK " + jdk + ": the warm-up did not end: " + status);
                            break;
                        }
                    }
                    classes[j] = loadedClasses(home, p.pid());
                    int before = redefinitions(log).size();
                    String in = exec(List.of(dyper(), "ctl", "--dir", registry.toString(), Long.toString(p.pid()),
                            "instrument", "--model", model.toString(), "--cache", dir.resolve("cache").toString()));
                    Matcher m = TOOK.matcher(in);
                    if (!m.find() || !in.contains(": 10 class(es) patched now")) {
                        problems.add("first INSTRUMENT, JDK " + jdk + ": " + in);
                        return;
                    }
                    inJvm[j] = Double.parseDouble(m.group(1));
                    redefine[j] = Double.parseDouble(m.group(2));
                    List<Double> after = redefinitions(log);
                    safepoint[j] = after.size() > before ? after.get(before) : Double.NaN;
                    p.send("exit");
                    p.waitFor();
                } finally {
                    p.destroy();
                }
            }
            page.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s |%n", jdk, firstJvms,
                    spread(inJvm, "%.1f", " ms"), spread(redefine, "%.1f", " ms"), spread(safepoint, "%.1f", " ms"),
                    spread(classes, "%.0f", "")));
        }
        page.append('\n');
    }

    /** {@code median unit (min–max)}, each number as {@code number} formats it. */
    private static String spread(double[] v, String number, String unit) {
        return String.format(Locale.ROOT, number + unit + " (" + number + "–" + number + ")", Stats.median(v), min(v),
                max(v));
    }

    /** The ms each RedefineClasses safepoint of the JVM's {@code -Xlog:safepoint} file spent at the safepoint. */
    private static List<Double> redefinitions(Path log) throws IOException {
        List<Double> ms = new ArrayList<>();
        if (Files.exists(log)) {
            for (String line : Files.readAllLines(log)) {
                Matcher m = REDEFINE_SAFEPOINT.matcher(line);
                if (m.find()) {
                    ms.add(Long.parseLong(m.group(1)) / 1e6);
                }
            }
        }
        return ms;
    }

    /** The classes loaded and not unloaded in JVM {@code pid}, from {@code jstat -class} (its counters, no attach). */
    private double loadedClasses(Path home, long pid) throws IOException, InterruptedException {
        String[] lines = exec(List.of(home.resolve("bin/jstat").toString(), "-class", Long.toString(pid))).trim()
                .split("\n");
        String[] f = lines[lines.length - 1].trim().split("\\s+");
        try {
            return Long.parseLong(f[0]) - Long.parseLong(f[2]);
        } catch (RuntimeException e) {
            problems.add("jstat -class " + pid + ": " + String.join(" / ", lines));
            return Double.NaN;
        }
    }

    /**
     * INSTRUMENT's phases for 10 classes (the target runs with -Ddyper.instrument.phases=true): per phase the CPU
     * time of the inserting thread, its wall time and the classes the JVM loaded meanwhile, in round 1 (the JVM's
     * first INSTRUMENT) and round 2.
     */
    private void phaseTable() {
        if (phaseRows.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (String p : phaseRows.get(0)[2].split(" ")) {
            names.add(p.substring(0, p.indexOf('=')));
        }
        page.append("### INSTRUMENT of 10 classes, phase by phase: CPU ms of the inserting thread / wall ms / classes "
                + "loaded\n\n| JDK | round |");
        names.forEach(n -> page.append(' ').append(n).append(" |"));
        page.append(" sum of CPU |\n|---|---:|");
        names.forEach(n -> page.append("---:|"));
        page.append("---:|\n");
        for (String[] row : phaseRows) {
            page.append("| ").append(row[0]).append(" | ").append(row[1]).append(" |");
            double cpu = 0;
            for (String p : row[2].split(" ")) {
                String[] f = p.substring(p.indexOf('=') + 1).split("/");
                cpu += Long.parseLong(f[1]) / 1000.0;
                page.append(String.format(Locale.ROOT, " %.1f / %.1f / %s |", Long.parseLong(f[1]) / 1000.0,
                        Long.parseLong(f[0]) / 1000.0, f[2]));
            }
            page.append(String.format(Locale.ROOT, " %.1f |%n", cpu));
        }
        page.append('\n');
    }

    private void instrumentTime(Path home, int n, int rounds) throws Exception {
        String jdk = home.equals(jdk25) ? "25" : "17";
        progress("INSTRUMENT, " + n + " classes, JDK " + jdk);
        Path dir = work.resolve("gen-" + jdk + "-" + n);
        Path classes = generate(dir, n);
        Path model = dir.resolve("gen.xml");
        Files.writeString(model, "<MODEL NAME='gen'><FOR CLASS='bench.gen.C*' METHOD='m'><PATCH WHAT='ENTER' "
                + "MODE='TIME_ENTER'/><PATCH WHAT='EXIT' MODE='TIME_EXIT'/></FOR></MODEL>");
        Path registry = dir.resolve("registry");
        Interactive p = new Interactive(List.of(home.resolve("bin/java").toString(), "-javaagent:" + runtimeJar
                + "=dir=" + registry + ",MONITOR=false", "-Ddyper.report=none", "-Ddyper.instrument.phases=true",
                "-cp", classes.toString(), "bench.gen.Main"), dir.resolve("app.err"));
        try {
            p.expect("READY");
            double[] inJvm = new double[rounds];
            double[] redefine = new double[rounds];
            double[] trip = new double[rounds];
            double[] removal = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                String in = exec(List.of(dyper(), "ctl", "--dir", registry.toString(), Long.toString(p.pid()),
                        "instrument", "--model", model.toString(), "--cache", dir.resolve("cache").toString()));
                Matcher m = TOOK.matcher(in);
                if (!m.find() || !in.contains(": " + n + " class(es) patched now")) {
                    problems.add("instrument " + n + " classes: " + in);
                    return;
                }
                inJvm[r] = Double.parseDouble(m.group(1));
                Matcher ph = PHASES.matcher(in);
                if (n == 10 && r < 2 && ph.find()) {
                    phaseRows.add(new String[] {jdk, Integer.toString(r + 1), ph.group(1).trim()});
                }
                redefine[r] = Double.parseDouble(m.group(2));
                trip[r] = Double.parseDouble(m.group(3));
                p.send("call");
                p.expect("ok");
                String out = exec(List.of(dyper(), "ctl", "--dir", registry.toString(), Long.toString(p.pid()),
                        "uninstrument"));
                Matcher rm = RESTORED.matcher(out);
                removal[r] = rm.find() ? Double.parseDouble(rm.group(1)) : Double.NaN;
            }
            double[] later = java.util.Arrays.copyOfRange(inJvm, 1, rounds);
            page.append(String.format(Locale.ROOT, "| %s | %d | %.1f ms | %.1f ms (%.1f–%.1f) | %.1f ms | %.1f ms | "
                    + "%.2f s | %.2f s |%n", jdk, n, inJvm[0], Stats.median(later), min(later), max(later),
                    Stats.median(java.util.Arrays.copyOfRange(redefine, 1, rounds)), Stats.median(removal),
                    trip[0], Stats.median(java.util.Arrays.copyOfRange(trip, 1, rounds))));
            p.send("exit");
            p.waitFor();
        } finally {
            p.destroy();
        }
    }

    /** N classes with one method each and a main that loads and warms them, then serves "call" and "exit". */
    private static Path generate(Path dir, int n) throws IOException {
        Path src = dir.resolve("src/bench/gen");
        Files.createDirectories(src);
        StringBuilder main = new StringBuilder("package bench.gen;\npublic final class Main {\n"
                + "  static long run(int times) {\n    long s = 0;\n    for (int i = 0; i < times; i++) {\n");
        for (int i = 0; i < n; i++) {
            Files.writeString(src.resolve("C" + i + ".java"), "package bench.gen;\npublic final class C" + i
                    + " {\n  public int m(int x) {\n    return x * 3 + " + i + ";\n  }\n}\n");
            main.append("      s += new C").append(i).append("().m(i);\n");
        }
        main.append("    }\n    return s;\n  }\n  public static void main(String[] a) throws Exception {\n"
                + "    long s = run(20000);\n    System.out.println(\"READY\");\n"
                + "    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));\n"
                + "    for (String l = in.readLine(); l != null && !l.equals(\"exit\"); l = in.readLine()) {\n"
                + "      s += run(1000);\n      System.out.println(\"ok\");\n    }\n"
                + "    System.out.println(\"sum \" + s);\n  }\n}\n");
        Files.writeString(src.resolve("Main.java"), main);
        Path classes = dir.resolve("classes");
        Files.createDirectories(classes);
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "--release", "17"));
        try (var files = Files.list(src)) {
            files.forEach(f -> args.add(f.toString()));
        }
        if (ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)) != 0) {
            throw new IllegalStateException("javac failed in " + dir);
        }
        return classes;
    }

    // ---------------------------------------------------------------- a big, compiled class

    /**
     * INSTRUMENT of one method of a big library class that is compiled and inlined (Jackson's ObjectMapper,
     * {@link org.dyper.benchmarks.workloads.BigClassTarget}), per JDK in one JVM: the first time (a retransformation),
     * again while it is in (a redefinition of the new version), and after an uninstrument (a retransformation again);
     * the in-JVM time, the redefinition's share and the inserting thread's CPU in it (the JVM parsing, verifying and
     * merging the new version, and Dyper's check against ORIG), from INSTRUMENT's phases.
     */
    private void bigClass() throws Exception {
        page.append("### INSTRUMENT of a big, compiled class: `ObjectMapper.readValue` (TIME_ENTER/TIME_EXIT)\n\n");
        page.append("| JDK | step | in the JVM | redefinition (wall) | of it the inserting thread's CPU | removal |\n");
        page.append("|---|---|---:|---:|---:|---:|\n");
        List<Path> javas = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        if (jdk25 != null) {
            javas.add(jdk25);
        }
        for (Path home : javas) {
            String jdk = home.equals(jdk25) ? "25" : "17";
            progress("INSTRUMENT of ObjectMapper, JDK " + jdk);
            Path dir = work.resolve("bigclass-" + jdk);
            Files.createDirectories(dir);
            Path model = dir.resolve("jackson.xml");
            Files.writeString(model, "<MODEL NAME='jackson'><FOR CLASS='com.fasterxml.jackson.databind.ObjectMapper' "
                    + "METHOD='readValue'><PATCH WHAT='ENTER' MODE='TIME_ENTER'/><PATCH WHAT='EXIT' "
                    + "MODE='TIME_EXIT'/></FOR></MODEL>");
            Path registry = dir.resolve("registry");
            Interactive p = new Interactive(List.of(home.resolve("bin/java").toString(), "-javaagent:" + runtimeJar
                    + "=dir=" + registry + ",MONITOR=false", "-Ddyper.report=none", "-Ddyper.instrument.phases=true",
                    "-cp", System.getProperty("java.class.path"), "org.dyper.benchmarks.workloads.BigClassTarget"),
                    dir.resolve("app.err"));
            try {
                p.expect("READY");
                List<String> ctl = List.of(dyper(), "ctl", "--dir", registry.toString(), Long.toString(p.pid()));
                List<String> instrument = new ArrayList<>(ctl);
                instrument.addAll(List.of("instrument", "--model", model.toString(), "--cache",
                        dir.resolve("cache").toString()));
                List<String> uninstrument = new ArrayList<>(ctl);
                uninstrument.add("uninstrument");
                String[][] steps = {{"first (retransformation)", "in"}, {"again while in (redefinition)", "in"},
                    {"removed", "out"}, {"after removal (retransformation)", "in"}, {"removed", "out"}};
                for (String[] step : steps) {
                    String out = exec(step[1].equals("in") ? instrument : uninstrument);
                    if (step[1].equals("out")) {
                        Matcher rm = RESTORED.matcher(out);
                        page.append(String.format(Locale.ROOT, "| %s | %s | | | | %s ms |%n", jdk, step[0],
                                rm.find() ? rm.group(1) : "?"));
                        continue;
                    }
                    Matcher m = TOOK.matcher(out);
                    Matcher ph = PHASES.matcher(out);
                    if (!m.find() || !ph.find()) {
                        problems.add("instrument ObjectMapper: " + out);
                        break;
                    }
                    String cpu = "?";
                    for (String phase : ph.group(1).trim().split(" ")) {
                        if (phase.startsWith("patch=")) {
                            cpu = String.format(Locale.ROOT, "%.1f ms", Long.parseLong(phase.split("[=/]")[2]) / 1e3);
                        }
                    }
                    page.append(String.format(Locale.ROOT, "| %s | %s | %s ms | %s ms | %s | |%n", jdk, step[0],
                            m.group(1), m.group(2), cpu));
                    p.send("call");
                    p.expect("ok");
                }
                p.send("exit");
                p.waitFor();
            } finally {
                p.destroy();
            }
        }
        page.append('\n');
    }

    // ---------------------------------------------------------------- per call

    private void perCall() throws Exception {
        int rounds = quick ? 1 : 5;
        long warmup = quick ? 100_000 : 1_000_000;
        int batches = quick ? 5 : 20;
        long batchCalls = quick ? 20_000 : 100_000;
        int depth = 10;
        List<String> moo = List.of("org.dyper.benchmarks.app.MooMain", Long.toString(warmup),
                Integer.toString(batches), Long.toString(batchCalls), Integer.toString(depth));
        long executions = (warmup + batches * batchCalls) * depth;
        Path app = root.resolve("benchmarks/target/dyper-benchmarks-0.1.0-SNAPSHOT-app.jar");
        Map<String, Config> configs = new LinkedHashMap<>();
        List<Path> javas = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"))));
        if (jdk25 != null) {
            javas.add(jdk25);
        }
        for (Path home : javas) {
            String jdk = home.equals(jdk25) ? "25" : "17";
            String java = home.resolve("bin/java").toString();
            configs.put("JDK " + jdk + ": no instrumentation", new Config(jdk, null, List.of(java, "-cp",
                    app.toString()), null));
            for (String mode : List.of("count", "time", "sample")) {
                Path woven = work.resolve("woven-" + mode + ".jar");
                if (!Files.exists(woven)) {
                    exec(List.of(dyper(), "weave", "--model", mooModel(mode).toString(), "--in", app.toString(),
                            "--out", woven.toString()));
                }
                String label = switch (mode) {
                    case "count" -> "COUNT";
                    case "time" -> "exact timing";
                    default -> "sampled timing (1 in 64)";
                };
                configs.put("JDK " + jdk + ": " + label + ", binary (`dyper weave`)", new Config(jdk, null,
                        List.of(java, "-Ddyper.report=none", "-cp", woven + SEP
                                + runtimeClasspath), "dyper"));
                configs.put("JDK " + jdk + ": " + label + ", run time (`dyper ctl instrument`)", new Config(jdk,
                        mode, List.of(java, "-Ddyper.report=none", "-cp", app + SEP
                        + runtimeClasspath), "dyper"));
            }
            if (jdk.equals("25")) {
                configs.put("JDK 25: JFR method timing (`-XX:StartFlightRecording:method-timing=...`)",
                        new Config(jdk, null, List.of(java, "-XX:StartFlightRecording:method-timing="
                                + "org.dyper.benchmarks.app.MonitoredClass::monitoredMethod,filename=@JFR@", "-cp",
                                app.toString()), "jfr"));
            }
        }
        Map<String, double[]> ns = new LinkedHashMap<>();
        Map<String, double[]> bytes = new LinkedHashMap<>();
        Map<String, String> checks = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, Config> e : configs.entrySet()) {
                progress("per call, round " + (r + 1) + ": " + e.getKey());
                double[] result = moo(e.getKey(), e.getValue(), moo, executions, r, checks);
                ns.computeIfAbsent(e.getKey(), k -> new double[rounds])[r] = result[0];
                bytes.computeIfAbsent(e.getKey(), k -> new double[rounds])[r] = result[1];
            }
        }
        page.append(String.format(Locale.ROOT, "### Per call: ns per monitored execution (MooBench style: depth %d, "
                + "%,d warm-up calls, %d batches of %,d calls; median batch per JVM; median of %d interleaved rounds)"
                + "%n%n", depth, warmup, batches, batchCalls, rounds));
        page.append("Run-time-patched JVMs run the monitor with sampling off (`MONITOR=false`) and are patched before "
                + "the warm-up; the overhead is over the same JDK's uninstrumented run in the same round.\n\n");
        page.append("| configuration | ns/exec (median) | spread | overhead ns | bytes/exec | count check |\n");
        page.append("|---|---:|---:|---:|---:|---|\n");
        for (String name : configs.keySet()) {
            double[] v = ns.get(name);
            double[] base = ns.get("JDK " + configs.get(name).jdk + ": no instrumentation");
            double[] over = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                over[r] = v[r] - base[r];
            }
            page.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f–%.2f | %.2f | %.2f | %s |%n", name,
                    Stats.median(v), min(v), max(v), Stats.median(over), Stats.median(bytes.get(name)),
                    checks.getOrDefault(name, "n/a")));
        }
        page.append('\n');
    }

    /** One configuration of the per-call benchmark in one JVM: {ns per execution, bytes per execution}. */
    private record Config(String jdk, String runtimeMode, List<String> java, String check) {}

    private double[] moo(String name, Config c, List<String> moo, long executions, int round,
                         Map<String, String> checks) throws Exception {
        Path dir = work.resolve("moo-" + Integer.toHexString(name.hashCode()) + "-" + round);
        Files.createDirectories(dir);
        Path report = dir.resolve("report.xml");
        Path jfr = dir.resolve("recording.jfr");
        List<String> cmd = new ArrayList<>();
        for (String a : c.java) {
            cmd.add(a.replace("@JFR@", jfr.toString()));
        }
        if (c.runtimeMode != null) {
            cmd.add(1, "-javaagent:" + runtimeJar + "=dir=" + dir.resolve("registry") + ",MONITOR=false");
        }
        if ("dyper".equals(c.check)) {
            cmd.add(1, "-Ddyper.report.xml=" + report);
        }
        cmd.addAll(moo);
        if (c.runtimeMode != null) {
            cmd.add("wait");
        }
        Interactive p = new Interactive(cmd, dir.resolve("err.txt"));
        try {
            if (c.runtimeMode != null) {
                p.expect("READY");
                String in = exec(List.of(dyper(), "ctl", "--dir", dir.resolve("registry").toString(),
                        Long.toString(p.pid()), "instrument", "--model", mooModel(c.runtimeMode).toString(),
                        "--cache", work.resolve("cache").toString()));
                if (!in.contains("model 'moo-" + c.runtimeMode + "' instrumented")) {
                    problems.add(name + ": " + in);
                }
                p.send("go");
            }
            String line = p.expect("MOO ");
            p.waitFor();
            Matcher m = MOO.matcher(line);
            if (!m.find()) {
                problems.add(name + ": " + line);
                return new double[] {Double.NaN, Double.NaN};
            }
            if ("dyper".equals(c.check)) {
                Matcher count = Pattern.compile("NAME='[^']*monitoredMethod[^']*' COUNT='(\\d+)'")
                        .matcher(Files.readString(report));
                long n = count.find() ? Long.parseLong(count.group(1)) : -1;
                checks.merge(name, exact(name, n, executions), (a, b) -> a.equals(b) ? a : a + "; " + b);
            } else if ("jfr".equals(c.check)) {
                String print = exec(List.of(jdk25.resolve("bin/jfr").toString(), "print", "--events",
                        "jdk.MethodTiming", jfr.toString()));
                Matcher inv = Pattern.compile("invocations = (\\d+)").matcher(print);
                long n = 0;
                while (inv.find()) {
                    n = Math.max(n, Long.parseLong(inv.group(1)));
                }
                checks.merge(name, exact(name, n, executions), (a, b) -> a.equals(b) ? a : a + "; " + b);
            }
            return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3))};
        } finally {
            p.destroy();
        }
    }

    private String exact(String name, long n, long executions) {
        if (n == executions) {
            return String.format(Locale.ROOT, "exact (%,d)", n);
        }
        problems.add(String.format(Locale.ROOT, "%s counted %,d of %,d executions", name, n, executions));
        return String.format(Locale.ROOT, "WRONG: %,d of %,d", n, executions);
    }

    private Path mooModel(String mode) {
        return root.resolve("benchmarks/models/moo-" + mode + ".xml");
    }

    // ---------------------------------------------------------------- processes

    /** A child process whose stdout the benchmark reads line by line and whose stdin it writes. */
    private static final class Interactive {
        private final Process process;
        private final BufferedReader out;
        private final OutputStream in;

        Interactive(List<String> cmd, Path err) throws IOException {
            process = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            in = process.getOutputStream();
        }

        long pid() {
            return process.pid();
        }

        /** Reads lines until one starts with {@code prefix}; returns it. */
        String expect(String prefix) throws IOException {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
            throw new IOException("the process ended before printing " + prefix);
        }

        void send(String line) throws IOException {
            in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            in.flush();
        }

        void waitFor() throws InterruptedException {
            if (!process.waitFor(600, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }

        void destroy() {
            process.destroyForcibly();
        }
    }

    /** Runs a command to its end; returns stdout and stderr together. */
    private static String exec(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    private static void progress(String s) {
        System.err.println("[bench " + LocalTime.now().withNano(0) + "] " + s);
    }

    private static double min(double[] v) {
        return java.util.Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return java.util.Arrays.stream(v).max().orElse(Double.NaN);
    }

    private static void deleteTree(Path p) throws IOException {
        if (Files.exists(p)) {
            try (var s = Files.walk(p)) {
                for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
