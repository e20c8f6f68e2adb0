package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.model.Arg;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.Condition;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.plan.ModeMethods.ModeMethod;
import org.dyper.patch.plan.PatchChecks;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.scan.Types;
import org.dyper.patch.aspectj.ModeValues.Value;

/**
 * The third step of generation: each CODE of a patch's mode, at one join point group, to one guarded,
 * failure-isolated call of its mode method, by {@link Phase}. A patch that cannot apply at this join point is
 * skipped there (with an error when the mode itself is wrong) and the others still apply.
 */
final class ModeCalls {
    /** The package of Dyper's own runtime: its library modes need no hook guard (see {@link #statement}). */
    private static final String RUNTIME_PACKAGE = org.dyper.runtime.Dyper.class.getPackageName() + ".";
    /** ARG types whose Java type depends on the patched method, so a mismatch skips that method only. */
    private static final java.util.Set<ArgType> VARYING = java.util.Set.of(ArgType.RETURN, ArgType.ARG,
            ArgType.FIELD);

    /** Skips the patch here for {@code refusal}, a reason decided once for the whole patch ({@link PatchChecks}). */
    private static void refuse(java.util.Optional<String> refusal) throws Skip {
        if (refusal.isPresent()) {
            throw new Skip(refusal.get());
        }
    }

    /** Thrown while building one patch at one join point when it cannot apply there (e.g. RETURN of a void method). */
    static final class Skip extends Exception {
        Skip(String reason) {
            super(reason, null, false, false);
        }
    }

    private final GenerationContext ctx;
    private final ModeValues modeValues;

    ModeCalls(GenerationContext ctx) {
        this.ctx = ctx;
        this.modeValues = new ModeValues(ctx);
    }

    /**
     * The mode calls of every patch of {@code builder}'s group that applies there, by phase; each patch is counted as
     * matched, and as applied or skipped (with the reason).
     */
    PhasedCode forGroup(AdviceBuilder builder) {
        PhasedCode code = new PhasedCode();
        JoinPointGroups.Group group = builder.group;
        for (PlannedPatch use : group.patches()) {
            Phase phase = phaseOf(use, builder);
            List<String> statements = new ArrayList<>();
            ctx.usage.matched(use.patch());
            int errorsBefore = ctx.log.errorCount();
            try {
                if (group.joinPoint().ambiguity != null) {
                    throw new Skip(group.joinPoint().ambiguity);
                }
                for (Code c : use.mode().codes()) {
                    statements.add(statement(use, c, builder, phase));
                }
            } catch (Skip skip) {
                ctx.usage.skipped(use.patch(), skip.getMessage(), builder.where(), ctx.log.errorCount() > errorsBefore,
                        builder.joinPoint.kind == JoinPoint.Kind.EXECUTION);
                continue;
            }
            ctx.usage.applied(use.patch());
            code.add(phase, statements);
        }
        return code;
    }

    /** When a patch's calls run: fixed by its WHAT, after the join point when they read its result or context. */
    Phase phaseOf(PlannedPatch use, AdviceBuilder builder) {
        boolean bindsReturn = false;
        boolean usesContext = false;
        boolean bindsThrown = false;
        for (Code code : use.mode().codes()) {
            for (Arg a : code.args()) {
                bindsReturn |= a.type() == ArgType.RETURN;
                bindsThrown |= a.type() == ArgType.EXCEPTION;
                usesContext |= a.type() == ArgType.CONTEXT;
            }
            for (Condition c : code.conditions()) {
                bindsReturn |= c.type() == ConditionType.RETURN;
                usesContext |= c.type() == ConditionType.CONTEXT;
            }
        }
        return switch (use.patch().what()) {
            case ENTER, SYNC_TEST, SYNC_EXIT, FIELD_WRITE, STATIC_WRITE -> Phase.BEFORE;
            case EXIT -> bindsReturn ? Phase.AFTER_RETURNING : Phase.AFTER_ALWAYS;
            case SYNC_ENTER -> Phase.AFTER_ALWAYS;
            default -> bindsReturn ? Phase.AFTER_RETURNING
                    : usesContext && builder.contextSet || bindsThrown ? Phase.AFTER_ALWAYS : Phase.BEFORE;
        };
    }

