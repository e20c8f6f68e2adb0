package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.bytecode.ContextLocals;
import org.dyper.patch.bytecode.MethodCode;
import org.dyper.patch.model.ArgType;
import org.dyper.patch.model.Code;
import org.dyper.patch.model.ConditionType;
import org.dyper.patch.model.What;
import org.dyper.patch.model.When;
import org.dyper.patch.model.WhenCase;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.MethodInfo;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * The patches AspectJ cannot express, for the bytecode pass: for each patch and instruction it applies at, a static
 * wrapper method (Java source, in a generated aspect) with the patch's mode calls, and where the target method calls
 * it ({@link BytecodePlan}, applied with ASM before AspectJ weaves).
 */
final class BytecodeWrappers {
    /** The WHATs the bytecode pass can apply a patch at. */
    private static final Set<What> BYTECODE_WHATS = Set.of(What.BLOCK_START, What.ENTER, What.EXIT, What.CALL);
    /** The ARG types only the bytecode pass can give. */
    static final Set<ArgType> BYTECODE_ARGS = Set.of(ArgType.LOCAL, ArgType.INSNO, ArgType.BLOCKID,
            ArgType.REFBLOCKID);

    private final GenerationContext ctx;
    private final ModeCalls calls;

    BytecodeWrappers(GenerationContext ctx, ModeCalls calls) {
        this.ctx = ctx;
        this.calls = calls;
    }

    /**
     * Where the bytecode pass calls a wrapper: before (or after) instruction {@code insn}, as {@code joinPoint}; the
     * values it passes (INSNO, LOCAL, THIS) are those before instruction {@code valuesAt}.
     */
    record Point(int insn, boolean after, JoinPoint joinPoint, int valuesAt) {
        Point(int insn, boolean after, JoinPoint joinPoint) {
            this(insn, after, joinPoint, insn);
        }
    }

