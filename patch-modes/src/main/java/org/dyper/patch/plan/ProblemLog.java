package org.dyper.patch.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;

/**
 * The errors and warnings of one generation, in the order they were found, shared by its steps so that all of them
 * are reported together. An error found again (the same element, place and text) is kept once. Of each kind of
 * warning only the first {@link #SHOWN} are kept; the rest are counted, and one more warning says how many there
 * were and where the first of them is (a model of 600,000 FORs that match nothing gives 11 lines, not 600,000).
 */
public final class ProblemLog {
    /** How many warnings of one kind are kept (docs/join-points.md). */
    public static final int SHOWN = 10;

    /** The warnings of a kind left out: how many, the first of them, and where its line goes among those kept. */
    private static final class LeftOut {
        final String more;
        final Problem first;
        final int position;
        long count;

        LeftOut(String more, Problem first, int position) {
            this.more = more;
            this.first = first;
            this.position = position;
        }
    }

    private final Set<Problem> errors = new LinkedHashSet<>();
    private final List<Problem> warnings = new ArrayList<>();
    private final Map<String, Integer> kept = new HashMap<>();
    private final Map<String, LeftOut> leftOut = new LinkedHashMap<>();

    public void error(Location at, String element, String message) {
        errors.add(Problem.error(at, element, message));
    }

    /** A warning of its own kind, the element's (at most {@link #SHOWN} per element name). */
    public void warning(Location at, String element, String message) {
        warning("warnings about " + element + " elements", at, element, () -> message);
    }

    /**
     * A warning of the kind {@code more} (a plural noun phrase for the line that counts those left out: "FORs that
     * match no method"); the message is made only when the warning is kept.
     */
    public void warning(String more, Location at, String element, Supplier<String> message) {
        int n = kept.merge(more, 1, Integer::sum);
        if (n <= SHOWN) {
            warnings.add(Problem.warning(at, element, message.get()));
        } else {
            leftOut.computeIfAbsent(more, k -> new LeftOut(more, Problem.warning(at, element, ""), warnings.size()))
                    .count++;
        }
    }

    public void addErrors(List<Problem> found) {
        errors.addAll(found);
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
        all.addAll(warnings());
        return all;
    }

    /**
     * The warnings kept, and for each kind with warnings left out one that counts them (at the first left out), after
     * the last kept of that kind.
     */
    public List<Problem> warnings() {
        List<Problem> all = new ArrayList<>();
        for (int i = 0; i <= warnings.size(); i++) {
            for (LeftOut l : leftOut.values()) {
                if (l.position == i) {
                    all.add(Problem.warning(l.first.at(), l.first.element(), moreLine(l.count, l.more)));
                }
            }
            if (i < warnings.size()) {
                all.add(warnings.get(i));
            }
        }
        return all;
    }

    /** The line for {@code count} more warnings of kind {@code more}: "… and 663,646 more FORs that match ...". */
    public static String moreLine(long count, String more) {
        return String.format(Locale.ROOT, "… and %,d more %s (the first here; only the first %d are listed)", count,
                more, SHOWN);
    }
}
