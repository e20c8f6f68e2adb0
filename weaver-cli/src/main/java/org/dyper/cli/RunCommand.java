package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.ask.AskedQuestions;
import org.dyper.cli.report.ReportCommand;
import org.dyper.patch.ask.QuestionCompiler;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.launch.TargetJdk;
import org.dyper.patch.launch.LaunchCache;
import org.dyper.patch.launch.LaunchOptions;
import org.dyper.patch.launch.ProgramProcess;
import org.dyper.runtime.ask.Questions;

/**
 * {@code dyper run}: weaves the classes a model patches once (cached), then starts the program with the agent that
 * swaps them in, the DYPER monitor and the report settings, and returns the program's exit code.
 */
final class RunCommand implements CliCommand<RunCommand.Parsed> {
    static final String PURPOSE = "run a Java program with its patched classes woven at launch; print the report when it "
            + "ends";
    static final String USAGE = "dyper run [--model FILE [--modes FILE] | --ask QUESTION...] [--detail] [--patch JAR|DIR] "
            + "[options] -- "
            + "<java arguments>";
    static final String DETAILS = "Everything after -- is passed to java (JAVA_HOME's java when JAVA_HOME is set, else the "
            + "one on the\n"
            + "PATH). The classes on its class path (-cp or -jar) are what the model can patch (with\n"
            + "--patch, only those of the entries named). The first run with a model weaves the classes it\n"
            + "patches into the cache; later runs with the same model, modes and class path reuse them, and\n"
            + "a small agent swaps them in as they load. The exit code is the program's own once it started.\n"
            + "SIGINT, SIGTERM and SIGHUP are passed on to the program, and dyper run waits for it to end\n"
            + "(its report included). If dyper run is killed with SIGKILL, the monitor ends the program as\n"
            + "SIGTERM would (with --no-monitor it runs on).\n" + DetailLaunch.HELP;