    /**
     * Whether AspectJ cannot express the patch, so the bytecode pass applies it: WHAT BLOCK_START, WHEN BLOCK, or a
     * mode that uses ARG LOCAL, INSNO, BLOCKID, REFBLOCKID or CONDITION LOCAL.
     */
    static boolean isBytecode(PlannedPatch use) {
        if (use.patch().what() == What.BLOCK_START
                || use.patch().whens().stream().anyMatch(w -> w.kind() == WhenCase.BLOCK)) {
            return true;
        }
        for (Code code : use.mode().codes()) {
            if (code.args().stream().anyMatch(a -> BYTECODE_ARGS.contains(a.type()))
                    || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.LOCAL)) {
                return true;
            }
        }
        return false;
    }

    private static boolean bindsReturn(PlannedPatch use) {
        for (Code code : use.mode().codes()) {
            if (code.args().stream().anyMatch(a -> a.type() == ArgType.RETURN)
                    || code.conditions().stream().anyMatch(c -> c.type() == ConditionType.RETURN)) {
                return true;
            }
        }
        return false;
    }

    /** The bytecode facts of {@code m}, or null (with an error) when its class file cannot be read. */
    private MethodCode methodCode(MethodInfo m, PlannedPatch use) {
        Optional<ClassNode> node = ctx.classNodes.computeIfAbsent(m.owner(), name -> {
            try {
                return Optional.of(MethodCode.read(ctx.classFile(name)));
            } catch (RuntimeException e) {
                ctx.error(use.patch().at(), "PATCH", "cannot read the class file of " + name + " for the bytecode pass: " + e);
                return Optional.empty();
            }
        });
        if (node.isEmpty()) {
            return null;
        }
        for (MethodNode mn : node.get().methods) {
            if (mn.name.equals(m.name()) && mn.desc.equals(m.descriptor())) {
                return MethodCode.of(node.get(), mn);
            }
        }
        return null;
    }

    /** Applies the bytecode patches of one method: a wrapper method per patch and point, and where to call it. */
    void apply(MethodInfo m, List<PlannedPatch> uses, Set<String> woven) {
        MethodCode mc = null;
        for (PlannedPatch use : uses) {
            What what = use.patch().what();
            if (!BYTECODE_WHATS.contains(what)) {
                ctx.error(use.patch().at(), "PATCH", "WHAT='" + what + "' cannot use ARG TYPE='LOCAL', 'INSNO', "
                        + "'BLOCKID', 'REFBLOCKID' or CONDITION TYPE='LOCAL' yet: the bytecode pass applies patches at "
                        + "WHAT='BLOCK_START', 'ENTER', 'EXIT' and 'CALL' only");
                ctx.usage.skipped(use.patch(), "the bytecode pass cannot apply it", m.displayName(), true, true);
                continue;
            }
            if (mc == null && (mc = methodCode(m, use)) == null) {
                return;
            }
            Integer block = null;
            for (When w : use.patch().whens()) {
                if (w.kind() == WhenCase.BLOCK) {
                    int k = Integer.parseInt(w.arg().trim());
                    block = mc.blockStartingAt(k);
                    if (block < 0) {
                        StringBuilder list = new StringBuilder();
                        for (int b = 0; b < mc.starts.length && b < 20; b++) {
                            list.append(b == 0 ? "" : ", ").append(mc.starts[b]);
                        }
                        ctx.error(w.at(), "WHEN", "CASE='BLOCK' ARG='" + k + "': instruction " + k + " of "
                                + m.displayName() + " does not start a basic block (blocks start at instructions "
                                + list + (mc.starts.length > 20 ? ", ..." : "") + ")");
                    }
                }
            }
            if (block != null && block < 0) {
                ctx.usage.skipped(use.patch(), "its block does not exist", m.displayName(), true, true);
                continue;
            }
            List<Point> points = new ArrayList<>();
            JoinPoint execution = JoinPoint.execution(m, ctx.names);
            for (int i = 0; i < mc.insns.size(); i++) {
                if (block != null && mc.blockOf[i] != block) {
                    continue;
                }
                AbstractInsnNode insn = mc.insns.get(i);
                int op = insn.getOpcode();
                switch (what) {
                    case BLOCK_START -> {
                        if (mc.blockStartingAt(i) >= 0) {
                            points.add(new Point(i, false, execution));
                        }
                    }
                    case ENTER -> {
                        if (!m.isConstructor() && i == 0) {
                            points.add(new Point(0, false, execution));
                        } else if (m.isConstructor() && op == Opcodes.INVOKESPECIAL && mc.thisUninitialisedAt(i)
                                && !mc.thisUninitialisedAt(i + 1)) {
                            // as AspectJ's execution of a constructor: once super() or this() has returned
                            points.add(new Point(i, true, execution, i + 1));
                        }
                    }
                    case EXIT -> {
                        if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                            points.add(new Point(i, false, execution));
                        }
                    }
                    default -> {
                        if (insn instanceof MethodInsnNode call && !call.owner.startsWith("[")) {
                            CallInfo c = new CallInfo(call.owner.replace('/', '.'), call.name, call.desc, op,
                                    mc.lines[i]);
                            if (JoinPoint.isCallJoinPoint(m, c) && JoinPointGroups.matches(use.patch(), c.owner(), c.name())) {
                                points.add(new Point(i, bindsReturn(use), JoinPoint.call(m, c, List.of(), ctx.names)));
                            }
                        }
                    }
                }
            }
            if (!points.isEmpty()) {
                ctx.usage.matched(use.patch());
            }
            for (Point point : points) {
                wrapper(use, point, mc, woven);
            }
        }
    }

    /** Writes the wrapper for one patch at one point and plans its call; a Skip is reported like advice's. */
    private void wrapper(PlannedPatch use, Point point, MethodCode mc, Set<String> woven) {
        AdviceBuilder builder = new AdviceBuilder(new JoinPointGroups.Group(point.joinPoint(), List.of(use)), ctx);
        builder.point = point;
        builder.code = mc;
        List<String> statements = new ArrayList<>();
        int errorsBefore = ctx.log.errorCount();
        try {
            for (Code code : use.mode().codes()) {
                statements.add(calls.statement(use, code, builder, Phase.BEFORE));
            }
        } catch (ModeCalls.Skip skip) {
            ctx.usage.skipped(use.patch(), skip.getMessage(), builder.where(), ctx.log.errorCount() > errorsBefore,
                    builder.joinPoint.kind == JoinPoint.Kind.EXECUTION);
            return;
        }
        ctx.usage.applied(use.patch());
        MethodInfo m = builder.method;
        List<String> formals = new ArrayList<>();
        StringBuilder descriptor = new StringBuilder("(");
        List<BytecodePlan.Push> pushes = new ArrayList<>();
        if (builder.usesReturn) {
            Type t = Type.getReturnType(point.joinPoint().kind == JoinPoint.Kind.CALL ? point.joinPoint().call.descriptor()
                    : m.descriptor());
            formals.add(formal(ctx, t, "ret", descriptor));
            pushes.add(new BytecodePlan.Duplicate(t.getSize()));
        }
        if (builder.usesSelf && builder.selfBound) {
            formals.add(formal(ctx, Type.getObjectType(m.owner().replace('.', '/')), "self", descriptor));
            pushes.add(new BytecodePlan.Load(Opcodes.ALOAD, 0));
        }
        Type[] params = Type.getArgumentTypes(m.descriptor());
        int slot = m.isStatic() ? 0 : 1;
        for (int i = 1; i <= params.length; i++) {
            if (builder.argsUsed.contains(i)) {
                formals.add(formal(ctx, params[i - 1], "a" + i, descriptor));
                pushes.add(new BytecodePlan.Load(params[i - 1].getOpcode(Opcodes.ILOAD), slot));
            }
            slot += params[i - 1].getSize();
        }
        for (Map.Entry<Integer, String> l : builder.locals.entrySet()) {
            Type t = Type.getType(l.getValue());
            formals.add(formal(ctx, t, "l" + l.getKey(), descriptor));
            pushes.add(new BytecodePlan.Load(t.getOpcode(Opcodes.ILOAD), l.getKey()));
        }
        descriptor.append(")V");
        String aspect = AspectFiles.bytecodeAspect(ctx.pkg, ctx.wrappers.size());
        String name = "b$" + (ctx.wrappers.size() + 1);
        int insn = point.insn();
        ctx.wrappers.add(new AspectFiles.Piece(m.owner(), "    // " + builder.joinPoint.describe() + ", " + (point.after() ? "after" : "before") + " instruction "
                + insn + " (block " + mc.blockOf[insn] + ", line " + mc.lines[insn] + "): " + use.patch().what() + " "
                + use.patch().mode() + " (" + use.patch().at() + ")\n    public static void " + name + "("
                + String.join(", ", formals) + ") {\n" + Source.indent(Source.indent(Source.guarded(String.join("\n", statements))))
                + "\n    }\n"));
        ctx.bytecode.add(m.owner(), ctx.classFiles.get(m.owner()), m.name() + m.descriptor(), new BytecodePlan.Insertion(
                insn, point.after(), aspect.replace('.', '/'), name, descriptor.toString(), pushes));
        woven.add(m.owner());
    }

    /** A wrapper parameter; types the generated code cannot name are passed as Object. */
    /** How wrappers spell a parameter, for {@link ContextLocals}. */
    static ContextLocals.Formal formal(GenerationContext ctx) {
        return (t, name, descriptor) -> formal(ctx, t, name, descriptor);
    }

    static String formal(GenerationContext ctx, Type t, String name, StringBuilder descriptor) {
        String javaType = t.getClassName();
        String formal = ctx.formalType(javaType);
        boolean reference = t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY;
        if (reference && formal.startsWith("java.lang.Object") && !javaType.startsWith("java.lang.Object")) {
            descriptor.append("[".repeat(t.getSort() == Type.ARRAY ? t.getDimensions() : 0))
                    .append("Ljava/lang/Object;");
        } else {
            descriptor.append(t.getDescriptor());
        }
        return formal + " " + name;
    }
}
