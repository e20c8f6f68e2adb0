package org.dyper.cli;

/** A usage mistake found after option parsing (missing required option, bad value); exit code 2. */
public final class UsageError extends Exception {
    public UsageError(String message) {
        super(message, null, false, false);
    }
}
