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
 * One {@code dyper} command behind one small interface, as the JDK's {@code jfr} tool has its commands: its name,
 * help and options, and what it does with the parsed command line. {@link Main} only dispatches, prints the help and
 * turns the exceptions below into exit codes ({@link ExitCode}); each command parses its options once, into a record
 * of its own.
 */
public interface CliCommand {
    /** What every command gets: the output streams, the environment and the default cache folder. */
    record Context(PrintStream out, PrintStream err, Map<String, String> env, Path cache) {
    }

    String name();

    /** One line for {@code dyper --help}. */
    String purpose();

    String usage();

    Options options();

    /** The text after the options in {@code dyper NAME --help}. */
    String details();

    /** Whether words after the options are the command's own (else any is a usage error). */
    default boolean takesArguments() {
        return false;
    }

    /** Runs the command ({@code javaArgs}: what came after {@code --}, for run only); returns the exit code. */
    int run(CommandLine line, List<String> javaArgs)
            throws UsageError, InvalidInputException, WeaveException, IOException;
}
