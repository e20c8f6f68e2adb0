package org.dyper.cli.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.CliCommand;
import org.dyper.cli.ExitCode;
import org.dyper.runtime.report.BadReportException;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;

/**
 * {@code dyper report}: turns XML reports (a file written with {@code -Ddyper.report.xml}, the output of
 * {@code dyper ctl --xml PID REPORT}, or a running process's monitor) into one self-contained HTML page, collapsed
 * stacks, or a differential page. The rendering is the runtime's ({@link HtmlReport}), shared with the exit hook.
 */
public final class ReportCommand implements CliCommand {
    public static final String PURPOSE = "turn XML reports into a self-contained HTML page with flame graphs and tables";
    public static final String USAGE_LINE = "dyper report [--out FILE] [--title TEXT] REPORT.xml | --pid PID [--dir DIR]"
            + " | --diff BEFORE.xml AFTER.xml | --collapsed [--view NAME] [--thread ID|NAME] REPORT.xml";
    public static final String DETAILS = """
            REPORT.xml is a file written with -Ddyper.report.xml (root DYPER_REPORT), the output of
            dyper ctl --xml PID REPORT (DYPER_REPLY or MONITOR_REPORT), or - for standard input. --pid asks a
            running process's DYPER monitor for its REPORT instead. The page opens without any network: the
            summary, flame graphs of the monitor's sampled stacks (CPU, WALL, LOCK and ALLOC views; click to
            zoom, search, callers view) and sortable tables of the exact measurements, estimates marked as such.
            Without --out the page goes beside the input as NAME.html (dyper-PID.html for --pid,
            AFTER.diff.html for --diff); --collapsed writes to standard output. Files are written to a
            temporary file and renamed, so a failure never leaves half a file.
            The same page is written at the end of a program run with -Ddyper.report.html=FILE, or with
            dyper run --html FILE.
            Exit codes: 0 ok, 2 usage, 3 the report breaks a rule (each problem as file:line:col: ELEMENT:
            message), 5 file error, 6 the monitor answered ERROR, 7 no such monitored process.""";

    private final PrintStream out;
    private final PrintStream err;

    public ReportCommand(CliCommand.Context context) {
        this.out = context.out();
        this.err = context.err();
    }

    @Override
    public String name() {
        return "report";
    }

    @Override
    public String purpose() {
        return PURPOSE;
    }

    @Override
    public String usage() {
        return USAGE_LINE;
    }

    @Override
    public String details() {
        return DETAILS;
    }

    @Override
    public boolean takesArguments() {
        return true;
    }

    @Override
    public int run(CommandLine line, List<String> javaArgs) {
        return run(line);
    }

