package org.dyper.patch.bytecode;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.AnalyzerAdapter;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LineNumberNode;
import org.objectweb.asm.tree.LocalVariableNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;

/**
 * What the bytecode pass knows about one method body: its instructions numbered as Dyper counts them (real
 * instructions only: labels, line numbers and frames are not counted), its basic blocks, the source line of each
 * instruction, the local variable table, and the types of the locals before each instruction. The generator and
 * the transformer both number instructions with {@link #realInstructions(MethodNode)}, so they always agree.
 */
public final class MethodCode {
    final String owner;
    final MethodNode method;
    /** The real instructions, by instruction number. */
    public final List<AbstractInsnNode> insns;
    /** Source line of each instruction, 0 when unknown. */
    public final int[] lines;
    /** The instruction number each block starts at, ascending; block b starts at {@code starts[b]}. */
    public final int[] starts;
    /** The block each instruction belongs to. */
    public final int[] blockOf;
    /** Locals before each instruction as {@link AnalyzerAdapter} sees them (null when unreachable or unknown). */
    private final List<List<Object>> locals;
    private final java.util.Map<LabelNode, Integer> labels = new java.util.IdentityHashMap<>();

    private MethodCode(String owner, MethodNode method, List<List<Object>> locals) {
        this.owner = owner;
        this.method = method;
        this.insns = realInstructions(method);
        this.locals = locals;
        int n = insns.size();
        lines = new int[n];
        int line = 0;
        int index = 0;
        for (AbstractInsnNode node = method.instructions.getFirst(); node != null; node = node.getNext()) {
            if (node instanceof LabelNode label) {
                labels.put(label, index);
            }
            if (node instanceof LineNumberNode ln) {
                line = ln.line;
            } else if (node.getOpcode() >= 0) {
                lines[index++] = line;
            }
        }
        TreeSet<Integer> s = new TreeSet<>();
        if (n > 0) {
            s.add(0);
        }
        for (int i = 0; i < n; i++) {
            AbstractInsnNode insn = insns.get(i);
            boolean ends = false;
            if (insn instanceof JumpInsnNode j) {
                s.add(number(j.label));
                ends = true;
            } else if (insn instanceof TableSwitchInsnNode t) {
                s.add(number(t.dflt));
                t.labels.forEach(l -> s.add(number(l)));
                ends = true;
            } else if (insn instanceof LookupSwitchInsnNode l) {
                s.add(number(l.dflt));
                l.labels.forEach(x -> s.add(number(x)));
                ends = true;
            } else {
                int op = insn.getOpcode();
                ends = op >= Opcodes.IRETURN && op <= Opcodes.RETURN || op == Opcodes.ATHROW || op == Opcodes.RET;
            }
            if (ends && i + 1 < n) {
                s.add(i + 1);
            }
        }
        for (TryCatchBlockNode tc : method.tryCatchBlocks) {
            s.add(number(tc.handler));
        }
        s.removeIf(k -> k >= n);
        starts = s.stream().mapToInt(Integer::intValue).toArray();
        blockOf = new int[n];
        for (int b = 0, i = 0; i < n; i++) {
            while (b + 1 < starts.length && starts[b + 1] <= i) {
                b++;
            }
            blockOf[i] = b;
        }
    }

    /** Analyses every method of a class; the class is read with expanded frames for the types of locals. */
    public static ClassNode read(byte[] classFile) {
        ClassNode node = new ClassNode();
        new ClassReader(classFile).accept(node, ClassReader.EXPAND_FRAMES);
        return node;
    }

    public static MethodCode of(ClassNode owner, MethodNode m) {
        Recorder recorder = new Recorder(owner.name, m);
        try {
            m.accept(recorder);
        } catch (RuntimeException e) {
            // class files without frames (before Java 6) leave the analyzer blind after jumps; types come from the
            // local variable table only
            recorder.snapshots.clear();
        }
        return new MethodCode(owner.name.replace('/', '.'), m, recorder.snapshots);
    }

    /** Where a method's entry is: before or after instruction {@code insn}. */
    public record Entry(int insn, boolean after) {}

    /**
     * Where ENTER runs in {@code m} of class {@code owner}, as AspectJ's execution join point begins: before
     * instruction 0, or in a constructor right after the {@code super(...)} or {@code this(...)} call has returned;
     * null for a method without code, or a constructor without exactly one such call (bytecode no Java compiler
     * writes, left to AspectJ).
     */
    public static Entry entry(ClassNode owner, MethodNode m) {
        if (m.instructions.size() == 0) {
            return null;
        }
        if (!m.name.equals("<init>")) {
            return new Entry(0, false);
        }
        MethodCode mc = of(owner, m);
        Entry found = null;
        for (int i = 0; i < mc.insns.size(); i++) {
            if (mc.insns.get(i).getOpcode() == Opcodes.INVOKESPECIAL && mc.thisUninitialisedAt(i)
                    && !mc.thisUninitialisedAt(i + 1)) {
                if (found != null) {
                    return null;
                }
                found = new Entry(i, true);
            }
        }
        return found;
    }

    /** The instructions Dyper counts: everything but labels, line numbers and frames. */
    static List<AbstractInsnNode> realInstructions(MethodNode m) {
        List<AbstractInsnNode> list = new ArrayList<>();
        for (AbstractInsnNode node = m.instructions.getFirst(); node != null; node = node.getNext()) {
            if (node.getOpcode() >= 0) {
                list.add(node);
            }
        }
        return list;
    }

