package org.dyper.benchmarks.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the whole overhead comparison and prints the results page's tables (also written to
 * {@code benchmarks/target/results.md}): JMH microbenchmarks of the reporting calls, the MooBench-style process
 * benchmark (configurations interleaved, one JVM each, median of rounds), start-up, weaving real jars
 * ({@link WeaveBench}) and the DYPER monitor's sampling overhead. Started by {@code benchmarks/run}; {@code --quick} makes every part short (a smoke
 * test of the harness, not a measurement).
 */
public final class Runner {
    private final Path root;
    private final Path bench;
    private final Path target;
    private final Path work;
    private final Path appJar;
    private final Path harnessJar;
    private final Path lib;
    private final Path java;
    private final boolean quick;
    private final StringBuilder page = new StringBuilder();
    private String dyperClasspath;
    private double nanoTimeNs = Double.NaN;
    private final List<String> problems = new ArrayList<>();

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
        List<String> only = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--root" -> root = Path.of(args[++i]).toAbsolutePath().normalize();
                case "--quick" -> quick = true;
                case "--only" -> only.addAll(Arrays.asList(args[++i].split(",")));
                default -> {
                    System.err.println("usage: Runner [--root DIR] [--quick] [--only jmh,moo,startup,weave,monitor,agreement]");
                    System.exit(2);
                }
            }
        }
        new Runner(root, quick).run(only.isEmpty() ? List.of("jmh", "moo", "startup", "weave", "monitor", "agreement")
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
        if (parts.contains("moo")) {
            moo();
        }
        if (parts.contains("startup")) {
            startup();
        }
        if (parts.contains("weave")) {
            weave();
        }
        if (parts.contains("monitor")) {
            page.append(new MonitorOverhead(java, lib, appJar, work, quick).run(problems, Runner::progress));
        }
        if (parts.contains("agreement")) {
            page.append(new ProfilerAgreement(java, lib, harnessJar, work, quick).run(problems, Runner::progress));
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
                List<String> f = csvFields(line);
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
                r[col] = number(f.get(4));
                if (score) {
                    r[col + 1] = number(f.get(5));
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

    // ---------------------------------------------------------------- MooBench-style

    /** One configuration of the process benchmark: how to launch it and how to check its count. */
    private record Moo(String name, String key, Function<Path, List<String>> command, Check check) {}

    private enum Check { DYPER, DYPER_OFF, PEER, NONE }

    private void moo() throws IOException {
        int depth = 10;
        long warmup = quick ? 100_000 : 1_000_000;
        int batches = quick ? 5 : 20;
        long batchCalls = quick ? 50_000 : 100_000;
        int rounds = quick ? 1 : 5;
        List<String> mooArgs = List.of("org.dyper.benchmarks.app.MooMain", String.valueOf(warmup),
                String.valueOf(batches), String.valueOf(batchCalls), String.valueOf(depth));

        progress("MooBench: weaving the configurations");
        Map<String, Path> woven = new LinkedHashMap<>();
        for (String m : List.of("count", "time", "sample")) {
            Path out = work.resolve("dyper-" + m + ".jar");
            Proc p = exec(List.of(root.resolve("dyper").toString(), "weave", "--model", model(m).toString(), "--in",
                    appJar.toString(), "--out", out.toString()), work.resolve("weave-" + m + ".log"));
            require(p, "dyper weave " + m);
            woven.put(m, out);
        }
        Path ajAround = ajcWeave("AjAroundTiming", appJar, work.resolve("aj-around.jar"));
        Path ajCount = ajcWeave("AjCounting", appJar, work.resolve("aj-count.jar"));
        Path ajCountAdder = ajcWeave("AjCountingAdder", appJar, work.resolve("aj-count-adder.jar"));
        Path cacheMoo = work.resolve("cache-moo");

        String rt = lib.resolve("aspectjrt-1.9.25.1.jar").toString();
        String weaver = lib.resolve("aspectjweaver-1.9.25.1.jar").toString();
        String kiekerCp = String.join(":", appJar.toString(), bench.resolve("peers/kieker").toString(),
                lib.resolve("kieker-1.15.2.jar").toString(), lib.resolve("jctools-core-3.3.0.jar").toString(),
                lib.resolve("slf4j-api-2.0.17.jar").toString());
        List<Moo> configs = new ArrayList<>();
        configs.add(new Moo("no instrumentation", "none",
                r -> cmd(List.of(java.toString(), "-cp", appJar.toString()), mooArgs), Check.NONE));
        configs.add(new Moo("one `System.nanoTime()` alone (the clock; exact timing's floor is two)", "clock",
                r -> List.of(java.toString(), "-cp", appJar.toString(), "org.dyper.benchmarks.app.ClockMain",
                        String.valueOf(warmup * 2), String.valueOf(batches), String.valueOf(batchCalls * 2)),
                Check.NONE));
        for (String m : List.of("count", "time", "sample")) {
            String label = switch (m) {
                case "count" -> "Dyper COUNT";
                case "time" -> "Dyper exact timing (TIME_ENTER/TIME_EXIT)";
                default -> "Dyper sampled timing (SAMPLE_ENTER/SAMPLE_EXIT, N=64)";
            };
            configs.add(new Moo(label + ", binary (`dyper weave`)", "dyper-" + m + "-ctw",
                    r -> cmd(List.of(java.toString(), "-Ddyper.report=none", "-Ddyper.report.xml=" + r, "-cp",
                            woven.get(m) + ":" + dyperClasspath), mooArgs), Check.DYPER));
            configs.add(new Moo(label + ", woven at launch (`dyper run --no-monitor`)", "dyper-" + m + "-launch",
                    r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--no-monitor", "--cache",
                            cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                            model(m).toString(), "--", "-cp", appJar.toString()), mooArgs), Check.DYPER));
            configs.add(new Moo(label + ", load time (`dyper run --weaver-agent --no-monitor`)", "dyper-" + m + "-ltw",
                    r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--weaver-agent", "--no-monitor",
                            "--cache", cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                            model(m).toString(), "--", "-cp", appJar.toString()), mooArgs), Check.DYPER));
        }
        configs.add(new Moo("Dyper exact timing, monitoring off (`-Ddyper.enabled=false`), binary", "dyper-off-ctw",
                r -> cmd(List.of(java.toString(), "-Ddyper.enabled=false", "-Ddyper.report=none",
                        "-Ddyper.report.xml=" + r, "-cp", woven.get("time") + ":" + dyperClasspath), mooArgs),
                Check.DYPER_OFF));
        configs.add(new Moo("Dyper exact timing, monitoring off, woven at launch", "dyper-off-launch",
                r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--no-monitor", "--cache",
                        cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                        model("time").toString(), "--", "-Ddyper.enabled=false", "-cp", appJar.toString()), mooArgs),
                Check.DYPER_OFF));
        configs.add(new Moo("Dyper exact timing, monitoring off, load time (weaver agent)", "dyper-off-ltw",
                r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--weaver-agent", "--no-monitor", "--cache",
                        cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                        model("time").toString(), "--", "-Ddyper.enabled=false", "-cp", appJar.toString()), mooArgs),
                Check.DYPER_OFF));
        configs.add(new Moo("AspectJ @Around timing, thisJoinPointStaticPart (ajc binary)", "aj-around",
                r -> cmd(List.of(java.toString(), "-cp", ajAround + ":" + rt), mooArgs), Check.PEER));
        configs.add(new Moo("AspectJ @Before counting, static long (ajc binary)", "aj-count",
                r -> cmd(List.of(java.toString(), "-cp", ajCount + ":" + rt), mooArgs), Check.PEER));
        configs.add(new Moo("AspectJ @Before counting, static LongAdder: thread-safe (ajc binary; context, not a "
                + "target)", "aj-count-adder", r -> cmd(List.of(java.toString(), "-cp", ajCountAdder + ":" + rt),
                mooArgs), Check.PEER));
        configs.add(new Moo("Byte Buddy Advice timing agent", "bytebuddy",
                r -> cmd(List.of(java.toString(), "-javaagent:" + harnessJar, "-cp",
                        appJar + ":" + lib.resolve("byte-buddy-1.17.7.jar")), mooArgs), Check.PEER));
        configs.add(new Moo("Kieker 1.15.2 operation-execution probe, disabled (LTW)", "kieker-off",
                r -> cmd(List.of(java.toString(), "-javaagent:" + weaver, "-Dkieker.monitoring.enabled=false",
                        "-cp", kiekerCp), mooArgs), Check.NONE));
        configs.add(new Moo("Kieker 1.15.2 operation-execution probe, enabled, no-op DumpWriter (LTW)", "kieker-dump",
                r -> cmd(List.of(java.toString(), "-javaagent:" + weaver, "-cp", kiekerCp), mooArgs), Check.NONE));

        // one unmeasured run per way fills the launch cache, so no round pays for weaving or compiling
        for (String m : List.of("count", "time", "sample")) {
            for (boolean agent : new boolean[] {false, true}) {
                List<String> fill = new ArrayList<>(List.of(root.resolve("dyper").toString(), "run", "--no-monitor"));
                if (agent) {
                    fill.add("--weaver-agent");
                }
                fill.addAll(List.of("--cache", cacheMoo.toString(), "--report", "none", "--model",
                        model(m).toString(), "--", "-cp", appJar.toString(), "org.dyper.benchmarks.app.StartupMain"));
                exec(fill, null);
            }
        }

        Map<String, List<double[]>> results = new LinkedHashMap<>();
        Map<String, String> checks = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            progress("MooBench round " + round + "/" + rounds);
            for (Moo c : configs) {
                Path report = work.resolve("moo-" + c.key + "-" + round + ".xml");
                Proc p = exec(c.command.apply(report), null);
                Matcher m = Pattern.compile("MOO ns=([0-9.]+) min=([0-9.]+) bytes=([0-9.]+) calls=(\\d+) "
                        + "executions=(\\d+)").matcher(p.out);
                if (p.exit != 0 || !m.find()) {
                    problems.add("MooBench " + c.name + " round " + round + " failed (exit " + p.exit + "): "
                            + tail(p.err));
                    continue;
                }
                long executions = Long.parseLong(m.group(5));
                String check = check(c, report, p.err, executions);
                checks.merge(c.key, check, (a, b) -> a.equals(b) ? a : a + "; " + b);
                results.computeIfAbsent(c.key, k -> new ArrayList<>()).add(new double[] {
                        Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3))});
            }
        }
        List<double[]> none = results.getOrDefault("none", List.of());
        Map<String, Double> overhead = new LinkedHashMap<>();
        for (Moo c : configs) {
            List<double[]> r = results.get(c.key);
            if (r == null || r.size() != none.size() || c.key.equals("clock")) {
                continue;
            }
            double[] diffs = new double[r.size()];
            for (int i = 0; i < r.size(); i++) {
                diffs[i] = r.get(i)[0] - none.get(i)[0];
            }
            overhead.put(c.key, median(diffs));
        }
        double timingPeer = minOf(overhead, "aj-around", "bytebuddy", "kieker-dump");
        if (results.containsKey("clock")) {
            nanoTimeNs = median(results.get("clock").stream().mapToDouble(a -> a[0]).toArray());
        }
        page.append(String.format(Locale.ROOT, "### MooBench-style: ns per monitored execution (depth %d, %,d warm-up "
                + "calls, then %d batches of %,d calls; median batch per JVM; median of %d interleaved rounds, one JVM "
                + "per configuration and round)%n%n", depth, warmup, batches, batchCalls, rounds));
        page.append("Overhead = median over rounds of (configuration − no instrumentation) in the same round. Ratios "
                + "are Dyper's overhead over the plain-AspectJ reference's (COUNT: the @Before counting aspect; "
                + "timing, sampled and off: the @Around timing aspect) and over the best peer's (COUNT: AspectJ "
                + "counting; timing and sampled: the cheapest of AspectJ @Around, Byte Buddy and Kieker with its "
                + "no-op writer; off: Kieker disabled).\n\n");
        page.append("| configuration | ns/exec (median) | spread (min–max) | overhead ns | bytes/exec | count check | "
                + "× AspectJ ref | × best peer |\n|---|---:|---:|---:|---:|---|---:|---:|\n");
        for (Moo c : configs) {
            List<double[]> r = results.get(c.key);
            if (r == null) {
                page.append("| ").append(c.name).append(" | failed | | | | | | |\n");
                continue;
            }
            double[] ns = r.stream().mapToDouble(a -> a[0]).toArray();
            double[] bytes = r.stream().mapToDouble(a -> a[1]).toArray();
            Double ov = overhead.get(c.key);
            String ajRef = "", peer = "";
            if (c.key.startsWith("dyper-") && ov != null) {
                boolean count = c.key.startsWith("dyper-count");
                boolean off = c.key.startsWith("dyper-off");
                Double ref = overhead.get(count ? "aj-count" : "aj-around");
                double best = count ? overhead.getOrDefault("aj-count", Double.NaN)
                        : off ? overhead.getOrDefault("kieker-off", Double.NaN) : timingPeer;
                ajRef = ratio(ov, ref == null ? Double.NaN : ref);
                peer = ratio(ov, best);
            }
            page.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f–%.2f | %s | %.2f | %s | %s | %s |%n", c.name,
                    median(ns), min(ns), max(ns), ov == null ? "" : String.format(Locale.ROOT, "%.2f", ov),
                    median(bytes), checks.getOrDefault(c.key, ""), ajRef, peer));
        }
        page.append("\n");
        targets(overhead, results);
    }

    private void targets(Map<String, Double> ov, Map<String, List<double[]>> results) {
        page.append("### Targets of issue 6 (MooBench figures above; the clock is the `System.nanoTime()` row, "
                + "measured in the same interleaved rounds)\n\n");
        page.append("| target | measured | verdict |\n|---|---|---|\n");
        double maxBytes = 0;
        String worst = "";
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            if (e.getKey().startsWith("dyper-")) {
                double b = median(e.getValue().stream().mapToDouble(a -> a[1]).toArray());
                if (b > maxBytes) {
                    maxBytes = b;
                    worst = e.getKey();
                }
            }
        }
        row("0 bytes per monitored execution, every Dyper mode", maxBytes < 0.01 ? "0 everywhere"
                : String.format(Locale.ROOT, "up to %.1f B/exec (%s)", maxBytes, worst), maxBytes < 0.01,
                String.format(Locale.ROOT, "by %.1f B/exec", maxBytes));
        double ajc = ov.getOrDefault("aj-count", Double.NaN);
        for (String way : WAYS) {
            double c = ov.getOrDefault("dyper-count-" + way, Double.NaN);
            row("COUNT (" + way + ") overhead ≤ AspectJ counting's", String.format(Locale.ROOT, "%.2f ns vs %.2f ns",
                    c, ajc), c <= ajc, String.format(Locale.ROOT, "by %.2f ns", c - ajc));
        }
        double floor = 2 * nanoTimeNs;
        for (String way : WAYS) {
            double t = ov.getOrDefault("dyper-time-" + way, Double.NaN);
            double bb = ov.getOrDefault("bytebuddy", Double.NaN);
            double aj = ov.getOrDefault("aj-around", Double.NaN);
            row("exact timing (" + way + ") ≤ 2 × nanoTime + 4 ns", String.format(Locale.ROOT,
                    "%.2f ns; floor 2 × %.2f = %.2f ns; distance to floor %.2f ns", t, nanoTimeNs, floor, t - floor),
                    t <= floor + 4, String.format(Locale.ROOT, "by %.2f ns", t - floor - 4));
            row("exact timing (" + way + ") below Byte Buddy and AspectJ @Around", String.format(Locale.ROOT,
                    "%.2f ns vs Byte Buddy %.2f, AspectJ %.2f", t, bb, aj), t < bb && t < aj,
                    String.format(Locale.ROOT, "by %.2f ns over the lower", t - Math.min(bb, aj)));
        }
        for (String way : WAYS) {
            double s = ov.getOrDefault("dyper-sample-" + way, Double.NaN);
            row("sampled timing N=64 (" + way + ") ≤ 5 ns", String.format(Locale.ROOT, "%.2f ns", s), s <= 5,
                    String.format(Locale.ROOT, "by %.2f ns", s - 5));
        }
        for (String way : WAYS) {
            double o = ov.getOrDefault("dyper-off-" + way, Double.NaN);
            row("monitoring off (" + way + ") ≤ 2 ns", String.format(Locale.ROOT, "%.2f ns", o), o <= 2,
                    String.format(Locale.ROOT, "by %.2f ns", o - 2));
        }
        page.append("\n");
    }

    /** Binary (`dyper weave`), woven at launch (`dyper run`), load time (`dyper run --weaver-agent`). */
    private static final List<String> WAYS = List.of("ctw", "launch", "ltw");

    private void row(String target, String measured, boolean met, String missedBy) {
        page.append("| ").append(target).append(" | ").append(measured).append(" | ")
                .append(met ? "met" : "MISSED " + missedBy).append(" |\n");
    }

    private String check(Moo c, Path report, String err, long executions) throws IOException {
        switch (c.check) {
            case NONE:
                return "n/a";
            case PEER: {
                Matcher m = Pattern.compile("PEER-COUNT .* (\\d+)").matcher(err);
                if (!m.find()) {
                    problems.add(c.name + ": no PEER-COUNT line");
                    return "MISSING";
                }
                long n = Long.parseLong(m.group(1));
                return exact(c, n, executions);
            }
            default: {
                if (!Files.exists(report)) {
                    problems.add(c.name + ": no XML report " + report);
                    return "NO REPORT";
                }
                String xml = Files.readString(report);
                Matcher m = Pattern.compile("<SITE ID='\\d+' NAME='[^']*monitoredMethod[^']*' COUNT='(\\d+)'")
                        .matcher(xml);
                long n = m.find() ? Long.parseLong(m.group(1)) : 0;
                if (c.check == Check.DYPER_OFF) {
                    return n == 0 ? "0 recorded (off)" : "RECORDED " + n + " WHILE OFF";
                }
                return exact(c, n, executions);
            }
        }
    }

    private String exact(Moo c, long n, long executions) {
        if (n == executions) {
            return String.format(Locale.ROOT, "exact (%,d)", n);
        }
        problems.add(String.format(Locale.ROOT, "%s counted %,d of %,d executions", c.name, n, executions));
        return String.format(Locale.ROOT, "WRONG: %,d of %,d", n, executions);
    }

    private Path ajcWeave(String aspect, Path in, Path out) throws IOException {
        Path dir = work.resolve("aspect-" + aspect);
        Path pkg = dir.resolve("org/dyper/benchmarks/peers");
        Files.createDirectories(pkg);
        try (Stream<Path> s = Files.list(target.resolve("classes/org/dyper/benchmarks/peers"))) {
            for (Path f : s.toList()) {
                String n = f.getFileName().toString();
                if (n.equals(aspect + ".class") || n.startsWith(aspect + "$") || n.startsWith("PeerStats")) {
                    Files.copy(f, pkg.resolve(n), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Proc p = exec(ajc(in + ":" + dir, out), work.resolve("ajc-" + aspect + ".log"));
        require(p, "ajc " + aspect);
        return out;
    }

    private List<String> ajc(String inpath, Path out) {
        return List.of(java.toString(), "-cp", lib.resolve("aspectjtools-1.9.25.1.jar").toString(),
                "org.aspectj.tools.ajc.Main", "-inpath", inpath, "-outjar", out.toString(), "-classpath",
                lib.resolve("aspectjrt-1.9.25.1.jar").toString(), "-Xlint:ignore", "-nowarn");
    }

    // ---------------------------------------------------------------- start-up

    private void startup() throws IOException {
        int rounds = quick ? 1 : 5;
        progress("Start-up: preparing");
        Path warm = work.resolve("cache-warm");
        String dyper = root.resolve("dyper").toString();
        String timeModel = model("time").toString();
        List<String> main = List.of("-cp", appJar.toString(), "org.dyper.benchmarks.app.StartupMain");
        exec(cmd(List.of(dyper, "run", "--no-monitor", "--cache", warm.toString(), "--report", "none", "--model",
                timeModel, "--"), main), null);
        exec(cmd(List.of(dyper, "run", "--weaver-agent", "--no-monitor", "--cache", warm.toString(), "--report",
                "none", "--model", timeModel, "--"), main), null);
        String ltwCp = String.join(":", appJar.toString(), bench.resolve("peers/ltw-around").toString(),
                harnessJar.toString());
        Map<String, Function<Integer, List<String>>> configs = new LinkedHashMap<>();
        configs.put("plain java, no instrumentation", r -> cmd(List.of(java.toString()), main));
        configs.put("plain -javaagent:aspectjweaver + aop.xml (@Around timing)", r -> List.of(java.toString(),
                "-javaagent:" + lib.resolve("aspectjweaver-1.9.25.1.jar"), "-cp", ltwCp,
                "org.dyper.benchmarks.app.StartupMain"));
        configs.put("dyper run --no-monitor, cold cache (classes woven into the cache)", r -> cmd(List.of(dyper, "run",
                "--no-monitor", "--cache", work.resolve("cache-cold-" + r).toString(), "--report", "none", "--model",
                timeModel, "--"), main));
        configs.put("dyper run --no-monitor, warm cache", r -> cmd(List.of(dyper, "run", "--no-monitor", "--cache",
                warm.toString(), "--report", "none", "--model", timeModel, "--"), main));
        configs.put("dyper run --weaver-agent --no-monitor, warm cache", r -> cmd(List.of(dyper, "run",
                "--weaver-agent", "--no-monitor", "--cache", warm.toString(), "--report", "none", "--model", timeModel,
                "--"), main));
        configs.put("dyper run (monitor on, the default), warm cache", r -> cmd(List.of(dyper, "run", "--cache",
                warm.toString(), "--report", "none", "--model", timeModel, "--"), main));
        Map<String, List<double[]>> res = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            progress("Start-up round " + round + "/" + rounds);
            for (Map.Entry<String, Function<Integer, List<String>>> c : configs.entrySet()) {
                Proc p = exec(c.getValue().apply(round), null);
                Matcher m = Pattern.compile("STARTUP main=(\\d+) first=(\\d+)").matcher(p.out);
                if (p.exit != 0 || !m.find()) {
                    problems.add("start-up " + c.getKey() + " failed: " + tail(p.err));
                    continue;
                }
                res.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(new double[] {
                        (Long.parseLong(m.group(1)) - p.launchMicros) / 1000.0,
                        (Long.parseLong(m.group(2)) - p.launchMicros) / 1000.0});
            }
        }
        page.append(String.format(Locale.ROOT, "### Start-up: ms from launch (the `java` or `dyper` process start) to "
                + "`main` and to the first monitored call having returned (median of %d interleaved rounds)%n%n",
                rounds));
        page.append("| configuration | to main | to first call | spread (first call) | extra over plain java |\n"
                + "|---|---:|---:|---:|---:|\n");
        double plain = Double.NaN;
        Map<String, Double> extra = new LinkedHashMap<>();
        for (String k : configs.keySet()) {
            List<double[]> r = res.get(k);
            if (r == null) {
                page.append("| ").append(k).append(" | failed | | | |\n");
                continue;
            }
            double[] first = r.stream().mapToDouble(a -> a[1]).toArray();
            double mainMs = median(r.stream().mapToDouble(a -> a[0]).toArray());
            if (Double.isNaN(plain)) {
                plain = median(first);
            }
            extra.put(k, median(first) - plain);
            page.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.0f–%.0f | %.0f |%n", k, mainMs,
                    median(first), min(first), max(first), median(first) - plain));
        }
        List<String> keys = new ArrayList<>(configs.keySet());
        double ltw = extra.getOrDefault(keys.get(1), Double.NaN);
        double cold = extra.getOrDefault(keys.get(2), Double.NaN);
        double warmX = extra.getOrDefault(keys.get(3), Double.NaN);
        page.append("\n| target | measured | verdict |\n|---|---|---|\n");
        row("`dyper run` (cold) no slower than plain load-time weaving", String.format(Locale.ROOT,
                "extra %.0f ms vs %.0f ms", cold, ltw), cold <= ltw, String.format(Locale.ROOT, "by %.0f ms",
                cold - ltw));
        row("`dyper run` (warm) extra ≤ half of plain LTW's", String.format(Locale.ROOT, "extra %.0f ms vs %.0f ms / 2",
                warmX, ltw), warmX <= ltw / 2, String.format(Locale.ROOT, "by %.0f ms", warmX - ltw / 2));
        page.append("\n");
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

    private void require(Proc p, String what) {
        if (p.exit != 0) {
            throw new IllegalStateException(what + " failed (exit " + p.exit + "): " + tail(p.err + p.out));
        }
    }

    private Path model(String mode) {
        return bench.resolve("models/moo-" + mode + ".xml");
    }

    private static List<String> cmd(List<String> head, List<String> tail) {
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

    private static List<String> csvFields(String line) {
        List<String> f = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"|([^,]+)|(?<=,)(?=,|$)").matcher(line);
        while (m.find()) {
            f.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : "");
        }
        return f;
    }

    private static double number(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static double minOf(Map<String, Double> m, String... keys) {
        double r = Double.NaN;
        for (String k : keys) {
            Double v = m.get(k);
            if (v != null && (Double.isNaN(r) || v < r)) {
                r = v;
            }
        }
        return r;
    }

    private static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b <= 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f", a / b);
    }

    static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
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
