package org.dyper.cli;

/** A failure that ends a command with exit code {@link #code} and its message on stderr ({@code dyper: error: ...}). */
public final class CommandFailure extends Exception {
    /** The exit code of the command that failed ({@link ExitCode}). */
    public final int code;

    public CommandFailure(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }
}