    /** One guarded, failure-isolated call of a mode method. */
    String statement(PlannedPatch use, Code code, AdviceBuilder builder, Phase phase) throws Skip {
        ModeMethod target = ctx.modeMethods.of(code).orElse(null);
        if (target == null) {
            throw new Skip("its mode method could not be resolved");
        }
        String where = PatchChecks.where(use.patch());
        String contextType = use.mode().contextClass();
        boolean touchesContext = PatchChecks.touchesContext(code, target);
        refuse(ctx.checks.contextAllowed(use, code, target, builder.point != null));
        if (touchesContext && builder.contextType != null && !builder.contextType.equals(contextType)) {
            ctx.error(code.at(), "CODE", "mode '" + use.mode().name() + "' has CONTEXT='" + contextType
                    + "' but an earlier patch of the same invocation set a context of type " + builder.contextType
                    + where);
            throw new Skip("of a context type conflict");
        }
        if (PatchChecks.usesContext(code, target) && !builder.contextSet) {
            ctx.error(code.at(), "CODE", "uses CONTEXT but no earlier patch of the same invocation sets it with "
                    + "<RETURN TYPE='CONTEXT'/> (an ENTER patch for EXIT, an earlier CALL patch for CALL)" + where);
            throw new Skip("no patch sets the context");
        }
        refuse(ctx.checks.receiver(use, code, target));

        List<String> tests = new ArrayList<>();
        for (Condition c : code.conditions()) {
            tests.add(condition(c, use, builder, phase, where));
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < code.args().size(); i++) {
            Arg a = code.args().get(i);
            String paramType = i < target.parameters().size() ? target.parameters().get(i) : "java.lang.Object";
            Value v = modeValues.value(a, use, builder, where);
            values.add(convert(v, paramType, a, where));
        }
        String receiver = Types.sourceType(target.className());
        if (!target.isStatic()) {
            tests.add(0, "ctx != null");
            receiver = "((" + Types.sourceType(target.className()) + ") ctx)";
        }
        String invocation = receiver + "." + target.name() + "(" + String.join(", ", values) + ")";
        refuse(ctx.checks.contextResult(use, code, target));
        if (code.returnsContext()) {
            String cast = Types.isPrimitive(contextType) ? "" : "(" + Types.sourceType(contextType) + ") ";
            invocation = "ctx = " + cast + invocation;
            builder.contextSet = true;
            builder.contextType = contextType;
        } else if (touchesContext && builder.contextType == null) {
            builder.contextType = contextType;
        }
        // a mode of the user's own may reach patched code: that code is not measured while the hook runs (Dyper's
        // library modes call only its runtime, which never does, and pay nothing for this)
        boolean own = !target.className().startsWith(RUNTIME_PACKAGE);
        String call = (own ? Source.RUNTIME + ".enterHook();\n" : "") + invocation + ";";
        if (!tests.isEmpty()) {
            call = "if (" + String.join(" && ", tests) + ") {\n" + Source.indent(call) + "\n}";
        }
        return "try {\n" + Source.indent(call) + "\n} catch (Throwable t$) {\n    " + Source.RUNTIME + ".hookFailed("
                + builder.methodIdText() + ", t$);\n}" + (own ? " finally {\n    " + Source.RUNTIME + ".exitHook();\n}"
                : "");
    }

    String condition(Condition c, PlannedPatch use, AdviceBuilder builder, Phase phase, String where) throws Skip {
        if (c.type() == ConditionType.LOCAL && builder.point == null) {
            throw new IllegalStateException("CONDITION TYPE='LOCAL' outside the bytecode pass");
        }
        if (c.type() == ConditionType.CONTEXT) {
            String t = builder.contextType;
            if (t == null || !Types.isPrimitive(t)) {
                return "ctx != null";
            }
            return t.equals("boolean") ? "ctx" : "ctx != " + Types.zero(t);
        }
        Value v = switch (c.type()) {
            case FIELD -> modeValues.field(c.lvalue(), builder);
            case RETURN -> modeValues.returnValue(c.at(), "CONDITION", use, builder, where);
            case LOCAL -> modeValues.local(c.lvalue(), c.at(), "CONDITION", builder, where);
            default -> modeValues.argument(Integer.parseInt(c.lvalue().trim()), c.at(), "CONDITION", use, builder,
                    where);
        };
        String rvalue = c.rvalue().trim();
        boolean reference = v.type() == null || !Types.isPrimitive(v.type());
        if (rvalue.equalsIgnoreCase("NULL") || rvalue.equalsIgnoreCase("NONNULL")) {
            if (!reference) {
                throw new Skip("CONDITION " + rvalue.toUpperCase() + " tests a " + v.type() + ", not a reference");
            }
            return v.expression() + (rvalue.equalsIgnoreCase("NULL") ? " == null" : " != null");
        }
        if (reference) {
            throw new Skip("CONDITION compares a reference (" + v.type() + ") with the number " + rvalue);
        }
        if (v.type().equals("boolean")) {
            return "(" + v.expression() + " ? 1 : 0) == " + rvalue;
        }
        return v.expression() + " == " + rvalue;
    }

    /** Passes a value to a declared parameter, refusing what would need boxing or cannot fit. */
    String convert(Value v, String paramType, Arg a, String where) throws Skip {
        if (v.type() == null) {
            if (Types.isPrimitive(paramType)) {
                ctx.error(a.at(), "ARG", "TYPE='" + a.type() + "' is null but the mode method's parameter is "
                        + paramType + where);
                throw new Skip("null passed to a primitive parameter");
            }
            return "null";
        }
        boolean valuePrimitive = Types.isPrimitive(v.type());
        boolean paramPrimitive = Types.isPrimitive(paramType);
        boolean fits = valuePrimitive && paramPrimitive ? Types.primitiveWidens(v.type(), paramType)
                : valuePrimitive == paramPrimitive;
        if (!fits) {
            String reason = "ARG TYPE='" + a.type() + "' is a " + v.type() + " but the mode method takes a " + paramType
                    + (valuePrimitive != paramPrimitive ? " (Dyper never boxes)" : "");
            if (!VARYING.contains(a.type())) {
                // the value's type is the same at every site: the mode itself is wrong
                ctx.error(a.at(), "ARG", reason + where);
            }
            throw new Skip(reason);
        }
        if (paramType.equals("java.lang.Object") || paramType.equals(v.type())) {
            return v.expression();
        }
        return "(" + ctx.formalType(paramType) + ") " + v.expression();
    }
}
