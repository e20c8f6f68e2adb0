package org.dyper.cli.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.CliCommand;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.UsageError;
import org.dyper.cli.fleet.Carrier;
import org.dyper.cli.fleet.NatsOptions;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.report.BadReportException;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;

/**
 * {@code dyper report}: turns XML reports (a file written with {@code -Ddyper.report.xml}, the output of
 * {@code dyper ctl --xml PID REPORT}, or a running process's monitor) into one self-contained HTML page, collapsed
 * stacks, or a differential page. The rendering is the runtime's ({@link HtmlReport}), shared with the exit hook.
 */
public final class ReportCommand implements CliCommand<ReportCommand.Parsed> {
    public static final String PURPOSE = "turn XML reports into a self-contained HTML page with flame graphs and tables";
    public static final String USAGE_LINE = "dyper report [--out FILE] [--title TEXT] REPORT.xml | RECORDING.jfr"
            + " | --pid PID [--dir DIR] [--heap [--top N]]"
            + " | --all [--main CLASS] [--dir DIR | --nats URL ...] [--xml FILE] | --diff BEFORE.xml AFTER.xml"
            + " | --collapsed [--view NAME] [--thread ID|NAME] REPORT.xml";
    public static final String DETAILS = """
            REPORT.xml is a file written with -Ddyper.report.xml (root DYPER_REPORT), the output of
            dyper ctl --xml PID REPORT (DYPER_REPLY or MONITOR_REPORT), or - for standard input; or a JFR
            recording (dyper run --jfr, docs/events.md): flame graphs from the JDK's samples (CPU, ALLOC,
            LOCK), the exact tables from the last dyper.Timing/Count/Values, and a timeline of the
            dyper.MethodTrace events. --pid asks a
            running process's DYPER monitor for its REPORT instead; --heap adds its heap (a dump of its live
            objects, read here and deleted: per class and the largest retainers, top N, as dyper ctl PID heap).
            --all asks every monitored JVM (of main class --main CLASS) at once and makes ONE page of them: a flame graph merged over the JVMs (the
            Thread choice shows each JVM's own), the exact figures added up and per JVM, and the JVMs that did
            not answer within --timeout MS named (exit 7 then, the page is written all the same); --xml FILE
            also writes that merged report as XML; with --nats URL (and --user/--password, --token or
            --creds) the JVMs are those a NATS server reaches (docs/fleet.md). The page opens without any
            network: the
            summary, flame graphs of the monitor's sampled stacks (CPU, WALL, LOCK and ALLOC views; click to
            zoom, search, callers view) and sortable tables of the exact measurements, estimates marked as such.
            Without --out the page goes beside the input as NAME.html (dyper-PID.html for --pid,
            dyper-fleet.html for --all,
            AFTER.diff.html for --diff); --collapsed writes to standard output. Files are written to a
            temporary file and renamed, so a failure never leaves half a file.
            The same page is written at the end of a program run with -Ddyper.report.html=FILE, or with
            dyper run --html FILE.
            Exit codes: 0 ok, 2 usage, 3 the report breaks a rule (each problem as file:line:col: ELEMENT:
            message), 5 file error, 6 the monitor answered ERROR, 7 no such monitored process.""";

