package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.bytecode.MethodCode;
import org.dyper.patch.model.Arg;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.What;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.scan.MethodInfo;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The plain shape, woven without AspectJ: a method whose patches are all ENTER patches with static mode methods and no
 * context (COUNT at ENTER, a broad model's every method) gets one call at its entry, inserted by the bytecode pass,
 * of a wrapper method that every method with the same patches shares; the method's site id is the wrapper's first
 * parameter, pushed as a constant by the call. AspectJ would compile and match one advice per method, about 1 ms each
 * (docs/performance.md); a broad COUNT model's thousands of methods share one wrapper here, and their classes need no
 * ajc at all. The wrapper's body is the code advice would run (the same {@link ModeCalls}: guard, calls, failure
 * sink), and AspectJ's before advice was a call too ({@code aspectOf()} and an instance method), so the woven code
 * costs the same per call.
 */
final class PlainCalls {
    /** System property: {@code false} writes AspectJ advice for these patches too (to compare the two ways). */
    static final String PROPERTY = "dyper.generate.plainCalls";
    private static final String NAME = "p$";

    private final GenerationContext ctx;
    private final ModeCalls calls;
    private final boolean enabled = !"false".equals(System.getProperty(PROPERTY));
    /** Wrapper parameters and body to the wrapper's name: methods whose patches read the same share it. */
    private final Map<String, String> byText = new HashMap<>();

    PlainCalls(GenerationContext ctx, ModeCalls calls) {
        this.ctx = ctx;
        this.calls = calls;
    }

    /**
     * Whether the patches of one method take this way: every one at WHAT ENTER without WHEN, of a mode without a
     * CONTEXT class whose CODEs neither set nor read a context (a context needs a local both sides share, or the
     * context stack; those stay AspectJ advice). Decided from the model alone: mode methods are resolved (and their
     * problems reported) where the calls are written, as for advice.
     */
    boolean fits(List<PlannedPatch> uses) {
        if (!enabled || uses.isEmpty()) {
            return false;
        }
        for (PlannedPatch use : uses) {
            if (use.patch().what() != What.ENTER || !use.patch().whens().isEmpty()) {
                return false;
            }
            if (use.mode().contextClass() != null) {
                return false;
            }
            for (Code code : use.mode().codes()) {
                if (code.returnsContext() || code.args().stream().map(Arg::type).anyMatch(t -> t == ArgType.CONTEXT)
                        || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.CONTEXT)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Applies {@code uses} (which {@link #fits}) at the entry of {@code m}, adding its class to {@code woven}; each
     * patch is counted as matched and applied or skipped, as for advice. Returns false, having done nothing, when the
     * entry cannot be placed (see {@link MethodCode#entry}): then the caller writes advice.
     */
    boolean apply(MethodInfo m, List<PlannedPatch> uses, Set<String> woven) {
        MethodCode.Entry entry = entry(m);
        if (entry == null) {
            return false;
        }
        JoinPoint execution = JoinPoint.unnamedExecution(m);
        AdviceBuilder builder = new AdviceBuilder(new JoinPointGroups.Group(execution, uses), ctx);
        builder.methodIdParameter = true;
        PhasedCode code = calls.forGroup(builder);
        if (code.isEmpty()) {
            return true;
        }
        List<String> formals = new ArrayList<>(List.of("int " + AdviceBuilder.METHOD_ID));
        StringBuilder descriptor = new StringBuilder("(I");
        List<BytecodePlan.Push> pushes = new ArrayList<>(List.of(new BytecodePlan.Constant(builder.methodId())));
        if (builder.usesSelf && builder.selfBound) {
            formals.add(BytecodeWrappers.formal(ctx, Type.getObjectType(m.owner().replace('.', '/')), "self",
                    descriptor));
            pushes.add(new BytecodePlan.Load(Opcodes.ALOAD, 0));
        }
        Type[] params = Type.getArgumentTypes(m.descriptor());
        int slot = m.isStatic() ? 0 : 1;
        for (int i = 1; i <= params.length; i++) {
            if (builder.argsUsed.contains(i)) {
                formals.add(BytecodeWrappers.formal(ctx, params[i - 1], "a" + i, descriptor));
                pushes.add(new BytecodePlan.Load(params[i - 1].getOpcode(Opcodes.ILOAD), slot));
            }
            slot += params[i - 1].getSize();
        }
        descriptor.append(")V");
        String header = String.join(", ", formals);
        String body = Source.guarded(code.beforeText());
        String key = header + "\n" + body;
        String name = byText.get(key);
        if (name == null) {
            name = NAME + (ctx.plainWrappers.size() + 1);
            byText.put(key, name);
            StringBuilder patches = new StringBuilder();
            for (PlannedPatch u : uses) {
                patches.append(' ').append(u.patch().what()).append(' ').append(u.patch().mode()).append(" (")
                        .append(u.patch().at()).append(')');
            }
            ctx.plainWrappers.add(new AspectFiles.Piece(m.owner(), "    // at the entry of each method with the "
                    + "patches" + patches + " (first " + m.displayName() + ")\n    public static void " + name + "("
                    + header + ") {\n" + Source.indent(Source.indent(body)) + "\n    }\n"));
        }
        String aspect = AspectFiles.plainAspect(ctx.pkg, Integer.parseInt(name.substring(NAME.length())) - 1);
        ctx.bytecode.add(m.owner(), ctx.classFile(m.owner()), m.name() + m.descriptor(), new BytecodePlan.Insertion(
                entry.insn(), entry.after(), aspect.replace('.', '/'), name, descriptor.toString(), pushes, true));
        woven.add(m.owner());
        return true;
    }

    /** Where {@code m} is entered; a constructor's class file is read (once per class) to find its super() call. */
    private MethodCode.Entry entry(MethodInfo m) {
        if (!m.isConstructor()) {
            return new MethodCode.Entry(0, false);
        }
        Optional<ClassNode> node = ctx.classNodes.get(m.owner());
        if (node == null) {
            try {
                node = Optional.of(MethodCode.read(ctx.classFile(m.owner())));
            } catch (RuntimeException e) {
                return null;  // left to AspectJ, which reads the class itself
            }
            ctx.classNodes.put(m.owner(), node);
        }
        if (node.isEmpty()) {
            return null;
        }
        for (MethodNode mn : node.get().methods) {
            if (mn.name.equals(m.name()) && mn.desc.equals(m.descriptor())) {
                return MethodCode.entry(node.get(), mn);
            }
        }
        return null;
    }
}
