package org.dyper.cli.whatif;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.CliCommand;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.LivePatching;
import org.dyper.cli.UsageError;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.runtime.io.AtomicWrite;
import org.dyper.runtime.monitor.MonitorEntry;

/**
 * {@code dyper whatif PID --progress SPEC}: causal profiling of a running JVM by virtual speed-ups (docs/whatif.md).
 * Patches delay points, candidates and the progress point in through the monitor, runs randomised experiments, takes
 * everything out again (also on Ctrl-C), and prints the causal profile.
 */
public final class WhatIfCommand implements CliCommand<WhatIfCommand.Parsed> {
    public static final String USAGE = "dyper whatif PID --progress CLASS.METHOD|begin=CLASS.METHOD,end=CLASS.METHOD"
            + " | --latency CLASS.METHOD [--candidates auto|LIST] [--speedups LIST] [--duration D] [--window D]"
            + " [--xml FILE] [--html FILE]";

    /**
     * The options, checked: the process and its registry folder, the progress point, the candidates (empty: auto,
     * the {@code top} hottest), extra delay points, the speed-ups in % (0 always among them), the run's
     * {@code durationMillis}, each window's, the sampling time before auto candidates, the precision that ends the
     * run early (half-width of every interval, a fraction; 0: never), the random seed, the XML and HTML outputs (or null).
     * A throughput progress point is {@code progress} (begin and end null); a latency point has {@code begin} and
     * {@code end} (the same method: each call is a unit) and {@code progress} is the end method.
     */
    public record Parsed(long pid, Path registry, Path cache, String progress, String begin, String end,
            List<String> candidates, int top, List<String> delayPoints, List<Integer> speedups, long durationMillis,
            long windowMillis, long sampleMillis, double precision, long seed, boolean loopHeads, Path xml, Path html,
            boolean verbose) {
        /** Whether the progress point measures latency (a unit's duration) rather than throughput. */
        public boolean latency() {
            return end != null;
        }
    }