    /** The number of the first real instruction at or after {@code label}. */
    int number(LabelNode label) {
        return labels.get(label);
    }

    int blockCount() {
        return starts.length;
    }

    /** The block starting at instruction {@code insn}, or -1 when no block starts there. */
    public int blockStartingAt(int insn) {
        for (int b = 0; b < starts.length; b++) {
            if (starts[b] == insn) {
                return b;
            }
        }
        return -1;
    }

    /** The last instruction of block {@code b}. */
    int lastOf(int b) {
        return b + 1 < starts.length ? starts[b + 1] - 1 : insns.size() - 1;
    }

    /**
     * The block REFBLOCKID names for block {@code b}: the target of the jump that ends it (for a switch, its
     * default target); for a block that falls through, the next block; -1 for a block that ends with a return or
     * throw.
     */
    public int referencedBlock(int b) {
        AbstractInsnNode last = insns.get(lastOf(b));
        if (last instanceof JumpInsnNode j) {
            return blockOf[number(j.label)];
        }
        if (last instanceof TableSwitchInsnNode t) {
            return blockOf[number(t.dflt)];
        }
        if (last instanceof LookupSwitchInsnNode l) {
            return blockOf[number(l.dflt)];
        }
        int op = last.getOpcode();
        if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN || op == Opcodes.ATHROW || op == Opcodes.RET) {
            return -1;
        }
        return b + 1 < starts.length ? b + 1 : -1;
    }

    /** A local as the bytecode pass loads it: its slot and JVM descriptor. */
    public record Local(int slot, String descriptor) {}

    /** The local variable table entries named {@code name} (any range). */
    public boolean hasLocalNamed(String name) {
        return method.localVariables != null && method.localVariables.stream().anyMatch(v -> v.name.equals(name));
    }

    /** The local named {@code name} whose range covers instruction {@code insn}, or null. */
    public Local namedAt(String name, int insn) {
        if (method.localVariables == null) {
            return null;
        }
        for (LocalVariableNode v : method.localVariables) {
            if (v.name.equals(name) && number(v.start) <= insn && insn < number(v.end)) {
                return new Local(v.index, v.desc);
            }
        }
        return null;
    }

    /**
     * The type of slot {@code slot} before instruction {@code insn}: from the local variable table when an entry
     * covers it, else from the analysis; null when the slot holds no initialised value there.
     */
    public Local slotAt(int slot, int insn) {
        if (method.localVariables != null) {
            for (LocalVariableNode v : method.localVariables) {
                if (v.index == slot && number(v.start) <= insn && insn < number(v.end)) {
                    return new Local(slot, v.desc);
                }
            }
        }
        List<Object> frame = insn < locals.size() ? locals.get(insn) : null;
        if (frame == null || slot >= frame.size()) {
            return null;
        }
        Object t = frame.get(slot);
        String desc;
        if (t == Opcodes.INTEGER) {
            desc = "I";
        } else if (t == Opcodes.FLOAT) {
            desc = "F";
        } else if (t == Opcodes.LONG) {
            desc = "J";
        } else if (t == Opcodes.DOUBLE) {
            desc = "D";
        } else if (t == Opcodes.NULL) {
            desc = "Ljava/lang/Object;";
        } else if (t instanceof String s) {
            desc = s.startsWith("[") ? s : "L" + s + ";";
        } else {
            return null; // TOP, an uninitialised object or this before super()
        }
        return new Local(slot, desc);
    }

    /** Whether {@code this} is still uninitialised (a constructor before its super() or this() call). */
    public boolean thisUninitialisedAt(int insn) {
        if (method.name.equals("<init>")) {
            List<Object> frame = insn < locals.size() ? locals.get(insn) : null;
            return frame == null || frame.isEmpty() || frame.get(0) == Opcodes.UNINITIALIZED_THIS;
        }
        return false;
    }

    /** Records the locals before every real instruction. */
    private static final class Recorder extends AnalyzerAdapter {
        final List<List<Object>> snapshots = new ArrayList<>();

        Recorder(String owner, MethodNode m) {
            super(Opcodes.ASM9, owner, m.access, m.name, m.desc, null);
        }

        private void snap() {
            snapshots.add(locals == null ? null : new ArrayList<>(locals));
        }

        @Override public void visitInsn(int opcode) { snap(); super.visitInsn(opcode); }
        @Override public void visitIntInsn(int opcode, int operand) { snap(); super.visitIntInsn(opcode, operand); }
        @Override public void visitVarInsn(int opcode, int var) { snap(); super.visitVarInsn(opcode, var); }
        @Override public void visitTypeInsn(int opcode, String type) { snap(); super.visitTypeInsn(opcode, type); }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            snap();
            super.visitFieldInsn(opcode, owner, name, descriptor);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean itf) {
            snap();
            super.visitMethodInsn(opcode, owner, name, descriptor, itf);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bsm, Object... args) {
            snap();
            super.visitInvokeDynamicInsn(name, descriptor, bsm, args);
        }

        @Override public void visitJumpInsn(int opcode, Label label) { snap(); super.visitJumpInsn(opcode, label); }
        @Override public void visitLdcInsn(Object value) { snap(); super.visitLdcInsn(value); }
        @Override public void visitIincInsn(int var, int increment) { snap(); super.visitIincInsn(var, increment); }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            snap();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            snap();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMultiANewArrayInsn(String descriptor, int dims) {
            snap();
            super.visitMultiANewArrayInsn(descriptor, dims);
        }
    }
}
