package org.dyper.patch.plan;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.Patch;
import org.dyper.patch.plan.ModeMethods.ModeMethod;
import org.dyper.patch.scan.Types;

/**
 * What can be decided about a PATCH and each CODE of its mode whatever the join point: decided once per (PATCH, CODE),
 * the first time a join point asks, with its error reported that once; every later join point gets the same reason to
 * skip the patch. Only the reasons that vary by join point (which value a join point offers, what an earlier patch of
 * the same join point set) are decided at each join point.
 */
public final class PatchChecks {
    private record Key(Patch patch, Object subject, String check) {}

    private final ProblemLog log;
    private final Map<Key, Optional<String>> decided = new HashMap<>();

    public PatchChecks(ProblemLog log) {
        this.log = log;
    }

    /**
     * The answer of {@code check} for {@code patch} and {@code subject} (a CODE or an ARG), computed once: empty when
     * the patch can apply, else why not. {@code check} reports its error when it refuses.
     */
    public Optional<String> once(Patch patch, Object subject, String name, Supplier<String> check) {
        Key key = new Key(patch, subject, name);
        Optional<String> known = decided.get(key);
        if (known == null) {
            known = Optional.ofNullable(check.get());
            decided.put(key, known);
        }
        return known;
    }

    /** The end of every error about a patch's code: which PATCH and where. */
    public static String where(Patch p) {
        return " (PATCH WHAT='" + p.what() + "' MODE='" + p.mode() + "' at " + p.at() + ")";
    }

    /** Whether {@code code} uses the context (sets it, reads it, or is called on it). */
    public static boolean touchesContext(Code code, ModeMethod target) {
        return code.returnsContext() || usesContext(code, target);
    }

    /** Whether {@code code} needs a context set before it (reads it, or is called on it). */
    public static boolean usesContext(Code code, ModeMethod target) {
        return !target.isStatic() || code.args().stream().anyMatch(a -> a.type() == ArgType.CONTEXT)
                || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.CONTEXT);
    }

    /**
     * Whether {@code code} may use the context at all: not in a patch the bytecode pass applies, and only when its
     * mode has a CONTEXT attribute. Decided once per (PATCH, CODE).
     */
    public Optional<String> contextAllowed(PlannedPatch use, Code code, ModeMethod target, boolean bytecode) {
        return once(use.patch(), code, "context", () -> {
            if (!touchesContext(code, target)) {
                return null;
            }
            if (bytecode) {
                log.error(code.at(), "CODE", "uses the context, which a patch that the bytecode pass applies "
                        + "(WHAT='BLOCK_START', WHEN CASE='BLOCK', ARG TYPE='LOCAL', 'INSNO', 'BLOCKID', 'REFBLOCKID' "
                        + "or CONDITION TYPE='LOCAL') does not have" + where(use.patch()));
                return "the bytecode pass has no context";
            }
            if (use.mode().contextClass() == null) {
                log.error(code.at(), "CODE", "uses the context but its DYPATCH_MODE '" + use.mode().name()
                        + "' has no CONTEXT attribute" + where(use.patch()));
                return "its mode has no CONTEXT";
            }
            return null;
        });
    }

    /** Whether a mode method that is not static can be called on the mode's context. Decided once per (PATCH, CODE). */
    public Optional<String> receiver(PlannedPatch use, Code code, ModeMethod target) {
        return once(use.patch(), code, "receiver", () -> {
            String contextType = use.mode().contextClass();
            if (!target.isStatic() && Types.isPrimitive(contextType)) {
                log.error(code.at(), "CODE", target.className() + "." + target.name() + " is not static, so it is "
                        + "called on the context, but CONTEXT='" + contextType + "' is a primitive type"
                        + where(use.patch()));
                return "of a non-static method on a primitive context";
            }
            return null;
        });
    }

    /**
     * Whether a CODE with {@code <RETURN TYPE='CONTEXT'/>} returns a value that fits the mode's CONTEXT. Decided once
     * per (PATCH, CODE).
     */
    public Optional<String> contextResult(PlannedPatch use, Code code, ModeMethod target) {
        return once(use.patch(), code, "result", () -> {
            if (!code.returnsContext()) {
                return null;
            }
            String contextType = use.mode().contextClass();
            if (target.returnType().equals("void")) {
                log.error(code.at(), "RETURN", target.className() + "." + target.name() + " returns void, so it "
                        + "cannot set the context" + where(use.patch()));
                return "its mode method returns void";
            }
            boolean fits = Types.isPrimitive(contextType) ? Types.primitiveWidens(target.returnType(), contextType)
                    : !Types.isPrimitive(target.returnType());
            if (!fits) {
                log.error(code.at(), "RETURN", target.className() + "." + target.name() + " returns "
                        + target.returnType() + ", which does not fit CONTEXT='" + contextType + "'"
                        + where(use.patch()));
                return "of a context type mismatch";
            }
            return null;
        });
    }
}
