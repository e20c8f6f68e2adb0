package org.dyper.cli;

/**
 * The exit codes of every {@code dyper} command, in one place: each failure kind maps to one code, and the help text
 * lists them from here ({@link #SUMMARY}). {@code dyper run} returns the program's own exit code once it started.
 */
public final class ExitCode {
    /** Success. */
    public static final int OK = 0;
    /** A command or option was wrong or missing. */
    public static final int USAGE = 2;
    /** A model, mode or report file breaks a rule (every problem is printed). */
    public static final int INVALID_INPUT = 3;
    /** ajc refused the generated aspects or the input classes. */
    public static final int WEAVE_FAILED = 4;
    /** A file could not be read or written. */
    public static final int IO_ERROR = 5;
    /** The monitor answered a command with ERROR. */
    public static final int COMMAND_FAILED = 6;
    /** No such monitored process, or it cannot be reached. */
    public static final int NO_PROCESS = 7;
    /** Attaching to a JVM failed. */
    public static final int ATTACH_FAILED = 8;
    /** A bug in Dyper. */
    public static final int INTERNAL = 70;

    /** Every code with its meaning, as {@code dyper --help} prints it (docs/cli.md says the same). */
    public static final String SUMMARY = """
            Exit codes: 0 ok, 2 usage, 3 invalid model, mode or report file, 4 weaving failed, 5 file error,
            6 the monitor answered ERROR, 7 no such monitored process, 8 attach failed,
            70 internal error; dyper run returns the program's own exit code once it started.
            """;

    private ExitCode() {
    }
}
