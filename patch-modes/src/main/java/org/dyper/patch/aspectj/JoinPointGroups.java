package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.model.Patch;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.plan.Planner;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;

/**
 * The second step of generation: the patches planned for one method, to the join points of that method they apply
 * to, grouped so that each group becomes one advice, with its patches in the order they run.
 */
final class JoinPointGroups {
    /** The patches of one join point group, in the order they run. */
    record Group(JoinPoint joinPoint, List<PlannedPatch> patches) {}

    private JoinPointGroups() {}

    static List<Group> of(MethodInfo method, List<PlannedPatch> uses, GenerationContext ctx) {
        List<Group> result = new ArrayList<>();
        // ENTER patches run before EXIT patches whatever their order in the model, so a context set at ENTER
        // reaches EXIT; likewise SYNC_TEST before SYNC_ENTER
        add(result, JoinPoint.execution(method, ctx.names), uses, What.ENTER, What.EXIT);
        if (method.entersMonitors()) {
            add(result, JoinPoint.lock(method, false, ctx.names), uses, What.SYNC_TEST, What.SYNC_ENTER);
            add(result, JoinPoint.lock(method, true, ctx.names), uses, What.SYNC_EXIT);
        }
        if (has(uses, What.CALL)) {
            for (JoinPoint call : JoinPoint.calls(method, ctx.names)) {
                add(result, call, uses.stream().filter(u -> u.patch().what() == What.CALL
                        && matches(u.patch(), call.call.owner(), call.call.name())).toList());
            }
        }
        if (uses.stream().anyMatch(u -> Planner.FIELD_WHATS.contains(u.patch().what()))) {
            for (JoinPoint field : JoinPoint.fieldAccesses(method, ctx.targets, ctx.names)) {
                add(result, field, uses.stream().filter(u -> u.patch().what() == field.what()
                        && matches(u.patch(), field.field.owner(), field.field.name())).toList());
            }
        }
        if (uses.stream().anyMatch(u -> Planner.ALLOC_WHATS.contains(u.patch().what()))) {
            for (JoinPoint allocation : JoinPoint.allocations(method, ctx.names)) {
                add(result, allocation, uses.stream().filter(u -> u.patch().what() == allocation.what()
                        && matches(u.patch(), allocation.allocation.type(), null)).toList());
            }
        }
        return result;
    }

    static void needJoinpoints(JoinPoint.Kind kind, StringBuilder joinpoints) {
        String name = kind == JoinPoint.Kind.LOCK || kind == JoinPoint.Kind.UNLOCK ? "synchronization"
                : kind == JoinPoint.Kind.NEW_ARRAY ? "arrayconstruction" : null;
        if (name != null && joinpoints.indexOf(name) < 0) {
            joinpoints.append(joinpoints.length() == 0 ? "" : ",").append(name);
        }
    }

    private static boolean has(List<PlannedPatch> uses, What what) {
        return uses.stream().anyMatch(u -> u.patch().what() == what);
    }

    /** Adds a group for {@code joinPoint} with the uses of the given WHATs, in the order the WHATs are given. */
    private static void add(List<Group> groups, JoinPoint joinPoint, List<PlannedPatch> uses, What... whats) {
        List<PlannedPatch> selected = new ArrayList<>();
        for (What w : whats) {
            uses.stream().filter(u -> u.patch().what() == w).forEach(selected::add);
        }
        add(groups, joinPoint, selected);
    }

    private static void add(List<Group> groups, JoinPoint joinPoint, List<PlannedPatch> selected) {
        if (!selected.isEmpty()) {
            groups.add(new Group(joinPoint, selected));
        }
    }

    /**
     * Whether every WHEN of {@code p} selects the member {@code owner.name} (a called method or a field; for an
     * allocation {@code owner} is the allocated type and {@code name} null). A WHEN ARG with a dot is matched against
     * the qualified name.
     */
    static boolean matches(Patch p, String owner, String name) {
        for (When w : p.whens()) {
            if (w.kind() == WhenCase.BLOCK) {
                continue;
            }
            String arg = w.arg();
            String subject = name == null ? owner : arg.contains(".") ? owner + "." + name : name;
            if (!Planner.glob(arg).matcher(subject).matches() && !Planner.glob(arg).matcher(Types.sourceName(subject)).matches()) {
                return false;
            }
        }
        return true;
    }
}
