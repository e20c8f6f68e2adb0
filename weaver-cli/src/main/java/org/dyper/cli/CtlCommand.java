package org.dyper.cli;

import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.ReportText;

/**
 * {@code dyper ctl}: its help and options; {@link Ctl} does the work (and hands the run-time patching subcommands to
 * {@link CtlPatching}).
 */
final class CtlCommand implements CliCommand<CtlCommand.Parsed> {
    /** The options, parsed once: the registry folder and what to do. */
    record Parsed(Path dir, Request request) {
    }

    /** What {@code dyper ctl} is asked to do, with its checked arguments. */
    interface Request {
    }

    /** {@code who}: the monitored processes. */
    record Who() implements Request {
    }

    /** {@code attach PID}: load the monitor with the agent options {@code options} (or null). */
    record Attach(long pid, String options) implements Request {
    }

    /**
     * {@code PID COMMAND [DATA]}: one DYPER command ({@code data}: its XML, or null); the raw reply ({@code xml}) or
     * text rows fitting {@code width} columns (0: whole names).
     */
    record Send(long pid, String command, String data, boolean xml, int width) implements Request {
    }

    /**
     * {@code PID instrument --model FILE... [--inline]}: the model files, mode files, the cache root, and whether the
     * patched class files go inside the command.
     */
    record Instrument(long pid, List<Path> models, List<Path> modes, Path cache, boolean inline) implements Request {
    }

    /** {@code PID ask QUESTION... [--ask-file FILE]}: the questions, the cache root, and whether to send bytes inline. */
    record Ask(long pid, List<org.dyper.cli.ask.AskedQuestions.Asked> asks, Path cache, boolean inline)
            implements Request {
    }

    /** {@code PID answers}: the answers so far, as text fitting {@code width} columns or the raw {@code <ANSWERS>}. */
    record Answers(long pid, boolean xml, int width) implements Request {
    }

    /** {@code PID uninstrument [NAME]}: take out the model {@code name} (null: the active one). */
    record Uninstrument(long pid, String name) implements Request {
    }

    /** {@code PID instrumented}: what is patched, as text or the raw reply ({@code xml}). */
    record Instrumented(long pid, boolean xml) implements Request {
    }

    @Override
    public Help help() {
        return new Help("ctl", "list monitored processes, send them DYPER commands, attach the monitor to a running JVM",
                "dyper ctl [--dir DIR] who | dyper ctl [--xml | --wide | --width N] [--dir DIR] PID COMMAND [DATA] | "
                + "dyper ctl [--dir DIR] [--options OPTS] attach PID | "
                + "dyper ctl PID instrument --model FILE [--modes FILE] | dyper ctl PID uninstrument [NAME] | "
                + "dyper ctl [--xml] PID instrumented | dyper ctl PID ask QUESTION... | dyper ctl [--xml] PID answers | "
                + "dyper ctl [--xml] PID heap [--top N] | "
                + "dyper ctl --nats URL [--user U --password P | --token T | --creds F] who | "
                + "dyper ctl --nats URL ID COMMAND [DATA] | dyper ctl --nats URL --all [--main CLASS] COMMAND [DATA] | "
                + "dyper ctl --nats URL ID|--all ask QUESTION... | dyper ctl --nats URL ID|--all answers",
                options(),
                "who: one line per monitored process: pid, main class, start time (entries of dead processes are\n"
                + "removed). PID COMMAND [DATA]: any command of the DYPER language (PING, WHORU, REPORT,\n"
                + "SHOWSTACK, SET \"<VAR NAME='CHECKTIME' VALUE='7'/>\", GET, CLEAR, ...); DATA is the command's XML.\n"
                + "attach PID: load the monitor into a running JVM (same user) with the JDK attach API.\n"
                + CtlPatching.HELP
                + CtlAsking.HELP
                + CtlNats.HELP
                + EventsCommand.CTL_HELP
                + CtlHeap.HELP
                + ExitCode.SUMMARY.stripTrailing(), true);
    }

