package org.dyper.patch.aspectj;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.patch.bytecode.MethodCode;
import org.dyper.patch.scan.MethodInfo;

/**
 * What one advice (or bytecode-pass wrapper) being written needs from its join point, collected while its mode calls
 * are written: which values the pointcut must bind (this, target, arguments, the returned value, locals) and the
 * context its patches share. Not to be confused with a site id, the number that names a method in reports.
 */
final class AdviceBuilder {
    final JoinPointGroups.Group group;
    final JoinPoint joinPoint;
    final MethodInfo method;
    final boolean selfBound;
    final String selfType;
    final List<String> params;
    final String returnType;
    final Set<Integer> argsUsed = new LinkedHashSet<>();
    boolean usesSelf;
    boolean usesTarget;
    String contextType;
    boolean contextSet;
    /** Bytecode pass only: where the wrapper is called, the method's code, and what the wrapper takes. */
    BytecodeWrappers.Point point;
    MethodCode code;
    boolean usesReturn;
    /** An after patch reads the exception that ends the join point ({@code thrown$}, ARG TYPE='EXCEPTION'). */
    boolean usesThrown;
    final Map<Integer, String> locals = new LinkedHashMap<>();
    /**
     * A shared wrapper ({@link PlainCalls}): the method's site id is the wrapper's parameter {@link #METHOD_ID}, which
     * each call passes as a constant, instead of a literal in the code.
     */
    boolean methodIdParameter;
    private final SiteIdTable ids;
    /** The name of the site-id parameter of a shared wrapper. */
    static final String METHOD_ID = "m$";

    AdviceBuilder(JoinPointGroups.Group group, GenerationContext ctx) {
        this.group = group;
        this.joinPoint = group.joinPoint();
        this.method = joinPoint.method;
        this.selfBound = !method.isStatic();
        this.selfType = ctx.formalType(method.owner());
        this.params = joinPoint.params;
        this.returnType = joinPoint.returnType;
        this.ids = ctx.ids;
    }

    /** The site id of the patched method. */
    int methodId() {
        return ids.method(method);
    }

    /** How the code spells the site id of the patched method (METHODID, and where a failure is counted). */
    String methodIdText() {
        return methodIdParameter ? "(" + AspectFiles.SITES_CLASS + ".BASE + " + METHOD_ID + ")"
                : AspectFiles.id(methodId());
    }

    /** The join point and its patches, for the comment above the advice. */
    String describe() {
        StringBuilder s = new StringBuilder(joinPoint.describe()).append(':');
        for (org.dyper.patch.plan.PlannedPatch u : group.patches()) {
            s.append(' ').append(u.patch().what()).append(' ').append(u.patch().mode()).append(" (")
                    .append(u.patch().at()).append(')');
        }
        return s.toString();
    }

    /** Where a skipped patch was, for its warning. */
    String where() {
        return joinPoint.subject;
    }
}
