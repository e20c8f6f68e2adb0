package org.dyper.patch.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;

/**
 * The errors and warnings of one generation, in the order they were found, shared by its steps so that all of them
 * are reported together. An error found again (the same element, place and text) is kept once.
 */
public final class ProblemLog {
    private final Set<Problem> errors = new LinkedHashSet<>();
    private final List<Problem> warnings = new ArrayList<>();

    public void error(Location at, String element, String message) {
        errors.add(Problem.error(at, element, message));
    }

    public void warning(Location at, String element, String message) {
        warnings.add(Problem.warning(at, element, message));
    }

    public void addErrors(List<Problem> found) {
        errors.addAll(found);
    }

    public void addWarnings(List<Problem> found) {
        warnings.addAll(found);
    }

    /** How many errors were found so far: a step compares it before and after to learn whether it reported one. */
    public int errorCount() {
        return errors.size();
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /** The errors, then the warnings: a user fixing the errors should not meet the warnings only afterwards. */
    public List<Problem> all() {
        List<Problem> all = new ArrayList<>(errors);
        all.addAll(warnings);
        return all;
    }

    public List<Problem> warnings() {
        return warnings;
    }
}
