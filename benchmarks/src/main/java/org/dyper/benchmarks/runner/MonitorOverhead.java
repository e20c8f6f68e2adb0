package org.dyper.benchmarks.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The DYPER monitor's overhead on the bank sample ({@code MonitorLoad}): no agent, the monitor sampling with thread
 * dumps (SAMPLER=THREAD_DUMP, the sampler before the flight recorder), the flight recorder alone, the recorder with
 * thread dumps every 100 ms (WALL=true, what the defaults did before issue 20) and the monitor at its defaults (the
 * recorder, and thread states without dumps), each in its own JVM, interleaved for several rounds. Per configuration: the timed run's wall time and
 * the process's CPU time in it; overhead is the median of the per-round ratios to no agent.
 */
final class MonitorOverhead {
    private final Path java;
    private final Path lib;
    private final Path appJar;
    private final Path work;
    private final int rounds;
    private final String perThread;
    /** Long: a timed run of about 15 s (ten runs of the bank), only no agent against the defaults, 9 rounds. */
    private final boolean long_;

    MonitorOverhead(Path java, Path lib, Path appJar, Path work, boolean quick, boolean long_) {
        this.java = java;
        this.lib = lib;
        this.appJar = appJar;
        this.work = work;
        this.long_ = long_ && !quick;
        this.rounds = quick ? 1 : this.long_ ? 9 : 7;
        this.perThread = quick ? "2000" : "100000";
    }

    /** Runs the rounds and returns the markdown of the results; problems go to {@code problems}. */
    String run(List<String> problems, java.util.function.Consumer<String> progress) throws IOException,
            InterruptedException {
        String cp = appJar + ":" + lib.resolve("dyper-sample-apps-0.1.0-SNAPSHOT.jar");
        String agent = "-javaagent:" + lib.resolve("dyper-runtime-0.1.0-SNAPSHOT.jar") + "=dir="
                + work.resolve("monitor-registry");
        Map<String, List<String>> configs = new LinkedHashMap<>();
        configs.put("BankApp, no agent", List.of());
        if (!long_) {
            configs.put("monitor, thread dumps every 10 ms (SAMPLER=THREAD_DUMP: the sampler before JFR)",
                    List.of(agent + ",SAMPLER=THREAD_DUMP"));
            configs.put("monitor, JFR alone (CPU samples every 10 ms, no look at the threads: DUMPTIME=3600000)",
                    List.of(agent + ",DUMPTIME=3600000"));
            configs.put("monitor, JFR and thread dumps every 100 ms (WALL=true: the defaults before issue 20)",
                    List.of(agent + ",WALL=true"));
        }
        configs.put("monitor at its defaults (JFR CPU samples every 10 ms, thread states and CPU clocks every 100 ms"
                + " without dumps)", List.of(agent));
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            progress.accept("Monitor overhead round " + round + "/" + rounds);
            for (Map.Entry<String, List<String>> c : configs.entrySet()) {
                List<String> cmd = new ArrayList<>(List.of(java.toString()));
                cmd.addAll(c.getValue());
                cmd.addAll(List.of("-cp", cp, "org.dyper.benchmarks.app.MonitorLoad", "4", perThread,
                        long_ ? "10" : "1"));
                Path out = work.resolve("monitor-overhead.out");
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
                int exit = p.waitFor();
                String text = Files.readString(out);
                Matcher wall = Pattern.compile("LOAD ns=(\\d+)").matcher(text);
                Matcher cpu = Pattern.compile("CPU ns=(\\d+)").matcher(text);
                if (exit != 0 || !wall.find() || !cpu.find()) {
                    problems.add("monitor overhead " + c.getKey() + " failed: " + text);
                    continue;
                }
                results.computeIfAbsent(c.getKey(), k -> new ArrayList<>()).add(new double[] {
                    Long.parseLong(wall.group(1)) / 1e6, Long.parseLong(cpu.group(1)) / 1e6});
            }
        }
        StringBuilder page = new StringBuilder();
        page.append(String.format(Locale.ROOT, "### DYPER monitor overhead (BankApp, 4 threads × %s transfers%s, timed"
                + " after 5 s of warm-up; %d interleaved rounds)%n%n", perThread, long_ ? " × 10 runs" : "", rounds));
        page.append("| configuration | wall ms (median) | wall spread | CPU ms (median) | wall overhead | CPU overhead |\n"
                + "|---|---:|---:|---:|---:|---:|\n");
        List<double[]> base = results.get("BankApp, no agent");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            double[] wall = e.getValue().stream().mapToDouble(r -> r[0]).toArray();
            double[] cpu = e.getValue().stream().mapToDouble(r -> r[1]).toArray();
            String over = "";
            String cpuOver = "";
            if (base != null && base.size() == e.getValue().size() && e.getValue() != base) {
                double[] wr = new double[wall.length];
                double[] cr = new double[wall.length];
                for (int i = 0; i < wr.length; i++) {
                    wr[i] = wall[i] / base.get(i)[0];
                    cr[i] = cpu[i] / base.get(i)[1];
                }
                over = String.format(Locale.ROOT, "%+.1f %% (%+.1f to %+.1f)", (median(wr) - 1) * 100,
                        (min(wr) - 1) * 100, (max(wr) - 1) * 100);
                cpuOver = String.format(Locale.ROOT, "%+.1f %%", (median(cr) - 1) * 100);
            }
            page.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f–%.0f | %.0f | %s | %s |%n", e.getKey(),
                    median(wall), min(wall), max(wall), median(cpu), over, cpuOver));
        }
        return page.append('\n').toString();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length == 0 ? Double.NaN : s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