    @Override
    public Help help() {
        return new Help("whatif", "causal profiling of a running JVM: what if this method were faster?", USAGE,
                new Options()
                        .addOption(Option.builder().longOpt("progress").hasArg().argName("SPEC")
                                .desc("the progress point: CLASS.METHOD, each completed call is one unit of work "
                                        + "(throughput); or begin=CLASS.METHOD,end=CLASS.METHOD, a unit from the "
                                        + "begin's entry to the end's exit (latency; timed on one thread, or by Little's "
                                        + "law when begin and end happen on different threads)").build())
                        .addOption(Option.builder().longOpt("latency").hasArg().argName("CLASS.METHOD")
                                .desc("a latency progress point: each call of the method is one unit, its duration "
                                        + "the latency (instead of --progress)").build())
                        .addOption(Option.builder().longOpt("no-loop-heads")
                                .desc("no delay points at the loop heads of the delay-point methods").build())
                        .addOption(Option.builder().longOpt("candidates").hasArg().argName("auto|LIST")
                                .desc("methods to speed up virtually, CLASS.METHOD comma-separated; auto (default): "
                                        + "the hottest by CPU samples").build())
                        .addOption(Option.builder().longOpt("top").hasArg().argName("N")
                                .desc("auto candidates: how many (default 5)").build())
                        .addOption(Option.builder().longOpt("delay-points").hasArg().argName("LIST")
                                .desc("more methods whose entries and loop heads are delay points (the hottest 12 "
                                        + "by samples are always)").build())
                        .addOption(Option.builder().longOpt("speedups").hasArg().argName("LIST")
                                .desc("virtual speed-ups in %, 0-100 (default 0,10,20,30,40,50; 0 is the "
                                        + "baseline and always run)").build())
                        .addOption(Option.builder().longOpt("duration").hasArg().argName("D")
                                .desc("how long to experiment: 90s, 2m, 500ms, plain seconds (default 60s)").build())
                        .addOption(Option.builder().longOpt("window").hasArg().argName("D")
                                .desc("one experiment's length (default 250ms)").build())
                        .addOption(Option.builder().longOpt("sample").hasArg().argName("D")
                                .desc("auto: sample this long before choosing (default 2s; 0: use the samples the "
                                        + "monitor has)").build())
                        .addOption(Option.builder().longOpt("precision").hasArg().argName("PP")
                                .desc("stop early once every 95 % interval is within +-PP percentage points "
                                        + "(default 0: run the whole duration)").build())
                        .addOption(Option.builder().longOpt("seed").hasArg().argName("N")
                                .desc("random seed of the experiment order and the bootstrap (default 1)").build())
                        .addOption(Option.builder().longOpt("xml").hasArg().argName("FILE")
                                .desc("also write the profile as XML").build())
                        .addOption(Option.builder().longOpt("html").hasArg().argName("FILE")
                                .desc("also write the profile as an HTML page with a plot per candidate").build())
                        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                                .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                        .addOption(Option.builder().longOpt("cache").hasArg().argName("DIR")
                                .desc("the dyper cache (patched class files)").build())
                        .addOption(Option.builder().longOpt("verbose").desc("print every patching warning").build())
                        .addOption(Option.builder("h").longOpt("help").desc("show this help").build()),
                """
                        Each experiment picks a candidate and a speed-up s for one window: while a thread runs the
                        candidate, s x its time is added to a global delay, and every other thread sleeps what it owes
                        at its next delay point (the entry or a loop head of a patched method, a lock release, a
                        hand-off to another thread); a thread that was blocked is credited with what the thread that
                        woke it had paid (Coz's rule). The progress rate,
                        corrected for the inserted delay, predicts the program's speed-up if the candidate really were
                        s % faster; for a latency point, each unit's duration less the delay inserted while it ran
                        (or, when begin and end happen on different threads, the mean units in flight over the
                        throughput: Little's law) predicts the change of the mean latency. The process
                        gets the monitor (attached if it has none); the model 'dyper-whatif' goes in through run-time
                        patching and comes out at the end, and on Ctrl-C. Candidates are ranked by the predicted effect
                        at 20 %. Exit codes: 0 ok, 2 usage, 5 file error, 6 the monitor answered ERROR, 7 no such
                        monitored process, 8 attach failed.""", true);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError {
        List<String> args = line.getArgList();
        if (args.size() != 1) {
            throw new UsageError(args.isEmpty() ? "give the process id: " + USAGE : "one process at a time, got "
                    + String.join(" ", args));
        }
        long pid;
        try {
            pid = Long.parseLong(args.get(0));
        } catch (NumberFormatException e) {
            throw new UsageError("'" + args.get(0) + "' is not a process id");
        }
        if (line.hasOption("progress") == line.hasOption("latency")) {
            throw new UsageError(line.hasOption("progress") ? "--progress and --latency: one progress point at a time"
                    : "--progress CLASS.METHOD (or --latency CLASS.METHOD) is required: the method whose completed "
                    + "calls are the program's units of work");
        }
        String progress;
        String begin = null;
        String end = null;
        if (line.hasOption("latency")) {
            progress = method(line.getOptionValue("latency"), "--latency");
            begin = progress;
            end = progress;
        } else if (line.getOptionValue("progress").contains("=")) {
            String[] pair = pair(line.getOptionValue("progress"));
            begin = pair[0];
            end = pair[1];
            progress = end;
        } else {
            progress = method(line.getOptionValue("progress"), "--progress");
        }
        List<String> candidates = new ArrayList<>();
        String c = line.getOptionValue("candidates", "auto").trim();
        if (!c.equals("auto")) {
            for (String m : c.split(",")) {
                candidates.add(method(m, "--candidates"));
            }
        }
        List<String> delayPoints = new ArrayList<>();
        if (line.hasOption("delay-points")) {
            for (String m : line.getOptionValue("delay-points").split(",")) {
                delayPoints.add(method(m, "--delay-points"));
            }
        }
        Set<Integer> speedups = new LinkedHashSet<>();
        speedups.add(0);
        for (String s : line.getOptionValue("speedups", "0,10,20,30,40,50").split(",")) {
            int v = (int) number(s, "--speedups", 0, 100);
            speedups.add(v);
        }
        if (speedups.size() < 2) {
            throw new UsageError("--speedups needs a speed-up above 0");
        }
        Path registry = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
        Path cache = line.hasOption("cache") ? Path.of(line.getOptionValue("cache")) : context.cache();
        return new Parsed(pid, registry, cache, progress, begin, end, candidates,
                (int) number(line.getOptionValue("top", "5"), "--top", 1, 50), delayPoints,
                speedups.stream().sorted().toList(), millis(line.getOptionValue("duration", "60s"), "--duration"),
                millis(line.getOptionValue("window", "250ms"), "--window"),
                line.hasOption("sample") && millis0(line.getOptionValue("sample")) ? 0
                        : millis(line.getOptionValue("sample", "2s"), "--sample"),
                number(line.getOptionValue("precision", "0"), "--precision", 0, 100) / 100.0,
                number(line.getOptionValue("seed", "1"), "--seed", Long.MIN_VALUE, Long.MAX_VALUE),
                !line.hasOption("no-loop-heads"), line.hasOption("xml") ? Path.of(line.getOptionValue("xml")) : null,
                line.hasOption("html") ? Path.of(line.getOptionValue("html")) : null, line.hasOption("verbose"));
    }

    private static boolean millis0(String v) {
        return v.trim().equals("0");
    }

    /** The site name ({@code class.method(types)}) of the first of {@code ids}, else {@code spec}. */
    private static String siteName(Map<String, Integer> sites, List<Integer> ids, String spec) {
        return sites.entrySet().stream().filter(e -> ids.contains(e.getValue())).map(Map.Entry::getKey).findFirst()
                .orElse(spec);
    }

    /** {@code begin=CLASS.METHOD,end=CLASS.METHOD} (either order): the latency pair of --progress. */
    static String[] pair(String spec) throws UsageError {
        String begin = null;
        String end = null;
        // split at the comma that starts the next key, not at one inside a parameter list
        for (String part : spec.split(",(?=\\s*(begin|end)=)")) {
            String p = part.trim();
            if (p.startsWith("begin=") && begin == null) {
                begin = method(p.substring(6), "--progress begin");
            } else if (p.startsWith("end=") && end == null) {
                end = method(p.substring(4), "--progress end");
            } else {
                begin = null;
                break;
            }
        }
        if (begin == null || end == null) {
            throw new UsageError("--progress: '" + spec + "' is neither CLASS.METHOD nor begin=CLASS.METHOD,"
                    + "end=CLASS.METHOD (a latency unit from the begin's entry to the end's exit, on any threads)");
        }
        return new String[] {begin, end};
    }

    /** {@code Class.method} or {@code Class.method(types)}: a class and a method name. */
    static String method(String spec, String option) throws UsageError {
        String s = spec.trim();
        String plain = s.contains("(") ? s.substring(0, s.indexOf('(')) : s;
        int dot = plain.lastIndexOf('.');
        if (dot <= 0 || dot == plain.length() - 1 || plain.contains("*") || s.contains("(") && !s.endsWith(")")) {
            throw new UsageError(option + ": '" + spec + "' is not CLASS.METHOD (a class name, a dot, a method name;"
                    + " optionally its parameter types in parentheses)");
        }
        return s;
    }

    private static long number(String v, String option, long min, long max) throws UsageError {
        try {
            long n = Long.parseLong(v.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // the message below
        }
        throw new UsageError(option + ": '" + v + "' is not a whole number from " + min + " to " + max);
    }

    /** 90s, 2m, 500ms, or plain seconds; more than 0 (also dyper export's --interval). */
    public static long millis(String v, String option) throws UsageError {
        String s = v.trim().toLowerCase(Locale.ROOT);
        long factor = 1000;
        if (s.endsWith("ms")) {
            factor = 1;
            s = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            s = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            factor = 60_000;
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s);
            if (n > 0 && n <= 7L * 24 * 3600 * 1000 / factor) {
                return n * factor;
            }
        } catch (NumberFormatException ignored) {
            // the message below
        }
        throw new UsageError(option + ": '" + v + "' is not a duration (90s, 2m, 500ms, or seconds; above 0)");
    }

    /**
     * Attaches the monitor; a JVM that has only just started refuses agents until its live phase, and a busy one may
     * not answer the attach request in time: both are retried for 20 s.
     */
    private static MonitorEntry attach(Parsed o) throws CommandFailure, IOException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            try {
                return LivePatching.attach(o.registry(), o.pid(), null);
            } catch (CommandFailure f) {
                String m = String.valueOf(f.getMessage());
                if (!(m.contains("live phase") || m.contains("doesn't respond")) || System.nanoTime() > deadline) {
                    throw f;
                }
            }
            try {
                Thread.sleep(250); // the JVM is still starting: retrying with the deadline above
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommandFailure(ExitCode.ATTACH_FAILED, "interrupted while attaching to " + o.pid());
            }
        }
    }

    @Override
    public int run(Parsed o, Context context) throws CommandFailure, InvalidInputException, WeaveException,
            IOException {
        PrintStream out = context.out();
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(o.registry(), o.pid());
        } catch (IOException e) {
            out.println("dyper: whatif: process " + o.pid() + " has no monitor; attaching one");
            entry = attach(o);
        }
        Session session = new Session(o, entry, out, context.err());
        try {
            List<Session.Method> candidates = new ArrayList<>();
            List<Session.Method> hotByTotal = List.of();
            Session.Hot hot = null;
            if (o.candidates().isEmpty()) {
                hot = session.sample();
                // the leaves that burn the CPU, and the methods above them (a leaf shared by several callers says
                // less than its callers): half and half
                Set<String> seen = new java.util.HashSet<>();
                hot.bySelf().stream().limit((o.top() + 1) / 2).forEach(m -> {
                    if (seen.add(m.spec())) {
                        candidates.add(m);
                    }
                });
                for (Session.Method m : hot.byTotal()) {
                    if (candidates.size() >= o.top()) {
                        break;
                    }
                    if (seen.add(m.spec())) {
                        candidates.add(m);
                    }
                }
                if (candidates.isEmpty()) {
                    throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + o.pid() + ": no method of the "
                            + "program in the CPU samples yet; let it run longer (--sample) or name --candidates");
                }
            } else {
                for (String c : o.candidates()) {
                    candidates.add(Session.Method.of(c));
                }
            }
            if (hot != null) {
                hotByTotal = hot.byTotal().stream().limit(12).toList();
            }
            List<Session.Method> extra = new ArrayList<>(hotByTotal);
            for (String d : o.delayPoints()) {
                extra.add(Session.Method.of(d));
            }
            Session.Method progress = Session.Method.of(o.progress());
            Set<Session.Method> points = Session.union(candidates, extra);
            String model = Session.modelXml(points, progress,
                    o.begin() == null ? null : Session.Method.of(o.begin()),
                    o.end() == null ? null : Session.Method.of(o.end()));
            long t0 = System.nanoTime();
            Map<String, Integer> sites = session.insert(model, o.loopHeads() ? Session.byClass(points) : Map.of());
            List<String> names = new ArrayList<>();
            List<Integer> ids = new ArrayList<>();
            List<double[]> shares = new ArrayList<>();
            for (Session.Method c : candidates) {
                List<Integer> found = Session.ids(sites, c.spec());
                if (found.isEmpty()) {
                    context.err().println("dyper: warning: whatif: candidate " + c.spec() + " was not patched (no such "
                            + "method in a loaded or loadable class); left out");
                }
                for (Integer id : found) {
                    String name = sites.entrySet().stream().filter(e -> e.getValue().equals(id)).findFirst()
                            .orElseThrow().getKey();
                    names.add(name);
                    ids.add(id);
                    shares.add(new double[] {c.self(), c.total()});
                }
            }
            List<Integer> progressIds = Session.ids(sites, o.progress());
            if (progressIds.isEmpty()) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + o.pid() + ": the progress point "
                        + o.progress() + " was not patched (no such method); nothing to measure");
            }
            if (o.begin() != null && Session.ids(sites, o.begin()).isEmpty()) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + o.pid() + ": the latency begin "
                        + o.begin() + " was not patched (no such method); nothing to measure");
            }
            if (ids.isEmpty()) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + o.pid() + ": no candidate was patched");
            }
            out.printf(Locale.ROOT, "dyper: whatif: %d candidate(s), %d delay-point method(s) (%s) patched into process"
                    + " %d in %.1f s; experimenting for %.0f s%n", ids.size(), sites.size() - progressIds.size(),
                    !o.loopHeads() ? "no loop heads" : session.loopHeads() + " loop head(s) in "
                    + session.loopMethods().size() + " of them", o.pid(), (System.nanoTime() - t0) / 1e9,
                    o.durationMillis() / 1000.0);
            if (o.verbose()) {
                session.loopMethods().forEach(m -> out.println("dyper: whatif: loop heads in " + m));
            }
            String progressList = String.join(",", progressIds.stream().map(String::valueOf).toList());
            Session.Result result = session.experiments(ids, progressList);
            if (result.interrupted()) {
                // the shutdown hook took everything out and said so; the JVM is exiting
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "whatif: interrupted after " + result.windows()
                        .size() + " window(s); no profile");
            }
            String restored = session.cleanUp();
            session.removeHook();
            double[][] cpu = shares.toArray(double[][]::new);
            List<Integer> positive = o.speedups().stream().filter(s -> s > 0).toList();
            List<Profile.Row> rows = Profile.rows(names, cpu, positive, result.windows(), o.seed(), o.latency());
            Profile.Baseline base = Profile.baselineOf(result.windows());
            ProfileText.Progress progressName = new ProfileText.Progress(siteName(sites, progressIds, o.progress()),
                    o.begin() == null || o.begin().equals(o.end()) ? null
                            : siteName(sites, Session.ids(sites, o.begin()), o.begin()), o.latency(),
                    result.estimator());
            if (result.estimator() != null && result.windows().stream().mapToLong(Profile.Window::units).sum() == 0) {
                context.err().println("dyper: warning: whatif: no unit from " + o.begin() + " to " + o.end() + " ended while the "
                        + "experiments ran (the end method never returned, on any thread): the latency is not measured");
            }
            ProfileText.print(out, o.pid(), progressName, result, base, rows, positive);
            out.println("dyper: whatif: experiments stopped; model '" + Session.MODEL + "' removed from process "
                    + o.pid() + " (" + restored + " class(es) restored)");
            if (o.xml() != null) {
                AtomicWrite.write(o.xml(), ProfileText.xml(o.pid(), progressName, result, base, rows,
                        names));
                out.println("dyper: whatif: profile written to " + o.xml());
            }
            if (o.html() != null) {
                AtomicWrite.write(o.html(), ProfileHtml.page(o.pid(), progressName, result.windows().size(),
                        result.millis(), base, rows, positive));
                out.println("dyper: whatif: profile page written to " + o.html());
            }
            return ExitCode.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "interrupted");
        } finally {
            try {
                session.cleanUp();
            } finally {
                session.removeHook();
            }
        }
    }
}