    private static Options options() {
        return CtlNats.addOptions(CtlPatching.addOptions(new Options()))
                .addOption(Option.builder().longOpt("xml").desc("print the raw XML reply").build())
                .addOption(Option.builder().longOpt("top").hasArg().argName("N")
                        .desc("heap: how many classes and retainers to show (default 20)").build())
                .addOption(Option.builder().longOpt("ask-file").hasArg().argName("FILE")
                        .desc("ask: questions, one per line (# comments), or a <QUESTIONS> XML file; repeatable")
                        .build())
                .addOption(Option.builder().longOpt("wide").desc("print whole names (rows may be wide)")
                        .build())
                .addOption(Option.builder().longOpt("width").hasArg().argName("N")
                        .desc("columns the text rows fit by shortening names (default 120)").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                .addOption(Option.builder().longOpt("options").hasArg().argName("OPTS")
                        .desc("attach: monitor agent options, e.g. CHECKTIME=5").build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    /** Reads the command line; a registry folder others can write to is warned about first, whatever follows. */
    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError {
        Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
        String insecure = MonitorEntry.insecureDirectory(dir);
        if (insecure != null) {
            context.err().println("dyper: warning: " + insecure);
        }
        return new Parsed(dir, request(line, dir, context.cache()));
    }

    private static Request request(CommandLine line, Path dir, Path defaultCache) throws UsageError {
        List<String> args = line.getArgList();
        if (line.hasOption("nats") || line.hasOption("all")) {
            try {
                return CtlNats.request(line, args, dir, defaultCache);
            } catch (java.io.IOException e) {
                throw new UsageError(e.getMessage());   // a questions file that cannot be read
            }
        }
        if (args.isEmpty()) {
            throw new UsageError("say who, attach PID, or PID COMMAND [DATA] (see dyper ctl --help)");
        }
        if (args.get(0).equals("who")) {
            if (args.size() > 1) {
                throw new UsageError("who takes no arguments, got '" + args.get(1) + "'");
            }
            return new Who();
        }
        if (args.get(0).equals("attach")) {
            if (args.size() != 2) {
                throw new UsageError("attach takes one PID");
            }
            return new Attach(pid(args.get(1)), line.getOptionValue("options"));
        }
        if (args.size() >= 2 && CtlAsking.handles(args.get(1))) {
            try {
                return CtlAsking.request(line, args, pid(args.get(0)), defaultCache,
                        width(line.hasOption("wide"), line.getOptionValue("width")));
            } catch (java.io.IOException e) {
                throw new UsageError(e.getMessage());
            }
        }
        if (args.size() >= 2 && CtlPatching.handles(args.get(1), line.hasOption("model"))) {
            return CtlPatching.request(line, args, pid(args.get(0)), defaultCache);
        }
        if (args.size() >= 2 && args.get(1).equals("heap")) {
            return CtlHeap.request(pid(args.get(0)), args.subList(1, args.size()), line.getOptionValue("top"),
                    line.hasOption("xml"));
        }
        if (line.hasOption("top")) {
            throw new UsageError("--top N goes with heap (dyper ctl PID heap --top N)");
        }
        if (args.size() >= 2 && EventsCommand.CTL.contains(args.get(1))) {
            return EventsCommand.ctl(pid(args.get(0)), args.subList(1, args.size()), line.hasOption("xml"),
                    width(line.hasOption("wide"), line.getOptionValue("width")));
        }
        if (args.size() < 2 || args.size() > 3) {
            throw new UsageError("expected PID COMMAND [DATA], got " + args.size() + " argument(s)");
        }
        return new Send(pid(args.get(0)), args.get(1), args.size() == 3 ? args.get(2) : null, line.hasOption("xml"),
                width(line.hasOption("wide"), line.getOptionValue("width")));
    }

    private static long pid(String s) throws UsageError {
        try {
            long pid = Long.parseLong(s);
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new UsageError("'" + s + "' is not a process id (try dyper ctl who)");
    }

    /** Columns for the text: {@code --wide} is no limit, {@code --width N} (at least 20), else the runtime's default. */
    static int width(boolean wide, String width) throws UsageError {
        if (wide) {
            return 0;
        }
        if (width == null) {
            return ReportText.DEFAULT_WIDTH;
        }
        try {
            int n = Integer.parseInt(width.trim());
            if (n >= 20) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // the message below
        }
        throw new UsageError("--width takes a number of columns of at least 20, not '" + width + "'");
    }

    @Override
    public int run(Parsed p, Context context) {
        return new Ctl(context.out(), context.err(), p.dir()).run(p.request());
    }
}