    /**
     * The options, parsed once and checked: the report files ({@code -} for standard input; two with {@code diff}),
     * or the running process {@code pid} (0: none) in the registry folder {@code dir} (null: the default); where to
     * write ({@code out}, null: beside the input or standard output), the page's {@code title} (or null), and for
     * {@code collapsed} the stacks {@code view} and {@code thread} (or null).
     */
    public record Parsed(List<String> inputs, long pid, String dir, boolean diff, boolean collapsed, Path out,
            String title, String view, String thread, AllJvms all, int heap) {
        static Parsed of(CommandLine line) throws UsageError, IOException {
            try {
                return check(line);
            } catch (UsageError e) {
                throw new UsageError(e.getMessage() + " (see dyper report --help)");
            }
        }

        private static Parsed check(CommandLine line) throws UsageError, IOException {
            List<String> args = line.getArgList();
            boolean diff = line.hasOption("diff");
            boolean collapsed = line.hasOption("collapsed");
            boolean pid = line.hasOption("pid");
            if (diff && collapsed) {
                throw new UsageError("--diff and --collapsed do not go together");
            }
            if (!collapsed && (line.hasOption("view") || line.hasOption("thread"))) {
                throw new UsageError("--" + (line.hasOption("view") ? "view" : "thread") + " goes with --collapsed");
            }
            boolean all = line.hasOption("all");
            if (line.hasOption("dir") && !pid && !all) {
                throw new UsageError("--dir goes with --pid or --all");
            }
            for (String o : List.of("main", "timeout", "xml", "nats", "user", "password", "token", "creds")) {
                if (line.hasOption(o) && !all) {
                    throw new UsageError("--" + o + " goes with --all");
                }
            }
            if (all && (pid || diff)) {
                throw new UsageError("--all makes one page of every JVM; it does not go with --" + (pid ? "pid" : "diff"));
            }
            if (pid && diff) {
                throw new UsageError("--diff compares two files; take them with dyper ctl --xml PID REPORT > FILE");
            }
            if ((line.hasOption("heap") || line.hasOption("top")) && (!pid || collapsed)) {
                throw new UsageError("--" + (line.hasOption("heap") ? "heap" : "top") + " goes with --pid (the heap "
                        + "of a running program, on its page)");
            }
            if (line.hasOption("top") && !line.hasOption("heap")) {
                throw new UsageError("--top N goes with --heap");
            }
            int heap = line.hasOption("heap") ? org.dyper.cli.heap.LiveHeap.top(line.getOptionValue("top")) : 0;
            int wanted = diff ? 2 : pid || all ? 0 : 1;
            if (args.size() != wanted) {
                throw new UsageError(diff ? "--diff takes two reports, BEFORE.xml AFTER.xml; got " + args.size()
                        : pid ? "--pid takes no report file; got '" + args.get(0) + "'"
                        : all ? "--all takes no report file; got '" + args.get(0) + "'"
                        : args.isEmpty() ? "give a report file (REPORT.xml, or - for standard input), or --pid PID"
                        : "one report at a time (got " + args.size() + "; --diff compares two)");
            }
            Path outFile = line.hasOption("out") ? Path.of(line.getOptionValue("out")) : null;
            if (outFile == null && !collapsed && args.contains("-")) {
                throw new UsageError("reading standard input: say where to write with --out FILE");
            }
            for (String input : args) {
                if (outFile != null && !input.equals("-") && Files.exists(outFile) && Files.exists(Path.of(input))
                        && Files.isSameFile(outFile, Path.of(input))) {
                    throw new UsageError("--out " + outFile + " is an input report: write to another file");
                }
            }
            return new Parsed(List.copyOf(args), pid ? parsePid(line.getOptionValue("pid")) : 0,
                    line.getOptionValue("dir"), diff, collapsed, outFile, line.getOptionValue("title"),
                    line.hasOption("view") ? line.getOptionValue("view") : "CPU", line.getOptionValue("thread"),
                    all ? AllJvms.of(line) : null, heap);
        }
    }

    /**
     * {@code --all}: the JVMs the {@code carrier} reaches (of main class {@code main}, or all), each REPORT waited for
     * until {@code deadline}; {@code xml}: where the merged XML goes too (or null).
     */
    public record AllJvms(Carrier carrier, String main, Duration deadline, Path xml) {
        /** How long REPORT waits for the JVMs unless --timeout says otherwise. */
        static final Duration DEADLINE = Duration.ofSeconds(60);

        static AllJvms of(CommandLine line) throws UsageError {
            String main = line.getOptionValue("main");
            if (main != null && main.isBlank()) {
                throw new UsageError("--main needs a class name");
            }
            Duration deadline = DEADLINE;
            if (line.hasOption("timeout")) {
                String t = line.getOptionValue("timeout");
                long ms = -1;
                try {
                    ms = Long.parseLong(t.trim());
                } catch (NumberFormatException ignored) {
                    // below
                }
                if (ms <= 0) {
                    throw new UsageError("--timeout takes a positive number of milliseconds, not '" + t + "'");
                }
                deadline = Duration.ofMillis(ms);
            }
            if (line.hasOption("nats") && line.hasOption("dir")) {
                throw new UsageError("--dir names this machine's registry, --nats a broker: give one");
            }
            Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
            return new AllJvms(line.hasOption("nats") ? NatsOptions.carrier(line) : Carrier.local(dir), main, deadline,
                    line.hasOption("xml") ? Path.of(line.getOptionValue("xml")) : null);
        }
    }

