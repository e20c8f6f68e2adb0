package org.dyper.benchmarks.runner;

import static org.dyper.benchmarks.runner.Runner.cmd;
import static org.dyper.benchmarks.runner.Runner.progress;
import static org.dyper.benchmarks.runner.Runner.tail;
import static org.dyper.benchmarks.runner.Stats.max;
import static org.dyper.benchmarks.runner.Stats.median;
import static org.dyper.benchmarks.runner.Stats.min;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Start-up: time from launch to {@code main} and to the first monitored call, plain java against each way of
 * weaving.
 */
final class StartupBench extends RunnerPart {
    StartupBench(Runner runner) {
        super(runner);
    }

    /** Runs the configurations, interleaved, and appends the table and the targets to the page. */
    void run() throws IOException {
        int rounds = quick ? 1 : 5;
        progress("Start-up: preparing");
        Path warm = work.resolve("cache-warm");
        String dyper = root.resolve("dyper").toString();
        String timeModel = runner.model("time").toString();
        List<String> main = List.of("-cp", appJar.toString(), "org.dyper.benchmarks.app.StartupMain");
        runner.exec(cmd(List.of(dyper, "run", "--no-monitor", "--cache", warm.toString(), "--report", "none", "--model",
                timeModel, "--"), main), null);
        runner.exec(cmd(List.of(dyper, "run", "--weaver-agent", "--no-monitor", "--cache", warm.toString(), "--report",
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
                Runner.Proc p = runner.exec(c.getValue().apply(round), null);
                Matcher m = Pattern.compile("STARTUP main=(\\d+) first=(\\d+)").matcher(p.out());
                if (p.exit() != 0 || !m.find()) {
                    problems.add("start-up " + c.getKey() + " failed: " + tail(p.err()));
                    continue;
                }
                res.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(new double[] {
                        (Long.parseLong(m.group(1)) - p.launchMicros()) / 1000.0,
                        (Long.parseLong(m.group(2)) - p.launchMicros()) / 1000.0});
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
        runner.row("`dyper run` (cold) no slower than plain load-time weaving", String.format(Locale.ROOT,
                "extra %.0f ms vs %.0f ms", cold, ltw), cold <= ltw, String.format(Locale.ROOT, "by %.0f ms",
                cold - ltw));
        runner.row("`dyper run` (warm) extra ≤ half of plain LTW's", String.format(Locale.ROOT,
                "extra %.0f ms vs %.0f ms / 2",
                warmX, ltw), warmX <= ltw / 2, String.format(Locale.ROOT, "by %.0f ms", warmX - ltw / 2));
        page.append("\n");
    }
}
