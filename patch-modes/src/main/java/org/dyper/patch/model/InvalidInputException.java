package org.dyper.patch.model;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown when input files break rules; carries every problem found, not just the first, and the warnings found along
 * the way (so a user fixing the errors sees them at once).
 */
public final class InvalidInputException extends Exception {
    private final List<Problem> problems;

    public InvalidInputException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    /** The errors and the warnings, each a {@link Problem} that says which it is. */
    public List<Problem> problems() {
        return problems;
    }

    /** How many of {@link #problems()} are errors. */
    public long errorCount() {
        return problems.stream().filter(p -> !p.warning()).count();
    }
}
