package org.dyper.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.dyper.cli.report.ReportCommand;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Problem;
import org.dyper.patch.build.Generation;
import org.dyper.patch.launch.Jdk;
import org.dyper.patch.launch.LaunchCache;
import org.dyper.patch.launch.LaunchOptions;
import org.dyper.patch.launch.ProgramProcess;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;

/**
 * The {@code dyper} command. Each failure kind maps to one exit code and short lines on stderr starting with
 * {@code dyper: error:}; warnings start with {@code dyper: warning:}.
 */
public final class Main {
    /** Success. */
    public static final int OK = 0;
    /** A command or option was wrong or missing. */
    public static final int USAGE = 2;
    /** A model or mode file breaks a rule (every problem is printed). */
    public static final int INVALID_INPUT = 3;
    /** ajc refused the generated aspects or the input classes. */
    public static final int WEAVE_FAILED = 4;
    /** A file could not be read or written. */
    public static final int IO_ERROR = 5;
    /** A bug in Dyper. */
    public static final int INTERNAL = 70;

    private static final String VERSION = "0.1.0";

    private final PrintStream out;
    private final PrintStream err;
    private final Map<String, String> env;

    private Main(PrintStream out, PrintStream err, Map<String, String> env) {
        this.out = out;
        this.err = err;
        this.env = env;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.getenv()));
    }

    /** Runs one command; returns the exit code (for {@code run}, the program's own once it started). */
    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env) {
        return new Main(out, err, env).dispatch(args);
    }

    /** A command's name, one-line purpose, usage line and options. */
    private record Command(String name, String purpose, String usage, Options options, String details) {}

    private static final Map<String, Command> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("generate", new Command("generate",
                "turn models and modes into AspectJ source, aop.xml and the site table",
                "dyper generate --model FILE [--modes FILE] --in JAR|DIR [--classpath PATH] --out DIR [--classes DIR]",
                inputOptions(true)
                        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
                                .desc("folder for the .aj sources, aop.xml and sites.tsv (required)").build())
                        .addOption(Option.builder().longOpt("classes").hasArg().argName("DIR")
                                .desc("also compile the aspects with ajc into DIR, with META-INF/aop.xml, ready for "
                                        + "load-time weaving").build()),
                "The classes given with --in are read to resolve every FOR to concrete methods; each patched method\n"
                        + "and called method gets an integer id, listed in sites.tsv."));
        COMMANDS.put("weave", new Command("weave",
                "weave a jar or class folder with the generated aspects (binary weaving) into a new jar",
                "dyper weave --model FILE [--modes FILE] --in JAR|DIR --out JAR [--classpath PATH]",
                inputOptions(false)
                        .addOption(Option.builder().longOpt("in").hasArg().argName("JAR|DIR")
                                .desc("the jar or class folder to weave (required)").build())
                        .addOption(Option.builder().longOpt("out").hasArg().argName("JAR")
                                .desc("the woven jar to write (required; may not be the input)").build()),
                "Run the result with: java -cp OUT.jar" + File.pathSeparator + "$(dyper classpath)"
                        + File.pathSeparator + "<other jars> <main class>"));
        COMMANDS.put("run", new Command("run",
                "run a Java program with its patched classes woven at launch; print the report when it ends",
                "dyper run [--model FILE [--modes FILE]] [--detail] [--patch JAR|DIR] [options] -- <java arguments>",
                inputOptions(false)
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
                        .addOption(DetailLaunch.OPTION),
                "Everything after -- is passed to java (JAVA_HOME's java when JAVA_HOME is set, else the one on the\n"
                        + "PATH). The classes on its class path (-cp or -jar) are what the model can patch (with\n"
                        + "--patch, only those of the entries named). The first run with a model weaves the classes it\n"
                        + "patches into the cache; later runs with the same model, modes and class path reuse them, and\n"
                        + "a small agent swaps them in as they load. The exit code is the program's own once it started.\n"
                        + "SIGINT, SIGTERM and SIGHUP are passed on to the program, and dyper run waits for it to end\n"
                        + "(its report included). If dyper run is killed with SIGKILL, the monitor ends the program as\n"
                        + "SIGTERM would (with --no-monitor it runs on).\n" + DetailLaunch.HELP));
        COMMANDS.put("ctl", new Command("ctl",
                "list monitored processes, send them DYPER commands, attach the monitor to a running JVM",
                "dyper ctl [--dir DIR] who | dyper ctl [--xml | --wide | --width N] [--dir DIR] PID COMMAND [DATA] | "
                        + "dyper ctl [--dir DIR] [--options OPTS] attach PID | "
                        + "dyper ctl PID instrument --model FILE [--modes FILE] | dyper ctl PID uninstrument [NAME] | "
                        + "dyper ctl [--xml] PID instrumented",
                CtlPatching.addOptions(new Options())
                        .addOption(Option.builder().longOpt("xml").desc("print the raw XML reply").build())
                        .addOption(Option.builder().longOpt("wide").desc("print whole names (rows may be wide)")
                                .build())
                        .addOption(Option.builder().longOpt("width").hasArg().argName("N")
                                .desc("columns the text rows fit by shortening names (default 120)").build())
                        .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                                .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                        .addOption(Option.builder().longOpt("options").hasArg().argName("OPTS")
                                .desc("attach: monitor agent options, e.g. CHECKTIME=5").build())
                        .addOption(Option.builder("h").longOpt("help").desc("show this help").build()),
                "who: one line per monitored process: pid, main class, start time (entries of dead processes are\n"
                        + "removed). PID COMMAND [DATA]: any command of the DYPER language (PING, WHORU, REPORT,\n"
                        + "SHOWSTACK, SET \"<VAR NAME='CHECKTIME' VALUE='7'/>\", GET, CLEAR, ...); DATA is the command's XML.\n"
                        + "attach PID: load the monitor into a running JVM (same user) with the JDK attach API.\n"
                        + CtlPatching.HELP
                        + "Exit codes: 0 ok, 2 usage, 5 I/O error, 6 the monitor answered ERROR, 7 no such monitored\n"
                        + "process, 8 attach failed."));
        COMMANDS.put("patchd", new Command("patchd", Patchd.PURPOSE, Patchd.USAGE, Patchd.options(), Patchd.DETAILS));
        COMMANDS.put("report", new Command("report", ReportCommand.PURPOSE, ReportCommand.USAGE_LINE,
                ReportCommand.options(), ReportCommand.DETAILS));
        COMMANDS.put("classpath", new Command("classpath",
                "print the class path woven code needs at run time (Dyper runtime and AspectJ runtime)",
                "dyper classpath", helpOption(new Options()), "Use it as: java -cp woven.jar:$(dyper classpath) Main"));
        COMMANDS.put("modes", new Command("modes", "list the modes of Dyper's mode library", "dyper modes",
                helpOption(new Options()), "A PATCH names one of these in MODE without any --modes file."));
    }

    private static Options inputOptions(boolean withIn) {
        Options o = new Options();
        o.addOption(Option.builder().longOpt("model").hasArg().argName("FILE")
                .desc("a patch model (<MODEL>); repeatable; required").build());
        o.addOption(Option.builder().longOpt("modes").hasArg().argName("FILE")
                .desc("a mode file (<DYPATCH> or <DYPATCH_MODE>); repeatable; library modes need none").build());
        if (withIn) {
            o.addOption(Option.builder().longOpt("in").hasArg().argName("JAR|DIR")
                    .desc("classes the model patches; repeatable; required").build());
        }
        o.addOption(Option.builder().longOpt("include").hasArg().argName("PATTERN")
                .desc("only classes matching PATTERN may be patched (* matches any characters); repeatable").build());
        o.addOption(Option.builder().longOpt("exclude").hasArg().argName("PATTERN")
                .desc("classes matching PATTERN are never patched; repeatable").build());
        o.addOption(Option.builder().longOpt("classpath").hasArg().argName("PATH")
                .desc("what the modes' code and the target need to compile against (" + File.pathSeparator
                        + "-separated)").build());
        return helpOption(o);
    }

    private static Options helpOption(Options o) {
        return o.addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    private int dispatch(String[] args) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            if (args.length > 1 && COMMANDS.containsKey(args[1])) {
                help(COMMANDS.get(args[1]));
            } else if (args.length > 1) {
                return usage("help: unknown command '" + args[1] + "' (commands: " + String.join(", ",
                        COMMANDS.keySet()) + ")");
            } else {
                overview();
            }
            return args.length == 0 ? USAGE : OK;
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            out.println("dyper " + VERSION);
            return OK;
        }
        Command command = COMMANDS.get(args[0]);
        if (command == null) {
            return usage("unknown command '" + args[0] + "' (commands: " + String.join(", ", COMMANDS.keySet())
                    + "; see dyper --help)");
        }
        List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
        List<String> javaArgs = List.of();
        int dashes = rest.indexOf("--");
        if (dashes >= 0) {
            if (!command.name().equals("run")) {
                // only run passes arguments on; anything after -- would otherwise be dropped without a word
                return usage(command.name() + ": unexpected argument '--' (only dyper run takes java arguments)");
            }
            javaArgs = new ArrayList<>(rest.subList(dashes + 1, rest.size()));
            rest = new ArrayList<>(rest.subList(0, dashes));
        }
        CommandLine line;
        try {
            line = new DefaultParser().parse(command.options(), rest.toArray(String[]::new));
        } catch (ParseException e) {
            return usage(command.name() + ": " + e.getMessage() + " (see dyper " + command.name() + " --help)");
        }
        if (line.hasOption("help")) {
            help(command);
            return OK;
        }
        if (command.name().equals("ctl")) {
            return ctl(line);
        }
        if (command.name().equals("report")) {
            return new ReportCommand(out, err).run(line);
        }
        if (!line.getArgList().isEmpty()) {
            return usage(command.name() + ": unexpected argument '" + line.getArgList().get(0) + "'"
                    + (command.name().equals("run") ? " (java arguments go after --)" : ""));
        }
        try {
            return switch (command.name()) {
                case "generate" -> generate(line);
                case "weave" -> weave(line);
                case "run" -> run(line, javaArgs);
                case "patchd" -> Patchd.main(line, err, defaultCache());
                case "classpath" -> classpath();
                default -> modes();
            };
        } catch (UsageError e) {
            return usage(command.name() + ": " + e.getMessage());
        } catch (InvalidInputException e) {
            for (Problem p : e.problems()) {
                err.println("dyper: " + (p.warning() ? "" : "error: ") + p);
            }
            err.println("dyper: " + e.errorCount() + " problem(s); nothing was written");
            return INVALID_INPUT;
        } catch (WeaveException e) {
            err.println("dyper: error: " + e.getMessage().replace("\n", "\ndyper:   "));
            return WEAVE_FAILED;
        } catch (NoSuchFileException e) {
            err.println("dyper: error: " + e.getFile() + ": no such file");
            return IO_ERROR;
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return IO_ERROR;
        } catch (RuntimeException e) {
            err.println("dyper: internal error: " + e + " (please report it)");
            e.printStackTrace(err);
            return INTERNAL;
        }
    }

    private int generate(CommandLine line) throws UsageError, InvalidInputException, IOException, WeaveException {
        Path outDir = Path.of(InputOptions.required(line, "out", "DIR"));
        List<Path> targets = new ArrayList<>();
        if (line.getOptionValues("in") != null) {
            for (String v : line.getOptionValues("in")) {
                targets.add(Path.of(v));
            }
        }
        Weaver.Inputs in = InputOptions.inputs(line, targets);
        GeneratedCode code = Weaver.generate(in);
        warnings(code);
        List<Path> written = Weaver.writeSources(code, outDir);
        out.println("dyper: generated " + code.adviceCount() + " advice for " + code.siteCount() + " site id(s) in "
                + code.wovenClasses().size() + " class(es): " + (written.size() - 1) + " aspect source(s), the "
                + "site-table class, aop.xml and sites.tsv in " + outDir);
        if (line.hasOption("classes")) {
            Path classes = Path.of(line.getOptionValue("classes"));
            List<Path> cp = new ArrayList<>(in.targets());
            cp.addAll(in.classpath());
            notes(Weaver.compileAspects(code, classes, cp));
            out.println("dyper: compiled the aspects into " + classes + " (with META-INF/aop.xml)");
        }
        return OK;
    }

    private int weave(CommandLine line) throws UsageError, InvalidInputException, IOException, WeaveException {
        Path input = Path.of(InputOptions.required(line, "in", "JAR|DIR"));
        Path output = Path.of(InputOptions.required(line, "out", "JAR"));
        if (Files.exists(input) && Files.exists(output) && Files.isSameFile(input, output)) {
            throw new UsageError("--out " + output + " is the input: write the woven jar elsewhere");
        }
        if (Files.isDirectory(output)) {
            throw new UsageError("--out " + output + " is a folder: give the path of the jar to write");
        }
        Weaver.Inputs in = InputOptions.inputs(line, List.of(input));
        Path parent = output.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);  // before the long work, so a path that cannot be made fails first
        }
        long start = System.nanoTime();
        err.println("dyper: generating aspects for " + input + " ...");
        Generation generation = Generation.of(in, false);
        err.println("dyper: weaving " + generation.code().wovenClasses().size() + " patched class(es) with "
                + generation.code().adviceCount() + " advice (ajc) ...");
        List<String> notes = generation.weave(code -> Weaver.weaveBinary(code, input, output, in.classpath(),
                line2 -> err.println("dyper: " + line2)));
        GeneratedCode code = generation.code();
        warnings(code);
        notes(notes);
        out.printf("dyper: wrote %s (%d class(es) patched, %d advice, %d site id(s)) in %.1f s%n", output,
                code.wovenClasses().size(), code.adviceCount(), code.siteCount(), (System.nanoTime() - start) / 1e9);
        return OK;
    }

    private int run(CommandLine line, List<String> javaArgs)
            throws UsageError, InvalidInputException, IOException, WeaveException {
        if (javaArgs.isEmpty()) {
            throw new UsageError("give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar Main");
        }
        DetailLaunch.check(line);
        if (!line.hasOption("model")) {
            try {
                return launch(line, MonitorOnly.command(line, javaArgs, Jdk.java(env)), true);
            } catch (IllegalArgumentException e) {
                throw new UsageError(e.getMessage());
            }
        }
        LaunchOptions options = LaunchOptions.of(Jdk.java(env), javaArgs);
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
        Weaver.Inputs in = InputOptions.inputs(line, targets, "no classes to patch: the java class path (-cp or -jar) "
                + "names no existing jar or folder");
        if (!others.isEmpty()) {
            others.addAll(in.classpath());
            in = new Weaver.Inputs(in.models(), in.modeFiles(), in.targets(), others, in.includes(), in.excludes());
        }
        Path cache = line.hasOption("cache") ? Path.of(line.getOptionValue("cache")) : defaultCache();
        LaunchOptions launch = options.withWeaving(line.hasOption("weaver-agent") ? LaunchOptions.Weaving.AGENT
                : LaunchOptions.Weaving.AHEAD).withReport(new LaunchOptions.Report(line.getOptionValue("report"),
                line.getOptionValue("xml"))).withVerbose(line.hasOption("verbose"))
                .withMonitor(!line.hasOption("no-monitor"), DetailLaunch.monitorOptions(line));
        LaunchCache.Prepared prepared = LaunchCache.prepare(in, cache, launch.weaving(), launch.javaFeature(),
                line2 -> err.println("dyper: " + line2));
        prepared.warnings().forEach(w -> err.println("dyper: " + w));
        notes(prepared.notes());
        if (line.hasOption("verbose")) {
            String what = launch.weaving() == LaunchOptions.Weaving.AHEAD ? "woven classes and aspects " : "aspects ";
            err.println("dyper: " + what + (prepared.cached() ? "reused from " : "made in ") + prepared.aspects());
        }
        List<String> command;
        try {
            command = ReportCommand.withHtml(launch.command(prepared.aspects()), line.getOptionValue("html"));
        } catch (IllegalArgumentException e) {
            throw new UsageError(e.getMessage());
        }
        return launch(line, command, false);
    }

    /** Runs the program; {@code monitorOnly}: say so once it started. Returns its exit code. */
    private int launch(CommandLine line, List<String> command, boolean monitorOnly) throws IOException {
        if (line.hasOption("verbose")) {
            err.println("dyper: " + String.join(" ", command));
        }
        try {
            return ProgramProcess.run(command, null, pid -> DetailLaunch.launched(line, pid, monitorOnly, defaultCache(),
                    err));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return INTERNAL;
        }
    }

    private int ctl(CommandLine line) {
        List<String> args = line.getArgList();
        Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir"))
                : org.dyper.runtime.monitor.MonitorEntry.defaultDirectory();
        Ctl ctl = new Ctl(out, err, dir);
        String insecure = org.dyper.runtime.monitor.MonitorEntry.insecureDirectory(dir);
        if (insecure != null) {
            err.println("dyper: warning: " + insecure);
        }
        try {
            if (args.isEmpty()) {
                return usage("ctl: say who, attach PID, or PID COMMAND [DATA] (see dyper ctl --help)");
            }
            if (args.get(0).equals("who")) {
                if (args.size() > 1) {
                    return usage("ctl: who takes no arguments, got '" + args.get(1) + "'");
                }
                return ctl.who();
            }
            if (args.get(0).equals("attach")) {
                if (args.size() != 2) {
                    return usage("ctl: attach takes one PID");
                }
                return ctl.attach(pid(args.get(1)), line.getOptionValue("options"),
                        Weaver.runtimeClasspath().get(0));
            }
            if (args.size() >= 2 && CtlPatching.handles(args.get(1), line.hasOption("model"))) {
                return new CtlPatching(out, err, dir).run(line, args, pid(args.get(0)), defaultCache());
            }
            if (args.size() < 2 || args.size() > 3) {
                return usage("ctl: expected PID COMMAND [DATA], got " + args.size() + " argument(s)");
            }
            return ctl.command(pid(args.get(0)), args.get(1), args.size() == 3 ? args.get(2) : null,
                    line.hasOption("xml"), Ctl.width(line.hasOption("wide"), line.getOptionValue("width")));
        } catch (UsageError e) {
            return usage("ctl: " + e.getMessage());
        } catch (Ctl.BadWidth e) {
            return usage("ctl: " + e.getMessage());
        } catch (Ctl.Failure e) {
            err.println("dyper: error: " + e.getMessage());
            return e.code;
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return IO_ERROR;
        } catch (RuntimeException e) {
            err.println("dyper: internal error: " + e + " (please report it)");
            return INTERNAL;
        }
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

    private Path defaultCache() {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "dyper");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "dyper");
    }

    private int classpath() {
        List<String> entries = new ArrayList<>();
        Weaver.runtimeClasspath().forEach(p -> entries.add(p.toString()));
        out.println(String.join(File.pathSeparator, entries));
        return OK;
    }

    private int modes() {
        out.println("Dyper's mode library (use these names in PATCH MODE='...'):");
        List<ModeCatalog.Entry> entries = ModeCatalog.library().libraryModes();
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (ModeCatalog.Entry e : entries) {
            out.printf("  %-" + width + "s  %s%n", e.name(), e.description());
        }
        return OK;
    }

    private void warnings(GeneratedCode code) {
        for (Problem p : code.warnings()) {
            err.println("dyper: " + p);
        }
    }

    private void notes(List<String> notes) {
        for (String n : notes) {
            err.println("dyper: " + (Weaver.isWarning(n) ? "" : "note: ") + n);
        }
    }

    private int usage(String message) {
        err.println("dyper: error: " + message);
        return USAGE;
    }

    private void overview() {
        out.println("dyper " + VERSION + ": instrument Java programs from DYPATCH XML models, woven with AspectJ.");
        out.println();
        out.println("Usage: dyper <command> [options]   (dyper <command> --help for details)");
        out.println();
        int width = COMMANDS.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Command c : COMMANDS.values()) {
            out.printf("  %-" + width + "s  %s%n", c.name(), c.purpose());
        }
        out.println();
        out.println("Exit codes: 0 ok, 2 usage, 3 invalid model, mode or report file, 4 weaving failed, 5 file error,");
        out.println("6 the monitor answered ERROR, 7 no such monitored process, 8 attach failed,");
        out.println("70 internal error; dyper run returns the program's own exit code once it started.");
    }

    private void help(Command c) {
        PrintWriter w = new PrintWriter(out);
        HelpFormatter f = new HelpFormatter();
        f.setWidth(100);
        w.println(c.purpose());
        w.println();
        w.println("Usage: " + c.usage());
        if (!c.options().getOptions().isEmpty()) {
            w.println();
            f.printOptions(w, 100, c.options(), 2, 2);
        }
        w.println();
        w.println(c.details());
        w.flush();
    }
}
