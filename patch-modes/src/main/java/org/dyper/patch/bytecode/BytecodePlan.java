package org.dyper.patch.bytecode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.AnnotationNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * What the bytecode pass inserts, per class and method: at an instruction (before it or after it), a few loads and
 * one {@code INVOKESTATIC} of a generated wrapper method (void) whose body holds the guarded, failure-isolated mode
 * calls. Nothing else is inserted (no handler, no new local), so the class's stack map frames stay valid and the
 * pass never needs to load classes to compute frames. A class may also get marker annotations (class-file retention,
 * so reflection never sees them) that let AspectJ pointcuts name an anonymous or local class.
 */
public final class BytecodePlan {
    /** How a value the wrapper takes is put on the stack. */
    public sealed interface Push permits Duplicate, Load, Constant {}

    /** Duplicates the value on top of the stack (a returned value): {@code size} 1 or 2 slots. */
    public record Duplicate(int size) implements Push {}

    /** Loads a local slot with {@code opcode} (ILOAD, LLOAD, FLOAD, DLOAD, ALOAD). */
    public record Load(int opcode, int slot) implements Push {}

    /** Pushes the int constant {@code value} (a site id a shared wrapper takes, see {@code PlainCalls}). */
    public record Constant(int value) implements Push {}

    /**
     * One inserted call, at instruction number {@code insn} of the method (before it, or after it). With
     * {@code atEntry} the call belongs at the method's entry ({@link MethodCode#entry}) whatever the instruction's
     * number, so it can be placed again in another version of the same class ({@link #retarget}).
     */
    public record Insertion(int insn, boolean after, String owner, String name, String descriptor, List<Push> pushes,
                            boolean atEntry) {
        public Insertion {
            pushes = List.copyOf(pushes);
        }

        public Insertion(int insn, boolean after, String owner, String name, String descriptor, List<Push> pushes) {
            this(insn, after, owner, name, descriptor, pushes, false);
        }
    }

    /**
     * The patched class: its original bytes, the insertions by method ({@code name + descriptor}), the descriptors
     * of the invisible annotations it gets, and (run-time patching only) the methods whose ENTER/EXIT patches keep
     * their context in a local variable ({@link ContextLocals}).
     */
    public record ClassPlan(String className, byte[] original, Map<String, List<Insertion>> methods,
                            List<String> markers, Map<String, ContextLocals.Plan> contexts) {
        public ClassPlan(String className, byte[] original, Map<String, List<Insertion>> methods,
                         List<String> markers) {
            this(className, original, methods, markers, new LinkedHashMap<>());
        }
    }

    private final Map<String, ClassPlan> classes = new LinkedHashMap<>();

    /** No insertions at all. */
    public static final BytecodePlan EMPTY = new BytecodePlan();

    public BytecodePlan() {}

    public void add(String className, byte[] original, String methodKey, Insertion insertion) {
        plan(className, original).methods().computeIfAbsent(methodKey, k -> new ArrayList<>()).add(insertion);
    }

    /** Puts an invisible annotation of type {@code descriptor} (no values) on the class. */
    public void mark(String className, byte[] original, String descriptor) {
        plan(className, original).markers().add(descriptor);
    }

    private ClassPlan plan(String className, byte[] original) {
        return classes.computeIfAbsent(className, k -> new ClassPlan(k, original, new LinkedHashMap<>(),
                new ArrayList<>()));
    }

    /** Run-time patching: the ENTER/EXIT patches of {@code methodKey} keep their context in a local (see plan). */
    public void addContext(String className, byte[] original, String methodKey, ContextLocals.Plan plan) {
        plan(className, original).contexts().put(methodKey, plan);
    }

    public boolean isEmpty() {
        return classes.isEmpty();
    }

    /** The patched classes by binary name (dots). */
    public Map<String, ClassPlan> classes() {
        return Collections.unmodifiableMap(classes);
    }

