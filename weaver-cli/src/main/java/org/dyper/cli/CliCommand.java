package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;

/**
 * One {@code dyper} command behind one small interface, as the JDK's {@code jfr} tool has its commands: its help
 * and options, how it reads its command line into a typed record {@code O} (once, checking it before any long work),
 * and what it does with that record. {@link Main} only dispatches, prints the help and turns the exceptions below
 * into exit codes ({@link ExitCode}).
 *
 * @param <O> the command's options, parsed
 */
public interface CliCommand<O> {
    /** What every command gets: the output streams, the environment and the default cache folder. */
    record Context(PrintStream out, PrintStream err, Map<String, String> env, Path cache) {
    }

    /**
     * What {@code dyper --help} and {@code dyper NAME --help} print: the name, one line of purpose, the usage line,
     * the options, the text after them; {@code takesArguments}: whether words after the options are the command's
     * own (else any is a usage error).
     */
    record Help(String name, String purpose, String usage, Options options, String details, boolean takesArguments) {
    }

    /** The options of a command that has none of its own (only {@code --help}). */
    record NoOptions() {
    }

    /** A command without options of its own: nothing to parse. */
    interface WithoutOptions extends CliCommand<NoOptions> {
        @Override
        default NoOptions parse(CommandLine line, List<String> javaArgs, Context context) {
            return new NoOptions();
        }
    }

    Help help();

    /**
     * Reads the parsed command line ({@code javaArgs}: what came after {@code --}, for run only) into the command's
     * options; a mistake in it is a {@link UsageError}.
     */
    O parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException;

    /** Runs the command; returns the exit code. */
    int run(O options, Context context) throws UsageError, CommandFailure, InvalidInputException, WeaveException,
            IOException;
}
