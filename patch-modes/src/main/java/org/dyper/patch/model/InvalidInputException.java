package org.dyper.patch.model;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when input files break rules; carries every problem found, not just the first. */
public final class InvalidInputException extends Exception {
    private final List<Problem> problems;

    public InvalidInputException(List<Problem> problems) {
        super(problems.stream().map(Problem::toString).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
