package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
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
import org.apache.commons.cli.ParseException;
import org.dyper.cli.report.ReportCommand;
import org.dyper.cli.ui.UiCommand;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Problem;
import org.dyper.patch.build.WeaveException;

/**
 * The {@code dyper} command: it finds the {@link CliCommand} a command line names, parses its options, prints help,
 * and turns failures into exit codes. Each failure kind maps to one exit code and short lines on stderr starting with
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

    /** The commands, in the order {@code dyper --help} lists them. */
    private static final List<CliCommand<?>> COMMANDS = List.of(new GenerateCommand(), new WeaveCommand(),
            new RunCommand(), new org.dyper.cli.ask.AskCommand(), new CtlCommand(), new PatchdCommand(), new ReportCommand(), new UiCommand(),
            new org.dyper.cli.whatif.WhatIfCommand(),
            new ClasspathCommand(), new ModesCommand(), new EventsCommand(), new ExportCommand());

    private int dispatch(String[] args) {
        Map<String, CliCommand.Help> commands = new LinkedHashMap<>();
        Map<String, CliCommand<?>> byName = new LinkedHashMap<>();
        for (CliCommand<?> c : COMMANDS) {
            CliCommand.Help help = c.help();
            commands.put(help.name(), help);
            byName.put(help.name(), c);
        }
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            if (args.length > 1 && commands.containsKey(args[1])) {
                help(commands.get(args[1]));
            } else if (args.length > 1) {
                return usage("help: unknown command '" + args[1] + "' (commands: " + String.join(", ",
                        commands.keySet()) + ")");
            } else {
                overview(commands.values());
            }
            return args.length == 0 ? ExitCode.USAGE : ExitCode.OK;
        }
        if (args[0].equals("--version") || args[0].equals("version")) {
            out.println("dyper " + VERSION);
            return ExitCode.OK;
        }
        CliCommand.Help command = commands.get(args[0]);
        if (command == null) {
            return usage("unknown command '" + args[0] + "' (commands: " + String.join(", ", commands.keySet())
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
        if (!command.takesArguments() && !line.getArgList().isEmpty()) {
            return usage(command.name() + ": unexpected argument '" + line.getArgList().get(0) + "'"
                    + (command.name().equals("run") ? " (java arguments go after --)" : ""));
        }
        try {
            return parseAndRun(byName.get(command.name()), line, javaArgs,
                    new CliCommand.Context(out, err, env, defaultCache()));
        } catch (UsageError e) {
            return usage(command.name() + ": " + e.getMessage());
        } catch (InvalidInputException e) {
            for (Problem p : e.listed()) {
                err.println("dyper: " + (p.warning() ? "" : "error: ") + p);
            }
            err.println("dyper: " + e.errorCount() + " problem(s); nothing was written");
            return ExitCode.INVALID_INPUT;
        } catch (WeaveException e) {
            err.println("dyper: error: " + e.getMessage().replace("\n", "\ndyper:   "));
            return ExitCode.WEAVE_FAILED;
        } catch (CommandFailure e) {
            err.println("dyper: error: " + e.getMessage());
            return e.code;
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

    /** The command's options read once from {@code line}, then the command run with them. */
    private static <O> int parseAndRun(CliCommand<O> command, CommandLine line, List<String> javaArgs,
            CliCommand.Context context)
            throws UsageError, CommandFailure, InvalidInputException, WeaveException, IOException {
        return command.run(command.parse(line, javaArgs, context), context);
    }

    /** Where woven classes and compiled aspects are cached: $XDG_CACHE_HOME/dyper, else ~/.cache/dyper. */
    private Path defaultCache() {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "dyper");
        }
        return Path.of(System.getProperty("user.home"), ".cache", "dyper");
    }

    private int usage(String message) {
        err.println("dyper: error: " + message);
        return ExitCode.USAGE;
    }

    private void overview(java.util.Collection<CliCommand.Help> commands) {
        out.println("dyper " + VERSION + ": instrument Java programs from DYPATCH XML models, woven with AspectJ.");
        out.println();
        out.println("Usage: dyper <command> [options]   (dyper <command> --help for details)");
        out.println();
        int width = commands.stream().mapToInt(c -> c.name().length()).max().orElse(0);
        for (CliCommand.Help c : commands) {
            out.printf("  %-" + width + "s  %s%n", c.name(), c.purpose());
        }
        out.println();
        out.print(ExitCode.SUMMARY);
    }

    private void help(CliCommand.Help c) {
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
