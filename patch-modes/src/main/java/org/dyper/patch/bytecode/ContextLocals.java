package org.dyper.patch.bytecode;

import org.dyper.patch.aspectj.Generator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Run-time patching of a method whose ENTER and EXIT patches share a context (TIME_ENTER → TIME_EXIT, say): the
 * context lives in a local variable of the method, as around advice keeps it, instead of on the per-thread
 * {@code ContextStack} that before/after advice needs. Around advice itself cannot be used: ajc inlines it into new
 * methods, which a running class cannot gain; this adds only code and two locals. The method gets, before its first
 * instruction, {@code on = Dyper.on(); ctx = enter(on, ...)}, before every return {@code exit(ret, on, ctx, true,
 * ...)}, and a handler around its body that calls {@code exit(zero, on, ctx, false, ...)} and rethrows, so EXIT runs on
 * every exit, as at build time. The generated {@code enter} and {@code exit} wrappers hold the patches' code. Every
 * stack map frame gets the two locals; the handler's frame names {@code this} and the parameters the wrappers take.
 * Constructors are left to the context stack (their {@code this} is not initialised before the super call).
 */
public final class ContextLocals {
    private static final String DYPER = "org/dyper/runtime/Dyper";

    private ContextLocals() {}

    /**
     * What the method calls: the wrapper class and its {@code enter} ({@code (Z...)context}) and {@code exit}
     * ({@code ([returned]Z context Z ...)V}) methods, the context's descriptor, the descriptor of the returned value
     * passed first to {@code exit} (null when none is), and how the other wrapper arguments are loaded.
     */
    public record Plan(String owner, String enter, String enterDescriptor, String exit, String exitDescriptor,
                       String context, String returned, boolean thrown, List<BytecodePlan.Push> pushes) {
        public Plan {
            pushes = List.copyOf(pushes);
        }
    }

    /** The Java source of a method's two wrappers, and the plan of the calls to them. */
    public record Wrappers(String source, Plan plan) {}

    /** How the generator spells a wrapper parameter, appending its descriptor (see {@code Generator.formal}). */
    @FunctionalInterface
    public interface Formal {
        String of(Type t, String name, StringBuilder descriptor);
    }

    /**
     * The wrappers {@code <name>e} (takes the monitoring flag, {@code this} when used and the parameters used, runs
     * {@code before} when on, returns the context) and {@code <name>x} (takes the returned value when used, the flag,
     * the context, whether the return is normal and, with {@code thrown}, the exception that ends the method (null on a
     * normal return), then the same values; runs {@code after} when on) in the class
     * {@code owner} (internal name), for method {@code m} whose context has Java type {@code contextType}. The
     * statements are the generator's, with {@code ctx}, {@code self}, {@code aN}, {@code ret}, {@code normal$} and
     * {@code thrown$};
     * {@code formal} and {@code javaType} spell types as the generator does (types it cannot name as Object).
     */
    public static Wrappers wrappers(org.dyper.patch.scan.MethodInfo m, String contextType, boolean self,
                             java.util.Set<Integer> args, boolean returned, boolean thrown, List<String> before,
                             List<String> after,
                             String comment, String owner, String name, Formal formal,
                             java.util.function.UnaryOperator<String> javaType) {
        Type context = switch (contextType) {
            case "boolean" -> Type.BOOLEAN_TYPE;
            case "byte" -> Type.BYTE_TYPE;
            case "char" -> Type.CHAR_TYPE;
            case "short" -> Type.SHORT_TYPE;
            case "int" -> Type.INT_TYPE;
            case "long" -> Type.LONG_TYPE;
            case "float" -> Type.FLOAT_TYPE;
            case "double" -> Type.DOUBLE_TYPE;
            default -> Type.getObjectType(contextType.replace('.', '/'));
        };
        StringBuilder common = new StringBuilder();
        List<String> formals = new ArrayList<>();
        List<BytecodePlan.Push> pushes = new ArrayList<>();
        if (self) {
            formals.add(formal.of(Type.getObjectType(m.owner().replace('.', '/')), "self", common));
            pushes.add(new BytecodePlan.Load(Opcodes.ALOAD, 0));
        }
        Type[] params = Type.getArgumentTypes(m.descriptor());
        for (int i = 1, slot = m.isStatic() ? 0 : 1; i <= params.length; slot += params[i - 1].getSize(), i++) {
            if (args.contains(i)) {
                formals.add(formal.of(params[i - 1], "a" + i, common));
                pushes.add(new BytecodePlan.Load(params[i - 1].getOpcode(Opcodes.ILOAD), slot));
            }
        }
        StringBuilder exitDescriptor = new StringBuilder("(");
        String retFormal = returned ? formal.of(Type.getReturnType(m.descriptor()), "ret", exitDescriptor)
                + ", " : "";
        String returnedDescriptor = returned ? exitDescriptor.substring(1) : null;
        exitDescriptor.append('Z').append(context.getDescriptor()).append('Z')
                .append(thrown ? "Ljava/lang/Throwable;" : "").append(common).append(")V");
        String type = javaType.apply(contextType);
        String rest = formals.isEmpty() ? "" : ", " + String.join(", ", formals);
        String source = "    // " + comment + ": the context in a local of the method\n    public static " + type + " "
                + name + "e(boolean on$" + rest + ") {\n        " + type + " ctx = "
                + org.dyper.patch.scan.Types.zero(contextType) + ";\n        if (on$) {\n" + body(before)
                + "\n        }\n        return ctx;\n    }\n    public static void " + name + "x(" + retFormal
                + "boolean on$, " + formal.of(context, "ctx", new StringBuilder()) + ", boolean normal$"
                + (thrown ? ", java.lang.Throwable thrown$" : "") + rest
                + ") {\n        if (on$) {\n" + body(after) + "\n        }\n    }\n";
        return new Wrappers(source, new Plan(owner, name + "e", "(Z" + common + ")" + context.getDescriptor(),
                name + "x", exitDescriptor.toString(), context.getDescriptor(), returnedDescriptor, thrown, pushes));
    }