    /**
     * The options, parsed once and checked before anything is woven. With a model: what to weave ({@code inputs})
     * and how to launch the program ({@code launch}); without one: the java command of the monitor alone
     * ({@code monitorOnly}), and the other two null. {@code cache}: where woven classes and patch files go;
     * {@code html}: the page to write at exit (or null); {@code detail}: {@code --detail}, with its
     * {@code monitorOptions}.
     */
    record Parsed(Weaver.Inputs inputs, LaunchOptions launch, List<String> monitorOnly, Path cache, String html,
            boolean verbose, boolean detail, String monitorOptions, List<AskedQuestions.Asked> asks,
            List<String> jfr) {
        static Parsed of(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
            if (javaArgs.isEmpty()) {
                throw new UsageError("give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar "
                        + "Main");
            }
            boolean detail = line.hasOption("detail");
            boolean noMonitor = line.hasOption("no-monitor");
            if (detail && noMonitor) {
                throw new UsageError("--detail needs the DYPER monitor: leave out --no-monitor");
            }
            String monitor = DetailLaunch.monitorOptions(detail, line.getOptionValue("monitor"));
            if (line.hasOption("nats")) {
                String url = line.getOptionValue("nats");
                if (noMonitor) {
                    throw new UsageError("--nats needs the DYPER monitor: leave out --no-monitor");
                }
                if (!url.matches("(?i)(nats|tls|ws|wss)://[^,]+")) {
                    throw new UsageError("--nats needs one URL nats://host:port or tls://host:port (no commas), not '"
                            + url + "'");
                }
                monitor = (monitor == null || monitor.isBlank() ? "" : monitor + ",") + "nats=" + url;
            }
            Path cache = line.hasOption("cache") ? Path.of(line.getOptionValue("cache")) : context.cache();
            String html = line.getOptionValue("html");
            boolean verbose = line.hasOption("verbose");
            List<String> jfr = EventsCommand.launchProperties(line.getOptionValue("jfr"),
                    line.getOptionValue("jfr-settings"));
            List<AskedQuestions.Asked> asks = AskedQuestions.read(line.getOptionValues("ask"),
                    line.getOptionValues("ask-file"));
            if (!asks.isEmpty() && (line.hasOption("model") || line.hasOption("modes"))) {
                throw new UsageError("--ask and --ask-file make their own model: leave out --model and --modes (or "
                        + "run twice)");
            }
            if (!line.hasOption("model") && asks.isEmpty()) {
                List<String> command;
                try {
                    MonitorOnly.check(line);
                    command = MonitorOnly.command(TargetJdk.java(context.env()), monitor,
                            line.hasOption("detail") ? line.getOptionValue("report") : null, line.getOptionValue("xml"),
                            html, javaArgs);
                } catch (IllegalArgumentException e) {
                    throw new UsageError(e.getMessage());
                }
                return new Parsed(null, null, command, cache, html, verbose, detail, monitor, asks, jfr);
            }
            LaunchOptions options = LaunchOptions.of(TargetJdk.java(context.env()), javaArgs);
            List<Path> targets;
            try {
                targets = options.targets();
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
            List<Path> others = new ArrayList<>();
            if (line.hasOption("patch")) {
                targets = InputOptions.patchOnly(targets, InputOptions.values(line, "patch"), others);
            }
            String noTargets = "no classes to patch: the java class path (-cp or -jar) names no existing jar or folder";
            Weaver.Inputs in;
            if (asks.isEmpty()) {
                in = InputOptions.inputs(line, targets, noTargets);
            } else {
                // the model and modes are compiled from the questions in run(), once the options are all checked
                if (targets.isEmpty()) {
                    throw new UsageError(noTargets);
                }
                in = new Weaver.Inputs(List.of(), List.of(), targets,
                        InputOptions.pathList(line.getOptionValue("classpath"))).withPatterns(
                        InputOptions.values(line, "include"), InputOptions.values(line, "exclude"));
            }
            if (!others.isEmpty()) {
                others.addAll(in.classpath());
                in = new Weaver.Inputs(in.models(), in.modeFiles(), in.targets(), others, in.includes(),
                        in.excludes());
            }
            LaunchOptions launch = options.withWeaving(line.hasOption("weaver-agent") ? LaunchOptions.Weaving.AGENT
                    : LaunchOptions.Weaving.AHEAD).withReport(new LaunchOptions.Report(line.getOptionValue("report"),
                    line.getOptionValue("xml"))).withVerbose(verbose).withMonitor(!noMonitor, monitor);
            return new Parsed(in, launch, null, cache, html, verbose, detail, monitor, asks, jfr);
        }
    }

    @Override
    public Help help() {
        return new Help("run", PURPOSE, USAGE, options(), DETAILS, false);
    }

    /** The options of {@code dyper run}. */
    private static Options options() {
        return InputOptions.options(false)
                .addOption(Option.builder().longOpt("model").hasArg().argName("FILE")
                        .desc("a patch model (<MODEL>); repeatable; without one the program runs under the "
                                + "DYPER monitor alone, nothing patched").build())
                .addOption(Option.builder().longOpt("patch").hasArg().argName("JAR|DIR")
                        .desc("only classes of this class-path entry may be patched; repeatable (the other "
                                + "entries are still read to resolve types)").build())
                .addOption(Option.builder().longOpt("report").hasArg().argName("WHERE")
                        .desc("text report: stderr (default), stdout, none, or a file").build())
                .addOption(Option.builder().longOpt("xml").hasArg().argName("FILE")
                        .desc("also write the XML report to FILE").build())
                .addOption(Option.builder().longOpt("html").hasArg().argName("FILE")
                        .desc("also write the HTML report (flame graphs, tables; see dyper report) to FILE")
                        .build())
                .addOption(Option.builder().longOpt("cache").hasArg().argName("DIR")
                        .desc("where woven classes and compiled aspects are cached (default "
                                + "$XDG_CACHE_HOME/dyper or ~/.cache/dyper)").build())
                .addOption(Option.builder().longOpt("weaver-agent")
                        .desc("weave as classes load with the AspectJ weaver agent instead of once ahead "
                                + "(slower start and hot path; for classes another agent changes first)")
                        .build())
                .addOption(Option.builder().longOpt("verbose")
                        .desc("show the cache folder used and the java command; with --weaver-agent also "
                                + "what the weaver does as classes load").build())
                .addOption(Option.builder().longOpt("no-monitor")
                        .desc("do not start the DYPER monitor in the program").build())
                .addOption(Option.builder().longOpt("monitor").hasArg().argName("OPTIONS")
                        .desc("monitor agent options, e.g. CHECKTIME=5,dir=/tmp/run (see docs/monitor.md)")
                        .build())
                .addOption(Option.builder().longOpt("nats").hasArg().argName("URL")
                        .desc("the monitor also joins this NATS server (nats://[user:password@]host:port; "
                                + "docs/fleet.md)").build())
                .addOption(Option.builder().longOpt("jfr").hasArg().argName("FILE")
                        .desc("record Dyper's events (dyper.*) and the JDK's to this JFR file, written when the "
                                + "program ends (docs/events.md)").build())
                .addOption(Option.builder().longOpt("jfr-settings").hasArg().argName("S")
                        .desc("with --jfr: JFR configurations or .jfc files, comma-separated (default: default)")
                        .build())
                .addOption(Option.builder().longOpt("ask").hasArg().argName("QUESTION")
                        .desc("a question, e.g. 'time of acme.Bank.transfer by caller' (docs/questions.md); "
                                + "repeatable; the answers come with the report").build())
                .addOption(Option.builder().longOpt("ask-file").hasArg().argName("FILE")
                        .desc("questions: one per line (# comments), or a <QUESTIONS> XML file; repeatable").build())
                .addOption(DetailLaunch.OPTION);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
        return Parsed.of(line, javaArgs, context);
    }

    /** Runs the program woven as {@code p} says; returns its exit code once it started. */
    @Override
    public int run(Parsed p, Context context) throws UsageError, InvalidInputException, IOException, WeaveException,
            CommandFailure {
        PrintStream err = context.err();
        if (p.monitorOnly() != null) {
            return launch(p, EventsCommand.withProperties(p.monitorOnly(), p.jfr()), true, err);
        }
        LaunchOptions launch = p.launch();
        Weaver.Inputs inputs = p.inputs();
        AskedQuestions.Files3 asked = null;
        if (!p.asks().isEmpty()) {
            QuestionCompiler.Result compiled = AskedQuestions.compile(p.asks(), inputs.targets());
            compiled.warnings().forEach(w -> err.println("dyper: warning: " + w));
            asked = AskedQuestions.write(compiled, p.cache());
            inputs = new Weaver.Inputs(List.of(asked.model()), List.of(asked.modes()), inputs.targets(),
                    inputs.classpath(), inputs.includes(), inputs.excludes());
            if (p.verbose()) {
                err.println("dyper: " + compiled.sites() + " site(s) patched for " + p.asks().size()
                        + " question(s); model in " + asked.model());
            }
        }
        LaunchCache.Prepared prepared = LaunchCache.prepare(inputs, p.cache(), launch.weaving(),
                launch.javaFeature(), progress -> err.println("dyper: " + progress));
        prepared.warnings().forEach(w -> err.println("dyper: " + w));
        Notes.print(err, prepared.notes());
        if (p.verbose()) {
            String what = launch.weaving() == LaunchOptions.Weaving.AHEAD ? "woven classes and aspects " : "aspects ";
            err.println("dyper: " + what + (prepared.cached() ? "reused from " : "made in ") + prepared.aspects());
        }
        List<String> command;
        try {
            command = new ArrayList<>(EventsCommand.withProperties(ReportCommand.withHtml(
                    launch.command(prepared.aspects()), p.html()), p.jfr()));
            if (asked != null) {
                command.add(1, "-D" + Questions.PROPERTY + "=" + asked.table().toAbsolutePath());
            }
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        return launch(p, command, false, err);
    }

    /** Runs the program; {@code monitorOnly}: say so once it started. Returns its exit code. */
    private static int launch(Parsed p, List<String> command, boolean monitorOnly, PrintStream err)
            throws IOException {
        if (p.verbose()) {
            err.println("dyper: " + String.join(" ", command));
        }
        try {
            return ProgramProcess.run(command, null, pid -> DetailLaunch.launched(p.detail(), p.monitorOptions(),
                    p.cache(), pid, monitorOnly, err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCode.INTERNAL;
        }
    }
}