    /** The command's options. */
    @Override
    public Options options() {
        return new Options()
                .addOption(Option.builder("o").longOpt("out").hasArg().argName("FILE")
                        .desc("where to write (default: beside the input, see below; --collapsed: stdout)").build())
                .addOption(Option.builder().longOpt("title").hasArg().argName("TEXT")
                        .desc("the page's title").build())
                .addOption(Option.builder().longOpt("pid").hasArg().argName("PID")
                        .desc("take the REPORT of this running monitored process (see dyper ctl who)").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("with --pid: registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
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

    /** A mistake in the command line: exit 2. */
    static final class Usage extends Exception {
        Usage(String message) {
            super(message, null, false, false);
        }
    }

    /** A failure with its exit code. */
    static final class Failure extends Exception {
        final int code;

        Failure(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** Runs the command on a parsed line; returns the exit code. */
    public int run(CommandLine line) {
        try {
            return execute(line);
        } catch (Usage e) {
            err.println("dyper: error: report: " + e.getMessage() + " (see dyper report --help)");
            return ExitCode.USAGE;
        } catch (BadReportException e) {
            for (String p : e.problems()) {
                err.println("dyper: error: " + p);
            }
            err.println("dyper: " + e.problems().size() + " problem(s); nothing was written");
            return ExitCode.INVALID_INPUT;
        } catch (Failure e) {
            err.println("dyper: error: " + e.getMessage());
            return e.code;
        } catch (NoSuchFileException e) {
            err.println("dyper: error: " + e.getFile() + ": no such file");
            return ExitCode.IO_ERROR;
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return ExitCode.IO_ERROR;
        }
    }

    private int execute(CommandLine line) throws Usage, BadReportException, Failure, IOException {
        List<String> args = line.getArgList();
        boolean diff = line.hasOption("diff");
        boolean collapsed = line.hasOption("collapsed");
        boolean pid = line.hasOption("pid");
        if (diff && collapsed) {
            throw new Usage("--diff and --collapsed do not go together");
        }
        if (!collapsed && (line.hasOption("view") || line.hasOption("thread"))) {
            throw new Usage("--" + (line.hasOption("view") ? "view" : "thread") + " goes with --collapsed");
        }
        if (line.hasOption("dir") && !pid) {
            throw new Usage("--dir goes with --pid");
        }
        if (pid && diff) {
            throw new Usage("--diff compares two files; take them with dyper ctl --xml PID REPORT > FILE");
        }
        int wanted = diff ? 2 : pid ? 0 : 1;
        if (args.size() != wanted) {
            throw new Usage(diff ? "--diff takes two reports, BEFORE.xml AFTER.xml; got " + args.size()
                    : pid ? "--pid takes no report file; got '" + args.get(0) + "'"
                    : args.isEmpty() ? "give a report file (REPORT.xml, or - for standard input), or --pid PID"
                    : "one report at a time (got " + args.size() + "; --diff compares two)");
        }
        Path outFile = line.hasOption("out") ? Path.of(line.getOptionValue("out")) : null;
        if (outFile == null && !collapsed && args.contains("-")) {
            throw new Usage("reading standard input: say where to write with --out FILE");
        }
        for (String input : args) {
            if (outFile != null && !input.equals("-") && Files.exists(outFile) && Files.exists(Path.of(input))
                    && Files.isSameFile(outFile, Path.of(input))) {
                throw new Usage("--out " + outFile + " is an input report: write to another file");
            }
        }
        Report report;
        if (pid) {
            report = Live.report(parsePid(line.getOptionValue("pid")), line.getOptionValue("dir"));
        } else {
            report = read(args.get(diff ? 1 : 0));
        }
        if (collapsed) {
            String view = line.hasOption("view") ? line.getOptionValue("view") : "CPU";
            String text;
            try {
                text = HtmlReport.collapsed(report, view, line.getOptionValue("thread"));
            } catch (IllegalArgumentException e) {
                throw new Failure(ExitCode.INVALID_INPUT, e.getMessage());
            }
            if (outFile == null) {
                out.print(text);
                out.flush();
            } else {
                HtmlReport.write(outFile, text);
                out.println("dyper: wrote " + outFile + " (" + text.lines().count() + " stacks of the " + view
                        .toUpperCase(java.util.Locale.ROOT) + " view)");
            }
            return ExitCode.OK;
        }
        String html;
        Path target;
        if (diff) {
            Report before = read(args.get(0));
            String title = line.hasOption("title") ? line.getOptionValue("title")
                    : "Dyper diff: " + before.label() + " → " + report.label();
            html = HtmlReport.diff(before, report, title);
            target = outFile != null ? outFile : beside(args.get(1), ".diff.html");
        } else {
            String title = line.hasOption("title") ? line.getOptionValue("title") : "Dyper report: " + report.label();
            html = HtmlReport.page(report, title);
            target = outFile != null ? outFile
                    : pid ? Path.of("dyper-" + line.getOptionValue("pid").trim() + ".html") : beside(args.get(0), ".html");
        }
        HtmlReport.write(target, html);
        out.println("dyper: wrote " + target + " (" + describe(report) + ")");
        return ExitCode.OK;
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
        String base = name.toLowerCase(java.util.Locale.ROOT).endsWith(".xml") ? name.substring(0, name.length() - 4)
                : name;
        return p.resolveSibling(base + suffix);
    }

    /** A report file, or standard input for {@code -}. */
    private static Report read(String arg) throws IOException, BadReportException, Failure {
        if (arg.equals("-")) {
            byte[] bytes = System.in.readAllBytes();
            if (bytes.length == 0) {
                throw new Failure(ExitCode.IO_ERROR, "standard input: nothing arrived");
            }
            return HtmlReport.read("standard input", new java.io.ByteArrayInputStream(bytes));
        }
        Path file = Path.of(arg);
        if (Files.isDirectory(file)) {
            throw new Failure(ExitCode.IO_ERROR, arg + ": is a folder, not a report file");
        }
        if (!Files.exists(file)) {
            throw new Failure(ExitCode.IO_ERROR, arg + ": no such file");
        }
        return HtmlReport.read(file, arg);
    }

    private static long parsePid(String s) throws Usage {
        try {
            long pid = Long.parseLong(s.trim());
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new Usage("--pid '" + s + "' is not a process id (try dyper ctl who)");
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