    private static String body(List<String> statements) {
        String text = String.join("\n", statements);
        return text.isEmpty() ? text : "            " + text.replace("\n", "\n            ");
    }

    /** The class file with every method of {@code plans} (by name + descriptor) rewritten. */
    static byte[] apply(byte[] classFile, Map<String, Plan> plans) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
        for (MethodNode m : node.methods) {
            Plan plan = plans.get(m.name + m.desc);
            if (plan != null) {
                rewrite(node, m, plan);
            }
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        node.accept(writer);
        return writer.toByteArray();
    }

    private static void rewrite(ClassNode owner, MethodNode m, Plan plan) {
        Type context = Type.getType(plan.context());
        int on = m.maxLocals;
        int ctx = on + 1;
        List<AbstractInsnNode> returns = new ArrayList<>();
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() >= Opcodes.IRETURN && insn.getOpcode() <= Opcodes.RETURN) {
                returns.add(insn);
            }
        }
        // frames first (only the method's own): from here on every frame knows the two locals
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof FrameNode f) {
                f.local = withLocals(f.local, on, context);
            }
        }
        InsnList entry = new InsnList();
        entry.add(new MethodInsnNode(Opcodes.INVOKESTATIC, DYPER, "on", "()Z", false));
        entry.add(new VarInsnNode(Opcodes.ISTORE, on));
        entry.add(new VarInsnNode(Opcodes.ILOAD, on));
        pushes(entry, plan);
        entry.add(new MethodInsnNode(Opcodes.INVOKESTATIC, plan.owner(), plan.enter(), plan.enterDescriptor(), false));
        entry.add(new VarInsnNode(context.getOpcode(Opcodes.ISTORE), ctx));
        LabelNode start = new LabelNode();
        entry.add(start);
        m.instructions.insert(entry);
        List<LabelNode[]> covered = new ArrayList<>();
        LabelNode from = start;
        for (AbstractInsnNode ret : returns) {
            InsnList exit = new InsnList();
            LabelNode to = new LabelNode();
            exit.add(to);
            if (plan.returned() != null) {
                exit.add(new InsnNode(Type.getType(plan.returned()).getSize() == 2 ? Opcodes.DUP2 : Opcodes.DUP));
            }
            exitCall(exit, plan, on, ctx, context, -1);
            m.instructions.insertBefore(ret, exit);
            covered.add(new LabelNode[] {from, to});
            from = new LabelNode();
            m.instructions.insert(ret, from);
        }
        LabelNode end = new LabelNode();
        m.instructions.add(end);
        covered.add(new LabelNode[] {from, end});
        LabelNode handler = new LabelNode();
        InsnList h = new InsnList();
        h.add(handler);
        Object[] locals = handlerLocals(owner, m, on, context);
        h.add(new FrameNode(Opcodes.F_NEW, locals.length, locals, 1, new Object[] {"java/lang/Throwable"}));
        // the exception, kept in a local past the two when the exit wrapper takes it, is thrown on as it came
        int thrown = plan.thrown() ? ctx + context.getSize() : -2;
        if (plan.thrown()) {
            h.add(new VarInsnNode(Opcodes.ASTORE, thrown));
        }
        if (plan.returned() != null) {
            h.add(zero(Type.getType(plan.returned())));
        }
        exitCall(h, plan, on, ctx, context, thrown);
        if (plan.thrown()) {
            h.add(new VarInsnNode(Opcodes.ALOAD, thrown));
        }
        h.add(new InsnNode(Opcodes.ATHROW));
        m.instructions.add(h);
        for (LabelNode[] range : covered) {
            if (hasCode(range[0], range[1])) {
                // after the method's own handlers, so it is the outermost: it sees what they let through
                m.tryCatchBlocks.add(new TryCatchBlockNode(range[0], range[1], handler, null));
            }
        }
    }

    /**
     * The call of the exit wrapper: on a normal return ({@code thrown} -1), or from the handler ({@code thrown} the
     * local holding the exception, or -2 when the wrapper does not take it).
     */
    private static void exitCall(InsnList code, Plan plan, int on, int ctx, Type context, int thrown) {
        code.add(new VarInsnNode(Opcodes.ILOAD, on));
        code.add(new VarInsnNode(context.getOpcode(Opcodes.ILOAD), ctx));
        code.add(new InsnNode(thrown == -1 ? Opcodes.ICONST_1 : Opcodes.ICONST_0));
        if (plan.thrown()) {
            code.add(thrown == -1 ? new InsnNode(Opcodes.ACONST_NULL) : new VarInsnNode(Opcodes.ALOAD, thrown));
        }
        pushes(code, plan);
        code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, plan.owner(), plan.exit(), plan.exitDescriptor(), false));
    }

    private static void pushes(InsnList code, Plan plan) {
        for (BytecodePlan.Push p : plan.pushes()) {
            if (p instanceof BytecodePlan.Load l) {
                code.add(new VarInsnNode(l.opcode(), l.slot()));
            }
        }
    }

    private static AbstractInsnNode zero(Type t) {
        return new InsnNode(switch (t.getSort()) {
            case Type.LONG -> Opcodes.LCONST_0;
            case Type.FLOAT -> Opcodes.FCONST_0;
            case Type.DOUBLE -> Opcodes.DCONST_0;
            case Type.OBJECT, Type.ARRAY -> Opcodes.ACONST_NULL;
            default -> Opcodes.ICONST_0;
        });
    }

    /** Whether real instructions lie between two labels (an empty handler range is not allowed). */
    private static boolean hasCode(LabelNode from, LabelNode to) {
        for (AbstractInsnNode i = from.getNext(); i != null && i != to; i = i.getNext()) {
            if (i.getOpcode() >= 0) {
                return true;
            }
        }
        return false;
    }

    /** A frame's locals with TOPs up to slot {@code on}, then the monitoring flag and the context. */
    private static List<Object> withLocals(List<Object> locals, int on, Type context) {
        List<Object> l = new ArrayList<>(locals == null ? List.of() : locals);
        int slots = 0;
        for (Object o : l) {
            slots += o == Opcodes.LONG || o == Opcodes.DOUBLE ? 2 : 1;
        }
        while (slots < on) {
            l.add(Opcodes.TOP);
            slots++;
        }
        l.add(Opcodes.INTEGER);
        l.add(frameType(context));
        return l;
    }

    /** The handler's locals: {@code this} and the parameters with their declared types, then the two locals. */
    private static Object[] handlerLocals(ClassNode owner, MethodNode m, int on, Type context) {
        List<Object> l = new ArrayList<>();
        if ((m.access & Opcodes.ACC_STATIC) == 0) {
            l.add(owner.name);
        }
        for (Type p : Type.getArgumentTypes(m.desc)) {
            l.add(frameType(p));
        }
        return withLocals(l, on, context).toArray();
    }

    private static Object frameType(Type t) {
        return switch (t.getSort()) {
            case Type.BOOLEAN, Type.BYTE, Type.CHAR, Type.SHORT, Type.INT -> Opcodes.INTEGER;
            case Type.LONG -> Opcodes.LONG;
            case Type.FLOAT -> Opcodes.FLOAT;
            case Type.DOUBLE -> Opcodes.DOUBLE;
            default -> t.getInternalName();
        };
    }
}