    /**
     * {@code plan} for {@code other}, another version of its class (a multi-release jar's copy for a later Java
     * release): when every insertion belongs at a method's entry, the same calls at the entries of {@code other}'s
     * methods of the same name and descriptor (methods it lacks get none); {@code plan} itself when {@code other} is
     * its original; otherwise null, since instruction numbers of one class file mean nothing in another.
     */
    public static ClassPlan retarget(ClassPlan plan, byte[] other) {
        if (java.util.Arrays.equals(plan.original(), other)) {
            return plan;
        }
        if (!plan.markers().isEmpty() || !plan.contexts().isEmpty() || plan.methods().values().stream()
                .anyMatch(list -> list.stream().anyMatch(i -> !i.atEntry()))) {
            return null;
        }
        ClassNode node = MethodCode.read(other);
        Map<String, List<Insertion>> methods = new LinkedHashMap<>();
        for (MethodNode m : node.methods) {
            List<Insertion> list = plan.methods().get(m.name + m.desc);
            MethodCode.Entry entry = list == null ? null : MethodCode.entry(node, m);
            if (entry == null) {
                continue;
            }
            List<Insertion> moved = new ArrayList<>();
            for (Insertion i : list) {
                moved.add(new Insertion(entry.insn(), entry.after(), i.owner(), i.name(), i.descriptor(), i.pushes(),
                        true));
            }
            methods.put(m.name + m.desc, moved);
        }
        return new ClassPlan(plan.className(), other, methods, new ArrayList<>());
    }

    /** The class file of {@code plan}'s class with every insertion applied. */
    public static byte[] transform(ClassPlan plan) {
        ClassNode node = new ClassNode();
        new ClassReader(plan.original()).accept(node, 0);
        for (String marker : plan.markers()) {
            if (node.invisibleAnnotations == null) {
                node.invisibleAnnotations = new ArrayList<>();
            }
            node.invisibleAnnotations.add(new AnnotationNode(marker));
        }
        for (MethodNode m : node.methods) {
            List<Insertion> list = plan.methods().get(m.name + m.desc);
            if (list == null) {
                continue;
            }
            List<AbstractInsnNode> insns = MethodCode.realInstructions(m);
            // calls after an instruction are inserted right after it, each before the earlier ones: go backwards so
            // that they run in plan order
            List<Insertion> ordered = new ArrayList<>(list.stream().filter(i -> !i.after()).toList());
            List<Insertion> after = new ArrayList<>(list.stream().filter(Insertion::after).toList());
            Collections.reverse(after);
            ordered.addAll(after);
            for (Insertion ins : ordered) {
                AbstractInsnNode at = insns.get(ins.insn());
                InsnList code = new InsnList();
                for (Push p : ins.pushes()) {
                    if (p instanceof Duplicate d) {
                        code.add(new InsnNode(d.size() == 2 ? Opcodes.DUP2 : Opcodes.DUP));
                    } else if (p instanceof Load l) {
                        code.add(new VarInsnNode(l.opcode(), l.slot()));
                    } else if (p instanceof Constant c) {
                        code.add(constant(c.value()));
                    }
                }
                code.add(new MethodInsnNode(Opcodes.INVOKESTATIC, ins.owner(), ins.name(), ins.descriptor(), false));
                if (ins.after()) {
                    m.instructions.insert(at, code);
                } else {
                    // right before the instruction: after its label, line number and frame, so a jump to the label
                    // runs the call too and the frame still describes the state on entry
                    m.instructions.insertBefore(at, code);
                }
            }
        }
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        node.accept(writer);
        byte[] bytes = writer.toByteArray();
        return plan.contexts().isEmpty() ? bytes : ContextLocals.apply(bytes, plan.contexts());
    }

    private static AbstractInsnNode constant(int v) {
        if (v >= -1 && v <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + v);
        }
        if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
            return new IntInsnNode(Opcodes.BIPUSH, v);
        }
        if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
            return new IntInsnNode(Opcodes.SIPUSH, v);
        }
        return new LdcInsnNode(v);
    }
}
