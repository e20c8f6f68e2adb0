package org.dyper.benchmarks.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Does the monitor's CPU view agree with async-profiler 4.2? Each workload (programs nobody here wrote: H2, Lucene,
 * Jackson; the JDK's own HTTP server under load from clients in the same JVM; fifty busy threads) runs with both
 * attached to the same JVM (async-profiler {@code event=cpu}, or {@code itimer} where perf events are refused, every
 * 10 ms; the monitor at CHECKTIME 10 ms). On JDK 17 each runs once with the monitor's flight-recorder sampler
 * ({@code jdk.ExecutionSample} and {@code jdk.NativeMethodSample}) and once with its thread-dump sampler; on JDK 25
 * (when there) once with the recorder ({@code jdk.CPUTimeSample}; async-profiler then signals with signal 40, as the
 * recorder's CPU-time sampler takes SIGPROF). Each profiler's self time per method is the weight of the stacks whose
 * top Java frame is that method (async-profiler's stacks of the monitor's and the recorder's own threads left out, as
 * the monitor leaves them out); the tables compare the top 5 and the samples.
 */
final class ProfilerAgreement {
    static final List<String> WORKLOADS = List.of("H2Workload", "LuceneWorkload", "JacksonWorkload",
            "HttpServerWorkload", "BusyThreadsWorkload");
    private static final int TOP = 5;

    private final Path java;
    private final Path jdk25;
    private final Path lib;
    /** The harness jar, which holds the workloads. */
    private final Path appJar;
    private final Path work;
    private final int seconds;
    private final List<String> workloads;
    /** JDK-SAMPLER pairs to run ({@code 17-JFR}, {@code 17-THREAD_DUMP}, {@code 25-JFR}); empty: all three. */
    private final List<String> runs;

    ProfilerAgreement(Path java, Path lib, Path appJar, Path work, boolean quick, List<String> workloads,
            List<String> runs) {
        for (String w : workloads) {
            if (!WORKLOADS.contains(w)) {
                throw new IllegalArgumentException("--workloads: no workload " + w + " (" + WORKLOADS + ")");
            }
        }
        for (String r : runs) {
            if (!List.of("17-JFR", "17-THREAD_DUMP", "25-JFR").contains(r)) {
                throw new IllegalArgumentException("--runs: " + r + " is not one of 17-JFR, 17-THREAD_DUMP, 25-JFR");
            }
        }
        this.workloads = workloads.isEmpty() ? WORKLOADS : workloads;
        this.runs = runs;
        this.java = java;
        this.lib = lib;
        this.appJar = appJar;
        this.work = work;
        this.seconds = quick ? 3 : 30;
        // the tests' rule (docs/testing.md): -Ddyper.jdk25, else JDK25_HOME, else the default path
        String home = System.getProperty("dyper.jdk25", "").isBlank()
                ? System.getenv().getOrDefault("JDK25_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64")
                : System.getProperty("dyper.jdk25");
        this.jdk25 = Files.isExecutable(Path.of(home, "bin/java")) ? Path.of(home, "bin/java") : null;
    }

    String run(List<String> problems, java.util.function.Consumer<String> progress) throws IOException,
            InterruptedException {
        Path so = unpackProfiler();
        StringBuilder page = new StringBuilder();
        page.append(String.format(Locale.ROOT, "### Agreement with async-profiler 4.2: the CPU view's top %d self"
                + " methods (each workload %d s, both profilers in the same JVM)%n%n", TOP, seconds));
        for (String w : workloads) {
            Map<String, Map<String, Long>> byProfiler = new LinkedHashMap<>();
            StringBuilder weighing = new StringBuilder();
            List<String[]> runs = new ArrayList<>();
            for (String r : List.of("17-JFR", "17-THREAD_DUMP", "25-JFR")) {
                if (!this.runs.isEmpty() && !this.runs.contains(r)) {
                    continue;
                }
                if (r.startsWith("25") && jdk25 == null) {
                    problems.add("agreement on JDK 25 left out: no JDK 25 (-Ddyper.jdk25, JDK25_HOME)");
                    continue;
                }
                runs.add(r.split("-", 2));
            }
            for (String[] jdkAndSampler : runs) {
                String jdk = jdkAndSampler[0];
                String sampler = jdkAndSampler[1];
                progress.accept("Agreement: " + w + " on JDK " + jdk + " with the monitor's " + sampler + " sampler");
                String tag = w + "-" + jdk + "-" + sampler;
                Path ap = work.resolve(tag + "-async-profiler.txt");
                Path xml = work.resolve(tag + "-dyper.xml");
                String event = "cpu";
                Path javaBin = jdk.equals("25") ? jdk25 : java;
                Run r = run(javaBin, w, sampler, so, event, ap, xml);
                if (r.output.contains("perf_event") || r.output.contains("Perf events")) {
                    event = "itimer";
                    r = run(javaBin, w, sampler, so, event, ap, xml);
                }
                if (r.exit != 0 || !Files.exists(ap) || !Files.exists(xml)) {
                    problems.add("agreement " + tag + " failed: " + r.output);
                    continue;
                }
                String source = sampler.equals("JFR") ? "flight recorder" : "thread dumps";
                String suffix = " ".repeat(byProfiler.size() / 2);
                byProfiler.put("JDK " + jdk + " monitor, " + source + " (" + cpuEvent(Files.readString(xml)) + ")",
                        dyperSelf(Files.readString(xml)));
                weighing.append(weighing(jdk, source, Files.readString(xml)));
                Map<String, Long> apSelf = asyncProfilerSelf(Files.readAllLines(ap));
                weighing.append(beforeRecorder(jdk, Files.readString(xml), apSelf.values().stream()
                        .mapToLong(Long::longValue).sum()));
                byProfiler.put("JDK " + jdk + " async-profiler " + event + " (same run)" + suffix, apSelf);
            }
            page.append(table(w, byProfiler)).append(weighing);
        }
        return page.toString();
    }

    /**
     * How the monitor's CPU section was weighed (JDK 17's execution samples by the threads' CPU clocks): the CPU time
     * from before the threads' first samples and after their last that is on those samples, and that of threads never
     * sampled (not in the view); empty where the report has none of it.
     */
    static String weighing(String jdk, String source, String xml) {
        Matcher m = Pattern.compile("<CPU [^>]*ESTIMATED_NS='(\\d+)'[^>]*BEFORE_FIRST_NS='(\\d+)'"
                + " AFTER_LAST_NS='(\\d+)' UNSAMPLED_NS='(\\d+)'").matcher(xml);
        if (!m.find() || Long.parseLong(m.group(2)) + Long.parseLong(m.group(3)) + Long.parseLong(m.group(4)) == 0) {
            return "";
        }
        return String.format(Locale.ROOT, "JDK %s monitor, %s: CPU section %.1f s, of which %.1f s from before the"
                + " threads' first samples and %.1f s after their last; %.1f s of threads never sampled left out.%n%n",
                jdk, source, Long.parseLong(m.group(1)) / 1e9, Long.parseLong(m.group(2)) / 1e9,
                Long.parseLong(m.group(3)) / 1e9, Long.parseLong(m.group(4)) / 1e9);
    }

    /**
     * The thread dumps' CPU view of the time before the recorder started (CPU_BEFORE_JFR: on a crowded machine the
     * recorder's first samples come late), beside the recorder's view the table shows; empty without it.
     */
    static String beforeRecorder(String jdk, String xml, long asyncProfiler) {
        Matcher w = Pattern.compile("<MONITOR_REPORT [^>]*START='(\\d+)'").matcher(xml);
        Matcher v = Pattern.compile("<VIEW NAME='CPU_BEFORE_JFR'[^>]* FROM='(\\d+)' TO='(\\d+)'").matcher(xml);
        Map<String, Long> before = dyperSelf(xml, "CPU_BEFORE_JFR");
        if (!w.find() || !v.find() || before.isEmpty()) {
            return "";
        }
        long start = Long.parseLong(w.group(1));
        long kept = before.values().stream().mapToLong(Long::longValue).sum();
        long recorder = dyperSelf(xml).values().stream().mapToLong(Long::longValue).sum();
        String top = top(before).get(0).getKey();
        return String.format(Locale.ROOT, "JDK %s monitor: thread dumps before the recorder started (CPU_BEFORE_JFR,"
                + " %.1f s to %.1f s after the JVM started): %d samples, top `%s`; with the recorder's %d: %d, %.0f %%"
                + " of async-profiler's samples.%n%n", jdk, (Long.parseLong(v.group(1)) - start) / 1e3,
                (Long.parseLong(v.group(2)) - start) / 1e3, kept, simple(top), recorder, kept + recorder,
                100.0 * (kept + recorder) / Math.max(1, asyncProfiler));
    }

    /** The CPU section's source and event, as the monitor named them in its exit report. */
    static String cpuEvent(String xml) {
        Matcher m = Pattern.compile("<CPU [^>]*SOURCE='([^']*)' EVENT='([^']*)'").matcher(xml);
        return m.find() ? (m.group(2).isEmpty() ? m.group(1) : m.group(2)) : "no CPU section";
    }

    private record Run(int exit, String output) {
    }

    private Run run(Path javaBin, String workload, String sampler, Path so, String event, Path ap, Path xml)
            throws IOException, InterruptedException {
        Files.deleteIfExists(ap);
        Files.deleteIfExists(xml);
        // JDK 25's CPU-time sampler signals with SIGPROF: async-profiler takes another signal there
        String signal = javaBin.equals(java) ? "" : ",signal=40";
        List<String> cmd = List.of(javaBin.toString(),
                "-agentpath:" + so + "=start,event=" + event + signal + ",interval=10ms,collapsed,ann,threads,file="
                        + ap,
                "-javaagent:" + lib.resolve("dyper-runtime-0.1.0-SNAPSHOT.jar") + "=dir=" + work.resolve("agreement")
                        + ",SAMPLER=" + sampler + ",MAXPATHS=1000000,MAXNODES=2000000",
                "-Ddyper.report=none", "-Ddyper.report.xml=" + xml,
                "-cp", appJar + ":" + lib + "/*", "org.dyper.benchmarks.workloads." + workload,
                Integer.toString(seconds));
        Path out = work.resolve(xml.getFileName().toString().replace("-dyper.xml", ".out"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        int exit = p.waitFor();
        return new Run(exit, Files.readString(out));
    }

    private Path unpackProfiler() throws IOException {
        Path so = work.resolve("libasyncProfiler.so");
        try (JarFile jar = new JarFile(lib.resolve("async-profiler-4.2.jar").toFile());
                InputStream in = jar.getInputStream(jar.getEntry("linux-x64/libasyncProfiler.so"))) {
            Files.copy(in, so, StandardCopyOption.REPLACE_EXISTING);
        }
        return so;
    }

    /** Self samples per method from the monitor's CPU view: the leaf frame of each path. */
    static Map<String, Long> dyperSelf(String xml) {
        return dyperSelf(xml, "CPU");
    }

    /** Self samples per method from a CPU view of the monitor's: the leaf frame of each path. */
    static Map<String, Long> dyperSelf(String xml, String name) {
        int view = xml.indexOf("<VIEW NAME='" + name + "'");
        int end = xml.indexOf("</VIEW>", view);
        Map<String, Long> self = new HashMap<>();
        if (view < 0) {
            return self;
        }
        String cpu = xml.substring(view, end);
        int thread = cpu.indexOf("<THREAD ");
        if (thread > 0) {
            cpu = cpu.substring(0, thread);
        }
        Matcher m = Pattern.compile("<PATH WEIGHT='(\\d+)'>([^<]*)</PATH>").matcher(cpu);
        while (m.find()) {
            String path = m.group(2).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
            self.merge(path.substring(path.lastIndexOf(';') + 1), Long.parseLong(m.group(1)), Long::sum);
        }
        return self;
    }

    /** Self samples per method from async-profiler's collapsed stacks: the top Java frame of each stack. */
    static Map<String, Long> asyncProfilerSelf(List<String> lines) {
        Map<String, Long> self = new HashMap<>();
        for (String line : lines) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            String[] frames = line.substring(0, space).split(";");
            // the first frame names the thread; the monitor's own threads are left out, as the monitor leaves them
            if (frames[0].startsWith("[dyper-monitor-") || frames[0].startsWith("[JFR ")) {
                continue;
            }
            for (int i = frames.length - 1; i >= 0; i--) {
                Matcher j = Pattern.compile("^(.*)_\\[(j|i|0|1)\\]$").matcher(frames[i]);
                if (j.matches()) {
                    String name = j.group(1).replace('/', '.');
                    int lambda = name.indexOf("$$Lambda");
                    if (lambda > 0) {
                        name = name.substring(0, lambda + 8) + name.substring(name.lastIndexOf('.'));
                    }
                    self.merge(name, Long.parseLong(line.substring(space + 1).trim()), Long::sum);
                    break;
                }
            }
        }
        return self;
    }

    private static List<Map.Entry<String, Long>> top(Map<String, Long> self) {
        List<Map.Entry<String, Long>> list = new ArrayList<>(self.entrySet());
        list.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return list.subList(0, Math.min(TOP, list.size()));
    }

    private static String table(String workload, Map<String, Map<String, Long>> byProfiler) {
        StringBuilder t = new StringBuilder("#### " + workload + "\n\n| rank |");
        List<String> names = new ArrayList<>(byProfiler.keySet());
        for (String n : names) {
            t.append(' ').append(n).append(" |");
        }
        t.append("\n|---:|").append("---|".repeat(names.size())).append('\n');
        List<List<Map.Entry<String, Long>>> tops = new ArrayList<>();
        List<Long> totals = new ArrayList<>();
        for (String n : names) {
            tops.add(top(byProfiler.get(n)));
            totals.add(Math.max(1, byProfiler.get(n).values().stream().mapToLong(Long::longValue).sum()));
        }
        for (int rank = 0; rank < TOP; rank++) {
            t.append("| ").append(rank + 1).append(" |");
            for (int p = 0; p < names.size(); p++) {
                List<Map.Entry<String, Long>> top = tops.get(p);
                if (rank < top.size()) {
                    t.append(String.format(Locale.ROOT, " `%s` %.1f %% |", simple(top.get(rank).getKey()),
                            100.0 * top.get(rank).getValue() / totals.get(p)));
                } else {
                    t.append(" |");
                }
            }
            t.append('\n');
        }
        t.append("\nTop 5 in common with async-profiler in the same run:");
        for (int p = 0; p + 1 < names.size(); p += 2) {
            List<String> ref = tops.get(p + 1).stream().map(Map.Entry::getKey).toList();
            long common = tops.get(p).stream().filter(e -> ref.contains(e.getKey())).count();
            t.append(' ').append(names.get(p)).append(' ').append(common).append('/').append(TOP)
                    .append(String.format(Locale.ROOT, ", %.0f %% of async-profiler's samples",
                            100.0 * totals.get(p) / totals.get(p + 1)))
                    .append(p + 2 < names.size() ? ";" : ".");
        }
        t.append(" Samples:");
        for (int p = 0; p < names.size(); p++) {
            t.append(' ').append(names.get(p).trim()).append(' ').append(totals.get(p))
                    .append(p + 1 < names.size() ? "," : ".\n\n");
        }
        return t.toString();
    }

    /** {@code org.h2.mvstore.Page.binarySearch} as {@code Page.binarySearch}. */
    private static String simple(String method) {
        int dot = method.lastIndexOf('.');
        int cls = dot <= 0 ? -1 : method.lastIndexOf('.', dot - 1);
        return cls < 0 ? method : method.substring(cls + 1);
    }
}
