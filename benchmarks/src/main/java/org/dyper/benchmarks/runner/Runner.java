package org.dyper.benchmarks.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the whole overhead comparison and prints the results page's tables (also written to
 * {@code benchmarks/target/results.md}): JMH microbenchmarks of the reporting calls, the MooBench-style process
 * benchmark (configurations interleaved, one JVM each, median of rounds), start-up, weaving real jars
 * ({@link WeaveBench}) and the DYPER monitor's sampling overhead. Started by {@code benchmarks/run}; {@code --quick} makes every part short (a smoke
 * test of the harness, not a measurement).
 */
public final class Runner {
    final Path root;
    final Path bench;
    final Path target;
    final Path work;
    final Path appJar;
    final Path harnessJar;
    final Path lib;
    final Path java;
    final boolean quick;
    /** --monitor-long: the monitor's overhead over a 15 s timed run, no agent against the defaults only. */
    boolean monitorLong;
    /** --workloads, --runs: the agreement's workloads and (JDK, sampler) runs; empty: all. */
    List<String> workloads = List.of();
    List<String> agreementRuns = List.of();
    final StringBuilder page = new StringBuilder();
    String dyperClasspath;
    double nanoTimeNs = Double.NaN;
    final List<String> problems = new ArrayList<>();

    private Runner(Path root, boolean quick) {
        this.root = root;
        this.bench = root.resolve("benchmarks");
        this.target = bench.resolve("target");
        this.work = target.resolve("run");
        this.harnessJar = target.resolve("dyper-benchmarks-0.1.0-SNAPSHOT.jar");
        this.appJar = target.resolve("dyper-benchmarks-0.1.0-SNAPSHOT-app.jar");
        this.lib = target.resolve("lib");
        this.java = Path.of(System.getProperty("java.home"), "bin", "java");
        this.quick = quick;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".").toAbsolutePath().normalize();
        boolean quick = false;
        boolean monitorLong = false;
        List<String> only = new ArrayList<>();
        List<String> workloads = new ArrayList<>();
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--quick" -> quick = true;
                case "--monitor-long" -> monitorLong = true;
                case "--only" -> only.addAll(Arrays.asList(args[++i].split(",")));
                case "--workloads" -> workloads.addAll(Arrays.asList(args[++i].split(",")));
                case "--runs" -> runs.addAll(Arrays.asList(args[++i].split(",")));
                default -> {
                    System.err.println("usage: Runner [--root DIR] [--quick] [--monitor-long]"
                            + " [--only jmh,trace,moo,startup,weave,monitor,agreement]"
                            + " [--workloads H2Workload,...] [--runs 17-JFR,17-THREAD_DUMP,25-JFR]");
                    System.exit(2);
                }
            }
        }
        Runner runner = new Runner(root, quick);
        runner.monitorLong = monitorLong;
        runner.workloads = workloads;
        runner.agreementRuns = runs;
        runner.run(only.isEmpty() ? List.of("jmh", "moo", "startup", "weave", "monitor", "agreement")
                : only);
    }

    private void run(List<String> parts) throws Exception {
        long t0 = System.nanoTime();
        for (Path p : List.of(harnessJar, appJar, lib, root.resolve("dyper"))) {
            if (!Files.exists(p)) {
                throw new IllegalStateException("missing " + p + ": build first with "
                        + "mvn -B -q -Pbenchmarks -DskipTests package");
            }
        }
        deleteTree(work);
        Files.createDirectories(work);
        page.append("JDK: ").append(System.getProperty("java.vm.name")).append(' ')
                .append(System.getProperty("java.runtime.version")).append("; ")
                .append(Runtime.getRuntime().availableProcessors()).append(" cores; ")
                .append(quick ? "QUICK MODE (smoke test, numbers not meaningful)" : "full run").append("\n\n");
        dyperClasspath = exec(List.of(root.resolve("dyper").toString(), "classpath"), null).out.trim();
        if (parts.contains("jmh")) {
            jmh();
        }
        if (parts.contains("trace")) {
            trace();
        }
        if (parts.contains("moo")) {
            new MooBench(this).run();
        }
        if (parts.contains("startup")) {
            new StartupBench(this).run();
        }
        if (parts.contains("weave")) {
            weave();
        }
        if (parts.contains("monitor")) {
            page.append(new MonitorOverhead(java, lib, appJar, work, quick, monitorLong).run(problems, Runner::progress));
        }
        if (parts.contains("agreement")) {
            page.append(new ProfilerAgreement(java, lib, harnessJar, work, quick, workloads, agreementRuns)
                    .run(problems, Runner::progress));
        }
        page.append(String.format(Locale.ROOT, "Whole run: %.1f min.%n", (System.nanoTime() - t0) / 60e9));
        if (!problems.isEmpty()) {
            page.append("\nPROBLEMS:\n");
            problems.forEach(p -> page.append("- ").append(p).append('\n'));
        }
        Files.writeString(target.resolve("results.md"), page.toString());
        System.out.println();
        System.out.println(page);
        System.out.println("(also written to " + target.resolve("results.md") + ")");
        if (!problems.isEmpty()) {
            System.err.println("benchmarks/run: " + problems.size() + " problem(s), listed above under PROBLEMS");
            System.exit(1);
        }
    }

    // ---------------------------------------------------------------- JMH

    private void jmh() throws IOException {
        progress("JMH: reporting calls, 1 and 2 threads, -prof gc");
        Map<String, double[]> rows = new LinkedHashMap<>();
        for (int threads : new int[] {1, 2}) {
            Path csv = work.resolve("jmh-" + threads + ".csv");
            List<String> cmd = new ArrayList<>(List.of(java.toString(), "-cp", harnessJar + ":" + lib + "/*",
                    "org.openjdk.jmh.Main", "org.dyper.benchmarks.jmh.ReportingCalls", "-t", String.valueOf(threads),
                    "-prof", "gc", "-rf", "csv", "-rff", csv.toString()));
            if (quick) {
                cmd.addAll(List.of("-wi", "1", "-w", "200ms", "-i", "1", "-r", "200ms"));
            } else {
                cmd.addAll(List.of("-i", "5"));
            }
            Proc p = exec(cmd, work.resolve("jmh-" + threads + ".log"));
            if (p.exit != 0 || !Files.exists(csv)) {
                problems.add("JMH with " + threads + " thread(s) failed (exit " + p.exit + "), see "
                        + work.resolve("jmh-" + threads + ".log"));
                continue;
            }
            for (String line : Files.readAllLines(csv)) {
                List<String> f = Stats.csvFields(line);
                if (f.size() < 7 || !f.get(0).startsWith("org.dyper.benchmarks.jmh.ReportingCalls.")) {
                    continue;
                }
                String name = f.get(0).substring("org.dyper.benchmarks.jmh.ReportingCalls.".length());
                boolean alloc = name.endsWith(":gc.alloc.rate.norm");
                boolean score = !name.contains(":");
                if (!alloc && !score) {
                    continue;
                }
                String bench = alloc ? name.substring(0, name.indexOf(':')) : name;
                double[] r = rows.computeIfAbsent(bench, k -> new double[] {Double.NaN, Double.NaN, Double.NaN,
                        Double.NaN, Double.NaN, Double.NaN});
                int col = (threads == 1 ? 0 : 3) + (alloc ? 2 : 0);
                r[col] = Stats.number(f.get(4));
                if (score) {
                    r[col + 1] = Stats.number(f.get(5));
                }
            }
        }
        double[] nt = rows.get("nanoTime");
        if (nt != null) {
            nanoTimeNs = nt[0];
        }
        page.append("### JMH: the runtime's reporting calls (ns/op, ± 99.9% error; bytes/op from -prof gc)\n\n");
        page.append("| call | 1 thread ns/op | B/op | 2 threads ns/op | B/op |\n|---|---:|---:|---:|---:|\n");
        rows.forEach((k, r) -> page.append(String.format(Locale.ROOT, "| %s | %.2f ± %.2f | %.3f | %.2f ± %.2f | %.3f |%n",
                k, r[0], r[1], r[2], r[3], r[4], r[5])));
        page.append("\n");
    }

    /**
     * TRACE_ENTER/TRACE_EXIT per call, disabled, below the threshold and recorded, against no patch (JMH
     * {@code TraceCalls}, 1 thread, -prof gc); docs/events.md.
     */
    private void trace() throws IOException {
        String home = System.getProperty("dyper.jdk25", "").isBlank()
                ? System.getenv().getOrDefault("JDK25_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
                : System.getProperty("dyper.jdk25");
        Path jdk25 = Path.of(home, "bin", "java");
        page.append("### JMH: TRACE_ENTER/TRACE_EXIT per call (state: off = type disabled, was-on = switched off "
                + "after tracing, below = under the threshold, on = recorded; guardOnly = Dyper.on() alone; jdk-below "
                + "/ jdk-on = JDK 25's jdk.MethodTrace on the same method, read noPatch)\n\n| JDK | benchmark (state) | ns/op | B/op |\n|---|---|---:|---:|\n");
        String own = "TraceCalls\\.(noPatch|traced)$";
        traceRun(System.getProperty("java.specification.version"), java, "off,was-on,below,on", own);
        traceRun(System.getProperty("java.specification.version"), java, "off", "TraceCalls\\.guardOnly$");
        if (Files.isExecutable(jdk25)) {
            traceRun("25", jdk25, "off,was-on,below,on", own);
            traceRun("25", jdk25, "off", "TraceCalls\\.guardOnly$");
            traceRun("25", jdk25, "jdk-below,jdk-on", "TraceCalls\\.noPatch$");
        } else {
            problems.add("trace on JDK 25 and jdk.MethodTrace left out: no JDK 25 at " + home
                    + " (-Ddyper.jdk25, JDK25_HOME)");
        }
        page.append("\n");
    }

    private void traceRun(String jdk, Path javaBin, String states, String benchmarks) throws IOException {
        progress("JMH: trace modes into JFR on JDK " + jdk + " (" + states + "), -prof gc");
        String file = "jmh-trace-" + jdk + "-" + states.replace(",", "-");
        Path csv = work.resolve(file + ".csv");
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString(), "-cp", harnessJar + ":" + lib + "/*",
                "org.openjdk.jmh.Main", "org\\.dyper\\.benchmarks\\.jmh\\." + benchmarks, "-p", "state=" + states,
                "-prof", "gc", "-rf", "csv", "-rff", csv.toString()));
        if (quick) {
            cmd.addAll(List.of("-wi", "1", "-w", "200ms", "-i", "1", "-r", "200ms"));
        } else {
            cmd.addAll(List.of("-i", "5"));
        }
        Proc p = exec(cmd, work.resolve(file + ".log"));
        if (p.exit != 0 || !Files.exists(csv)) {
            problems.add("JMH TraceCalls on JDK " + jdk + " failed (exit " + p.exit + "), see "
                    + work.resolve(file + ".log"));
            return;
        }
        String prefix = "org.dyper.benchmarks.jmh.TraceCalls.";
        Map<String, double[]> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(csv)) {
            List<String> f = Stats.csvFields(line);
            if (f.size() < 8 || !f.get(0).startsWith(prefix)) {
                continue;
            }
            String name = f.get(0).substring(prefix.length());
            boolean alloc = name.endsWith(":gc.alloc.rate.norm");
            if (!alloc && name.contains(":")) {
                continue;
            }
            String key = (alloc ? name.substring(0, name.indexOf(':')) : name) + " (" + f.get(7) + ")";
            double[] r = rows.computeIfAbsent(key, k -> new double[] {Double.NaN, Double.NaN, Double.NaN});
            if (alloc) {
                r[2] = Stats.number(f.get(4));
            } else {
                r[0] = Stats.number(f.get(4));
                r[1] = Stats.number(f.get(5));
            }
        }
        rows.forEach((k, r) -> page.append(String.format(Locale.ROOT, "| %s | %s | %.2f ± %.2f | %.3f |%n", jdk, k,
                r[0], r[1], r[2])));
    }

    /** A row of a targets table: what was aimed at, what was measured, met or missed by how much. */
    void row(String target, String measured, boolean met, String missedBy) {
        page.append("| ").append(target).append(" | ").append(measured).append(" | ")
                .append(met ? "met" : "MISSED " + missedBy).append(" |\n");
    }

    // ---------------------------------------------------------------- weaving real jars

    private void weave() throws IOException {
        page.append(new WeaveBench(this, root, work, lib, java, appJar, target.resolve("classes/org/dyper/benchmarks/"
                + "peers"), quick).run(problems));
    }

    // ---------------------------------------------------------------- helpers

    record Proc(int exit, String out, String err, long launchMicros, long wallNanos) {}

    Proc exec(List<String> command, Path log) throws IOException {
        Path out = Files.createTempFile(work, "out", ".txt");
        Path err = Files.createTempFile(work, "err", ".txt");
        ProcessBuilder b = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .directory(root.toFile());
        b.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Instant launch = Instant.now();
        long t0 = System.nanoTime();
        Process p = b.start();
        int exit;
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                exit = -1;
            } else {
                exit = p.exitValue();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            exit = -1;
        }
        long wall = System.nanoTime() - t0;
        String o = Files.readString(out, StandardCharsets.UTF_8);
        String e = Files.readString(err, StandardCharsets.UTF_8);
        Files.delete(out);
        Files.delete(err);
        if (log != null) {
            Files.writeString(log, String.join(" ", command) + "\n--- stdout\n" + o + "--- stderr\n" + e);
        }
        return new Proc(exit, o, e, launch.getEpochSecond() * 1_000_000L + launch.getNano() / 1_000, wall);
    }

    void require(Proc p, String what) {
        if (p.exit != 0) {
            throw new IllegalStateException(what + " failed (exit " + p.exit + "): " + tail(p.err + p.out));
        }
    }

    Path model(String mode) {
        return bench.resolve("models/moo-" + mode + ".xml");
    }

    static List<String> cmd(List<String> head, List<String> tail) {
        List<String> c = new ArrayList<>(head);
        c.addAll(tail);
        return c;
    }

    static String tail(String s) {
        String t = s.strip();
        return t.length() > 400 ? "…" + t.substring(t.length() - 400) : t;
    }

    static void progress(String s) {
        System.err.println("[bench " + LocalTime.now().withNano(0) + "] " + s);
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(f -> {
                try {
                    Files.delete(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
