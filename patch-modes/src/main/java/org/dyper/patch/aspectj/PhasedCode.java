package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.List;

/**
 * The mode calls of one advice by {@link Phase}, in the model's order: what runs before the join point, and what
 * runs after it, each patch's statements marked with whether they run on normal returns only. {@link AdviceWriter}
 * renders them into before, after returning, after (throwing) or around advice.
 */
final class PhasedCode {
    /** The statements of the patches that run after the join point, and whether they run on normal returns only. */
    record After(Phase phase, String statements) {
        boolean returningOnly() {
            return phase == Phase.AFTER_RETURNING;
        }
    }

    final List<String> before = new ArrayList<>();
    final List<After> after = new ArrayList<>();

    void add(Phase phase, List<String> statements) {
        if (phase == Phase.BEFORE) {
            before.addAll(statements);
        } else {
            after.add(new After(phase, String.join("\n", statements)));
        }
    }

    boolean isEmpty() {
        return before.isEmpty() && after.isEmpty();
    }

    boolean anyReturning() {
        return after.stream().anyMatch(After::returningOnly);
    }

    boolean anyAlways() {
        return after.stream().anyMatch(a -> !a.returningOnly());
    }

    String beforeText() {
        return String.join("\n", before);
    }

    /** The after patches of {@code phase} only, joined. */
    String afterText(Phase phase) {
        return String.join("\n", after.stream().filter(a -> a.phase() == phase).map(After::statements).toList());
    }

    /** Every after patch, for a {@code finally} block: the returning ones guarded by the {@code normal$} flag. */
    String afterInFinally() {
        return String.join("\n", after.stream().map(a -> a.returningOnly()
                ? "if (normal$) {\n" + Source.indent(a.statements()) + "\n}" : a.statements()).toList());
    }

    /**
     * The after patches for advice that runs on normal returns only, where the guard is not needed: each returning
     * patch in a block of its own; with {@code withAlways} the patches that run on every exit too, in model order.
     */
    String afterOnReturn(boolean withAlways) {
        return String.join("\n", after.stream().filter(a -> withAlways || a.returningOnly())
                .map(a -> a.returningOnly() ? "{\n" + Source.indent(a.statements()) + "\n}" : a.statements())
                .toList());
    }
}
