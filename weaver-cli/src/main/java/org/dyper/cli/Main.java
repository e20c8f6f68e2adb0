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
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;

/**
 * The {@code dyper} command. Each failure kind maps to one exit code and short lines on stderr starting with
 * {@code dyper: error:}; warnings start with {@code dyper: warning:}.
 */
public final class Main {
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
        COMMANDS.put("run", new Command("run", RunCommand.PURPOSE, RunCommand.USAGE, RunCommand.options(),
                RunCommand.DETAILS));
        COMMANDS.put("ctl", new Command("ctl", Ctl.PURPOSE, Ctl.USAGE, Ctl.options(), Ctl.DETAILS));
        COMMANDS.put("patchd", new Command("patchd", Patchd.PURPOSE, Patchd.USAGE, Patchd.options(), Patchd.DETAILS));
        COMMANDS.put("report", new Command("report", ReportCommand.PURPOSE, ReportCommand.USAGE_LINE,
                ReportCommand.options(), ReportCommand.DETAILS));
        COMMANDS.put("classpath", new Command("classpath",
                "print the class path woven code needs at run time (Dyper runtime and AspectJ runtime)",
                "dyper classpath", helpOption(new Options()), "Use it as: java -cp woven.jar:$(dyper classpath) Main"));
        COMMANDS.put("modes", new Command("modes", "list the modes of Dyper's mode library", "dyper modes",
                helpOption(new Options()), "A PATCH names one of these in MODE without any --modes file."));
    }

    /** The options generate, weave and run share; {@code withIn}: with {@code --in}. */
    static Options inputOptions(boolean withIn) {
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
            return args.length == 0 ? ExitCode.USAGE : ExitCode.OK;
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            out.println("dyper " + VERSION);
            return ExitCode.OK;
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
            return ExitCode.OK;
        }
        if (command.name().equals("ctl")) {
            return new Ctl(out, err, Ctl.directory(line)).run(line, defaultCache());
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
                case "run" -> new RunCommand(err, env, defaultCache()).run(line, javaArgs);
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
            return ExitCode.INVALID_INPUT;
        } catch (WeaveException e) {
            err.println("dyper: error: " + e.getMessage().replace("\n", "\ndyper:   "));
            return ExitCode.WEAVE_FAILED;
        } catch (NoSuchFileException e) {
            err.println("dyper: error: " + e.getFile() + ": no such file");
            return ExitCode.IO_ERROR;
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return ExitCode.IO_ERROR;
        } catch (RuntimeException e) {
            err.println("dyper: internal error: " + e + " (please report it)");
            e.printStackTrace(err);
            return ExitCode.INTERNAL;
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
        return ExitCode.OK;
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
                progress -> err.println("dyper: " + progress)));
        GeneratedCode code = generation.code();
        warnings(code);
        notes(notes);
        out.printf("dyper: wrote %s (%d class(es) patched, %d advice, %d site id(s)) in %.1f s%n", output,
                code.wovenClasses().size(), code.adviceCount(), code.siteCount(), (System.nanoTime() - start) / 1e9);
        return ExitCode.OK;
    }

    /** Where woven classes and compiled aspects are cached: $XDG_CACHE_HOME/dyper, else ~/.cache/dyper. */
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
        return ExitCode.OK;
    }

    private int modes() {
        out.println("Dyper's mode library (use these names in PATCH MODE='...'):");
        List<ModeCatalog.Entry> entries = ModeCatalog.library().libraryModes();
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (ModeCatalog.Entry e : entries) {
            out.printf("  %-" + width + "s  %s%n", e.name(), e.description());
        }
        return ExitCode.OK;
    }

    private void warnings(GeneratedCode code) {
        for (Problem p : code.warnings()) {
            err.println("dyper: " + p);
        }
    }

    private void notes(List<String> notes) {
        notes(err, notes);
    }

    /** Prints ajc's and the weaver's notes; warnings among them without the "note:" prefix. */
    static void notes(PrintStream err, List<String> notes) {
        for (String n : notes) {
            err.println("dyper: " + (Weaver.isWarning(n) ? "" : "note: ") + n);
        }
    }

    private int usage(String message) {
        err.println("dyper: error: " + message);
        return ExitCode.USAGE;
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
        out.print(ExitCode.SUMMARY);
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