    @Override
    public Help help() {
        return new Help("report", PURPOSE, USAGE_LINE, options(), DETAILS, true);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
        return Parsed.of(line);
    }

    /** The command's options. */
    private static Options options() {
        return NatsOptions.add(new Options())
                .addOption(Option.builder("o").longOpt("out").hasArg().argName("FILE")
                        .desc("where to write (default: beside the input, see below; --collapsed: stdout)").build())
                .addOption(Option.builder().longOpt("title").hasArg().argName("TEXT")
                        .desc("the page's title").build())
                .addOption(Option.builder().longOpt("pid").hasArg().argName("PID")
                        .desc("take the REPORT of this running monitored process (see dyper ctl who)").build())
                .addOption(Option.builder().longOpt("heap")
                        .desc("with --pid: add the program's heap (per class, largest retainers; docs/cli.md)")
                        .build())
                .addOption(Option.builder().longOpt("top").hasArg().argName("N")
                        .desc("with --heap: how many classes and retainers (default 20)").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("with --pid or --all: registry folder (default: dyper.monitor.dir, else ~/.dyper/run)")
                        .build())
                .addOption(Option.builder().longOpt("all")
                        .desc("one page of every monitored JVM: merged flame graph, exact figures summed and per JVM")
                        .build())
                .addOption(Option.builder().longOpt("main").hasArg().argName("CLASS")
                        .desc("with --all: only the JVMs of this main class (whole or simple name)").build())
                .addOption(Option.builder().longOpt("timeout").hasArg().argName("MS")
                        .desc("with --all: how long to wait for the JVMs' reports (default 60000)").build())
                .addOption(Option.builder().longOpt("xml").hasArg().argName("FILE")
                        .desc("with --all: also write the merged report as XML").build())
                .addOption(Option.builder().longOpt("diff")
                        .desc("compare two reports: a differential flame graph (red: a larger share after, blue: "
                                + "smaller) and the exact figures side by side").build())
                .addOption(Option.builder().longOpt("collapsed")
                        .desc("write collapsed stacks (frame;frame;... weight per line) for FlameGraph or "
                                + "speedscope instead of HTML").build())
                .addOption(Option.builder().longOpt("view").hasArg().argName("NAME")
                        .desc("with --collapsed: the stacks view, CPU (default), WALL, LOCK or ALLOC").build())
                .addOption(Option.builder().longOpt("thread").hasArg().argName("ID|NAME")
                        .desc("with --collapsed: only this thread's stacks (when the report has them per thread)")
                        .build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    /** Runs the command with its parsed options; returns the exit code. */
    @Override
    public int run(Parsed p, Context context) throws CommandFailure, IOException {
        try {
            return execute(p, context.out(), context.err());
        } catch (BadReportException e) {
            for (String problem : e.problems()) {
                context.err().println("dyper: error: " + problem);
            }
            context.err().println("dyper: " + e.problems().size() + " problem(s); nothing was written");
            return ExitCode.INVALID_INPUT;
        }
    }

    private static int execute(Parsed p, PrintStream out, PrintStream err) throws BadReportException, CommandFailure, IOException {
        List<String> args = p.inputs();
        if (p.all() != null && p.all().carrier().warning() != null) {
            err.println("dyper: warning: " + p.all().carrier().warning());
        }
        Live.Merged merged = p.all() == null ? null : Live.fleet(p.all());
        Report report = merged != null ? merged.report() : p.pid() != 0 ? Live.report(p.pid(), p.dir(), p.heap())
                : read(args.get(p.diff() ? 1 : 0));
        if (merged != null) {
            merged.missing().forEach(m -> err.println("dyper: warning: " + m));
        }
        if (merged != null && p.all().xml() != null) {
            HtmlReport.write(p.all().xml(), merged.xml());
            (p.collapsed() && p.out() == null ? err : out).println("dyper: wrote " + p.all().xml() + " (the merged report of " + Carrier.jvms(merged.answered())
                    + ")");
        }
        if (p.collapsed()) {
            String text;
            try {
                text = HtmlReport.collapsed(report, p.view(), p.thread());
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCode.INVALID_INPUT, e.getMessage());
            }
            if (p.out() == null) {
                out.print(text);
                out.flush();
                return merged == null ? ExitCode.OK : merged.exitCode();
            } else {
                HtmlReport.write(p.out(), text);
                out.println("dyper: wrote " + p.out() + " (" + text.lines().count() + " stacks of the " + p.view()
                        .toUpperCase(java.util.Locale.ROOT) + " view)");
            }
            return merged == null ? ExitCode.OK : merged.exitCode();
        }
        String html;
        Path target;
        if (p.diff()) {
            Report before = read(args.get(0));
            String title = p.title() != null ? p.title() : "Dyper diff: " + before.label() + " → " + report.label();
            html = HtmlReport.diff(before, report, title);
            target = p.out() != null ? p.out() : beside(args.get(1), ".diff.html");
        } else {
            String title = p.title() != null ? p.title() : "Dyper report: " + report.label();
            html = HtmlReport.page(report, title);
            target = p.out() != null ? p.out()
                    : merged != null ? Path.of("dyper-fleet.html")
                    : p.pid() != 0 ? Path.of("dyper-" + p.pid() + ".html") : beside(args.get(0), ".html");
        }
        HtmlReport.write(target, html);
        out.println("dyper: wrote " + target + " (" + describe(report) + ")");
        return merged == null ? ExitCode.OK : merged.exitCode();
    }

    private static String describe(Report r) {
        if (!r.hasStacks()) {
            return "no sampled stacks in " + r.label();
        }
        return String.join(", ", r.views()) + " stacks, " + r.stackNodes() + " nodes";
    }

    private static Path beside(String input, String suffix) {
        Path p = Path.of(input);
        String name = p.getFileName().toString();
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        String base = lower.endsWith(".xml") || lower.endsWith(".jfr") ? name.substring(0, name.length() - 4) : name;
        return p.resolveSibling(base + suffix);
    }

    /** A report file, or standard input for {@code -}. */
    private static Report read(String arg) throws IOException, BadReportException, CommandFailure {
        if (arg.equals("-")) {
            byte[] bytes = System.in.readAllBytes();
            if (bytes.length == 0) {
                throw new CommandFailure(ExitCode.IO_ERROR, "standard input: nothing arrived");
            }
            return HtmlReport.read("standard input", new java.io.ByteArrayInputStream(bytes));
        }
        Path file = Path.of(arg);
        if (Files.isDirectory(file)) {
            throw new CommandFailure(ExitCode.IO_ERROR, arg + ": is a folder, not a report file");
        }
        if (!Files.exists(file)) {
            throw new CommandFailure(ExitCode.IO_ERROR, arg + ": no such file");
        }
        if (JfrReport.isRecording(file)) {
            String xml;
            try {
                xml = JfrReport.xml(file);
            } catch (IOException | RuntimeException e) {
                throw new CommandFailure(ExitCode.INVALID_INPUT, arg + ": not a readable JFR recording ("
                        + e.getMessage() + ")");
            }
            return HtmlReport.read(arg, xml);
        }
        return HtmlReport.read(file, arg);
    }

    private static long parsePid(String s) throws UsageError {
        try {
            long pid = Long.parseLong(s.trim());
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new UsageError("--pid '" + s + "' is not a process id (try dyper ctl who)");
    }

    /**
     * The java command of {@code dyper run} with {@code -Ddyper.report.html=FILE} added before the program's own
     * arguments, so the program's runtime writes the page at exit (nothing else is put on its class path).
     */
    public static List<String> withHtml(List<String> command, String file) {
        if (file == null) {
            return command;
        }
        List<String> c = new java.util.ArrayList<>(command);
        c.add(1, "-Ddyper.report.html=" + Path.of(file).toAbsolutePath());
        return c;
    }
}
