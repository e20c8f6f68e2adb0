package org.dyper.benchmarks.runner;

import static org.dyper.benchmarks.runner.Runner.cmd;
import static org.dyper.benchmarks.runner.Runner.progress;
import static org.dyper.benchmarks.runner.Runner.tail;
import static org.dyper.benchmarks.runner.Stats.max;
import static org.dyper.benchmarks.runner.Stats.median;
import static org.dyper.benchmarks.runner.Stats.min;
import static org.dyper.benchmarks.runner.Stats.minOf;
import static org.dyper.benchmarks.runner.Stats.ratio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The MooBench-style process benchmark: each configuration (Dyper's modes in every way of weaving, plain AspectJ, Byte
 * Buddy, Kieker) in its own JVM, interleaved over rounds, counts checked for exactness; then the targets of issue 6.
 */
final class MooBench extends RunnerPart {
    MooBench(Runner runner) {
        super(runner);
    }

    /** One configuration of the process benchmark: how to launch it and how to check its count. */
    private record Moo(String name, String key, Function<Path, List<String>> command, Check check) {}

    private enum Check { DYPER, DYPER_OFF, PEER, NONE }

    /** Runs every configuration, interleaved, and appends the table and the targets to the page. */
    void run() throws IOException {
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
            Runner.Proc p = runner.exec(List.of(root.resolve("dyper").toString(), "weave", "--model",
                    runner.model(m).toString(), "--in",
                    appJar.toString(), "--out", out.toString()), work.resolve("weave-" + m + ".log"));
            runner.require(p, "dyper weave " + m);
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
                            woven.get(m) + ":" + runner.dyperClasspath), mooArgs), Check.DYPER));
            configs.add(new Moo(label + ", woven at launch (`dyper run --no-monitor`)", "dyper-" + m + "-launch",
                    r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--no-monitor", "--cache",
                            cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                            runner.model(m).toString(), "--", "-cp", appJar.toString()), mooArgs), Check.DYPER));
            configs.add(new Moo(label + ", load time (`dyper run --weaver-agent --no-monitor`)", "dyper-" + m + "-ltw",
                    r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--weaver-agent", "--no-monitor",
                            "--cache", cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                            runner.model(m).toString(), "--", "-cp", appJar.toString()), mooArgs), Check.DYPER));
        }
        configs.add(new Moo("Dyper exact timing, monitoring off (`-Ddyper.enabled=false`), binary", "dyper-off-ctw",
                r -> cmd(List.of(java.toString(), "-Ddyper.enabled=false", "-Ddyper.report=none",
                        "-Ddyper.report.xml=" + r, "-cp", woven.get("time") + ":" + runner.dyperClasspath), mooArgs),
                Check.DYPER_OFF));
        configs.add(new Moo("Dyper exact timing, monitoring off, woven at launch", "dyper-off-launch",
                r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--no-monitor", "--cache",
                        cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                        runner.model("time").toString(), "--", "-Ddyper.enabled=false", "-cp", appJar.toString()),
                        mooArgs),
                Check.DYPER_OFF));
        configs.add(new Moo("Dyper exact timing, monitoring off, load time (weaver agent)", "dyper-off-ltw",
                r -> cmd(List.of(root.resolve("dyper").toString(), "run", "--weaver-agent", "--no-monitor", "--cache",
                        cacheMoo.toString(), "--report", "none", "--xml", r.toString(), "--model",
                        runner.model("time").toString(), "--", "-Ddyper.enabled=false", "-cp", appJar.toString()),
                        mooArgs),
                Check.DYPER_OFF));
        // Dyper's precompiled aspects (the aspects module), each made concrete in an aop.xml and woven at load time
        Path aspectsJar = aspectsJar();
        for (String aspect : List.of("CountingAspect", "TimingAspect", "SampledTimingAspect")) {
            Path conf = work.resolve("aop-" + aspect);
            Files.createDirectories(conf.resolve("META-INF"));
            Files.writeString(conf.resolve("META-INF/aop.xml"), "<aspectj>\n  <aspects>\n"
                    + "    <concrete-aspect name=\"org.dyper.benchmarks.app.Dyper" + aspect + "\" extends=\"org.dyper.aspects."
                    + aspect + "\">\n      <pointcut name=\"scope\" expression=\"execution(* org.dyper.benchmarks.app."
                    + "MonitoredClass.monitoredMethod(..))\"/>\n    </concrete-aspect>\n  </aspects>\n"
                    + "  <weaver><include within=\"org.dyper.benchmarks.app.MonitoredClass\"/></weaver>\n</aspectj>\n");
            configs.add(new Moo("Dyper's precompiled `" + aspect + "` (aop.xml concrete-aspect, load time)",
                    "aspects-" + aspect, r -> cmd(List.of(java.toString(), "-javaagent:" + weaver, "-Ddyper.report=none",
                            "-Ddyper.report.xml=" + r, "-cp", appJar + ":" + conf + ":" + aspectsJar + ":"
                            + runner.dyperClasspath), mooArgs), Check.DYPER));
        }
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
                        runner.model(m).toString(), "--", "-cp", appJar.toString(),
                        "org.dyper.benchmarks.app.StartupMain"));
                runner.exec(fill, null);
            }
        }

        Map<String, List<double[]>> results = new LinkedHashMap<>();
        Map<String, String> checks = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            progress("MooBench round " + round + "/" + rounds);
            for (Moo c : configs) {
                Path report = work.resolve("moo-" + c.key + "-" + round + ".xml");
                Runner.Proc p = runner.exec(c.command.apply(report), null);
                Matcher m = Pattern.compile("MOO ns=([0-9.]+) min=([0-9.]+) bytes=([0-9.]+) calls=(\\d+) "
                        + "executions=(\\d+)").matcher(p.out());
                if (p.exit() != 0 || !m.find()) {
                    problems.add("MooBench " + c.name + " round " + round + " failed (exit " + p.exit() + "): "
                            + tail(p.err()));
                    continue;
                }
                long executions = Long.parseLong(m.group(5));
                String check = check(c, report, p.err(), executions);
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
            runner.nanoTimeNs = median(results.get("clock").stream().mapToDouble(a -> a[0]).toArray());
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
        runner.row("0 bytes per monitored execution, every Dyper mode", maxBytes < 0.01 ? "0 everywhere"
                : String.format(Locale.ROOT, "up to %.1f B/exec (%s)", maxBytes, worst), maxBytes < 0.01,
                String.format(Locale.ROOT, "by %.1f B/exec", maxBytes));
        double ajc = ov.getOrDefault("aj-count", Double.NaN);
        for (String way : WAYS) {
            double c = ov.getOrDefault("dyper-count-" + way, Double.NaN);
            runner.row("COUNT (" + way + ") overhead ≤ AspectJ counting's", String.format(Locale.ROOT,
                    "%.2f ns vs %.2f ns",
                    c, ajc), c <= ajc, String.format(Locale.ROOT, "by %.2f ns", c - ajc));
        }
        double nanoTimeNs = runner.nanoTimeNs;
        double floor = 2 * nanoTimeNs;
        for (String way : WAYS) {
            double t = ov.getOrDefault("dyper-time-" + way, Double.NaN);
            double bb = ov.getOrDefault("bytebuddy", Double.NaN);
            double aj = ov.getOrDefault("aj-around", Double.NaN);
            runner.row("exact timing (" + way + ") ≤ 2 × nanoTime + 4 ns", String.format(Locale.ROOT,
                    "%.2f ns; floor 2 × %.2f = %.2f ns; distance to floor %.2f ns", t, nanoTimeNs, floor, t - floor),
                    t <= floor + 4, String.format(Locale.ROOT, "by %.2f ns", t - floor - 4));
            runner.row("exact timing (" + way + ") below Byte Buddy and AspectJ @Around", String.format(Locale.ROOT,
                    "%.2f ns vs Byte Buddy %.2f, AspectJ %.2f", t, bb, aj), t < bb && t < aj,
                    String.format(Locale.ROOT, "by %.2f ns over the lower", t - Math.min(bb, aj)));
        }
        for (String way : WAYS) {
            double s = ov.getOrDefault("dyper-sample-" + way, Double.NaN);
            runner.row("sampled timing N=64 (" + way + ") ≤ 5 ns", String.format(Locale.ROOT, "%.2f ns", s), s <= 5,
                    String.format(Locale.ROOT, "by %.2f ns", s - 5));
        }
        for (String way : WAYS) {
            double o = ov.getOrDefault("dyper-off-" + way, Double.NaN);
            runner.row("monitoring off (" + way + ") ≤ 2 ns", String.format(Locale.ROOT, "%.2f ns", o), o <= 2,
                    String.format(Locale.ROOT, "by %.2f ns", o - 2));
        }
        page.append("\n");
    }

    /** Binary (`dyper weave`), woven at launch (`dyper run`), load time (`dyper run --weaver-agent`). */
    private static final List<String> WAYS = List.of("ctw", "launch", "ltw");

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
                // sites registered at run time (the precompiled aspects' lookup) have negative ids
                Matcher m = Pattern.compile("<SITE ID='-?\\d+' NAME='[^']*monitoredMethod[^']*' COUNT='(\\d+)'")
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

    /** The jar of Dyper's precompiled aspects, as the reactor build left it in aspects/target. */
    private Path aspectsJar() throws IOException {
        try (Stream<Path> s = Files.list(root.resolve("aspects/target"))) {
            return s.filter(p -> p.getFileName().toString().matches("dyper-aspects-[^-]+(-SNAPSHOT)?\\.jar"))
                    .findFirst().orElseThrow(() -> new IOException("no dyper-aspects jar in aspects/target: build with "
                            + "mvn -Pbenchmarks -DskipTests package first"));
        }
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
        Runner.Proc p = runner.exec(ajc(in + ":" + dir, out), work.resolve("ajc-" + aspect + ".log"));
        runner.require(p, "ajc " + aspect);
        return out;
    }

    private List<String> ajc(String inpath, Path out) {
        return List.of(java.toString(), "-cp", lib.resolve("aspectjtools-1.9.25.1.jar").toString(),
                "org.aspectj.tools.ajc.Main", "-inpath", inpath, "-outjar", out.toString(), "-classpath",
                lib.resolve("aspectjrt-1.9.25.1.jar").toString(), "-Xlint:ignore", "-nowarn");
    }
}
