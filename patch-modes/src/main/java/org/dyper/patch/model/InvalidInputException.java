package org.dyper.patch.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Thrown when input files break rules; carries every problem found, not just the first, and the warnings found along
 * the way (so a user fixing the errors sees them at once). Every error is kept and counted; what is printed
 * ({@link #listed()}) has only the first {@link #ERRORS_SHOWN}, then one more error that counts the rest, pinned to the
 * first of them (a model of 100,000 FORs with an unknown MODE prints 101 errors, not 100,000).
 */
public final class InvalidInputException extends Exception {
    /** How many errors are printed (docs/join-points.md). */
    public static final int ERRORS_SHOWN = 100;

    private final List<Problem> problems;
    private final long errors;

    public InvalidInputException(List<Problem> problems) {
        this.problems = List.copyOf(problems);
        this.errors = problems.stream().filter(p -> !p.warning()).count();
    }

    /** Every error and warning found, each a {@link Problem} that says which it is. */
    public List<Problem> problems() {
        return problems;
    }

    /** How many of {@link #problems()} are errors. */
    public long errorCount() {
        return errors;
    }

    /**
     * What to print: {@link #problems()} with the errors past the first {@link #ERRORS_SHOWN} replaced by one that
     * counts them, at the first of them.
     */
    public List<Problem> listed() {
        if (errors <= ERRORS_SHOWN) {
            return problems;
        }
        List<Problem> listed = new ArrayList<>();
        int seen = 0;
        for (Problem p : problems) {
            if (p.warning()) {
                listed.add(p);
            } else if (++seen <= ERRORS_SHOWN) {
                listed.add(p);
            } else if (seen == ERRORS_SHOWN + 1) {
                listed.add(Problem.error(p.at(), p.element(), String.format(Locale.ROOT,
                        "… and %,d more errors (the first here; only the first %d are listed)",
                        errors - ERRORS_SHOWN, ERRORS_SHOWN)));
            }
        }
        return listed;
    }

    /** The {@link #listed()} problems, one {@code file:line:col: ELEMENT: message} line each. */
    @Override
    public String getMessage() {
        return listed().stream().map(Problem::toString).collect(Collectors.joining("\n"));
    }
}
