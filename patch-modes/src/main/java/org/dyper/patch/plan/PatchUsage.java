package org.dyper.patch.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.Problem;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;
import org.dyper.patch.scan.MethodInfo;

/**
 * What became of each PATCH: the methods its FOR gave it, how many join points it matched there, where it was applied
 * and where it was skipped, and why. Turns that into what the user reads, so that no patch does nothing unnoticed: a
 * warning for a patch that matches no join point, one warning per patch and reason for the places it was skipped,
 * and an error for a patch that applies nowhere it was asked for.
 */
public final class PatchUsage {
    private static final class Usage {
        final List<String> methods = new ArrayList<>();
        int matched;
        int applied;
        /** Places skipped, by reason; reasons an error already explains are left out. */
        final Map<String, List<String>> skipped = new LinkedHashMap<>();
        /** Whether the places counted in {@link #skipped} are all methods (executions, bytecode points). */
        boolean onlyMethods = true;
        /** Reasons an error was reported for; the same reason elsewhere needs no warning of its own. */
        final java.util.Set<String> failed = new java.util.HashSet<>();
    }

    private final Map<Patch, Usage> byPatch = new LinkedHashMap<>();

    private Usage of(Patch p) {
        return byPatch.computeIfAbsent(p, k -> new Usage());
    }

    /** The patch's FOR selected {@code m} (and no later UPDATE='NEW' took it away). */
    public void planned(Patch p, MethodInfo m) {
        of(p).methods.add(m.displayName());
    }

    /** A join point (group) of a planned method is one the patch applies to. */
    public void matched(Patch p) {
        of(p).matched++;
    }

    /** The patch's code was written for one join point (group). */
    public void applied(Patch p) {
        of(p).applied++;
    }

    /**
     * The patch was skipped at {@code where} for {@code reason}; {@code withError} when an error was reported for it
     * there, which then says all there is to say. {@code method}: whether {@code where} names a method (not one join
     * point in it).
     */
    public void skipped(Patch p, String reason, String where, boolean withError, boolean method) {
        Usage u = of(p);
        if (withError || u.failed.contains(reason)) {
            u.failed.add(reason);
            return;
        }
        List<String> places = u.skipped.computeIfAbsent(reason, k -> new ArrayList<>());
        if (!places.contains(where)) {
            places.add(where);
        }
        u.onlyMethods &= method;
    }

    /**
     * Warnings into {@code log}: patches that match nothing, and places patches were skipped at (where they applied
     * elsewhere).
     */
    public void warnings(ProblemLog log) {
        byPatch.forEach((p, u) -> {
            if (u.matched == 0 && !u.methods.isEmpty() && u.failed.isEmpty()) {
                log.warning("PATCHes that match no join point in the methods their FOR selects", p.at(), "PATCH",
                        () -> describe(p) + " matches no join point in the " + u.methods.size() + " method(s) its FOR "
                        + "selects (" + abbreviate(u.methods) + "): " + nothing(p));
            } else if (u.applied > 0) {
                u.skipped.forEach((reason, where) -> log.warning("PATCHes skipped at some places", p.at(), "PATCH",
                        () -> describe(p) + " skipped at " + where.size() + (u.onlyMethods ? " method(s)"
                        : " join point(s)") + " because " + reason + ": " + abbreviate(where)));
            }
        });
    }

    /** Errors: patches that apply nowhere they were asked for, for reasons no other error explains. */
    public List<Problem> errors() {
        List<Problem> errors = new ArrayList<>();
        byPatch.forEach((p, u) -> {
            if (u.applied == 0 && u.matched > 0) {
                u.skipped.forEach((reason, where) -> errors.add(Problem.error(p.at(), "PATCH", describe(p)
                        + " applies nowhere it was asked for: skipped at " + where.size()
                        + (u.onlyMethods ? " method(s)" : " join point(s)") + " because " + reason + ": "
                        + abbreviate(where))));
            }
        });
        return errors;
    }

    private static String describe(Patch p) {
        return "WHAT='" + p.what() + "' MODE='" + p.mode() + "'";
    }

    /** What none of the selected methods has, for the warning about a patch that matches no join point. */
    private static String nothing(Patch p) {
        String has = switch (p.what()) {
            case ENTER, BLOCK_START -> "has code";
            case EXIT -> "returns normally";
            case CALL -> "makes a call";
            case SYNC_TEST, SYNC_ENTER, SYNC_EXIT -> "is synchronized or has a synchronized block";
            case FIELD_ACCESS -> "reads an instance field";
            case STATIC_ACCESS -> "reads a static field";
            case FIELD_WRITE -> "writes an instance field";
            case STATIC_WRITE -> "writes a static field";
            case OBJECT_ALLOC -> "creates an object";
            case ARRAY_ALLOC -> "creates an array of references";
            case BASE_ARRAY_ALLOC -> "creates an array of a primitive type";
        };
        List<When> narrowing = p.whens().stream().filter(w -> w.kind() != WhenCase.BLOCK).toList();
        String whens = narrowing.stream().map(w -> "WHEN CASE='" + w.kind() + "' ARG='" + w.arg() + "'")
                .collect(Collectors.joining(" and "));
        String callJoinPoints = p.what() == What.CALL ? " (calls of constructors, super calls and invokedynamic are "
                + "not CALL join points)" : "";
        return "none of them " + has + (narrowing.isEmpty() ? "" : " that " + whens + (narrowing.size() == 1
                ? " selects" : " select")) + callJoinPoints;
    }

    private static String abbreviate(List<String> items) {
        return items.size() <= 3 ? String.join(", ", items)
                : String.join(", ", items.subList(0, 3)) + " and " + (items.size() - 3) + " more";
    }
}
