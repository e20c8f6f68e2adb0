package org.dyper.patch.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.FieldNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;

/**
 * Makes the classes ajc wove fit class redefinition, which cannot add or remove fields or methods, nor change
 * modifiers, the superclass, the interfaces or the nest and record attributes. Checked against each class's original
 * file:
 * <ul>
 *   <li>The accessor methods ajc adds to a class whose private fields a privileged aspect reads
 *       ({@code ajc$get$f}, {@code ajc$set$f}) are taken out again, and the aspects' calls of them become
 *       {@code invokedynamic} field accesses ({@link org.dyper.runtime.instrument.FieldInstruction}), as do the aspects'
 *       direct accesses to fields that are not public in a public class.</li>
 *   <li>Modifiers ajc changed come back: a class made public, and a {@code synchronized} method whose monitor ajc
 *       turned into explicit monitorenter/monitorexit for SYNC_* join points (it stays synchronized, so those join
 *       points see a re-entrant acquisition: counted and held like the method's, its wait for the monitor unseen;
 *       noted).</li>
 *   <li>Anything else added or removed is an error naming the class and the member.</li>
 * </ul>
 */
final class Redefinable {
    private static final String FIELD_ACCESS = "org/dyper/runtime/instrument/FieldInstruction";
    private static final Handle BOOTSTRAP = new Handle(Opcodes.H_INVOKESTATIC, FIELD_ACCESS, "field",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/invoke/MethodType;Ljava/lang/String;I)"
                    + "Ljava/lang/invoke/CallSite;", false);

    private final List<String> errors = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /** {@code owner.name desc} of each accessor taken out → the field access that replaces its calls. */
    private final Map<String, FieldInsnNode> accessors = new HashMap<>();
    /** The original classes by internal name. */
    private final Map<String, ClassNode> originals = new HashMap<>();

    List<String> errors() {
        return errors;
    }

    List<String> notes() {
        return notes;
    }

    /**
     * Fixes the woven classes ({@code woven}, by internal name) against their originals and then the aspects; returns
     * the new class files by internal name (targets, then aspects). Check {@link #errors()} afterwards.
     */
    Map<String, byte[]> fix(Map<String, byte[]> original, Map<String, byte[]> woven, Map<String, byte[]> aspects) {
        Map<String, ClassNode> targets = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : woven.entrySet()) {
            ClassNode before = read(original.get(e.getKey()));
            ClassNode after = read(e.getValue());
            originals.put(e.getKey(), before);
            target(before, after);
            targets.put(e.getKey(), after);
        }
        Map<String, byte[]> out = new LinkedHashMap<>();
        targets.forEach((name, node) -> out.put(name, write(node)));
        for (Map.Entry<String, byte[]> e : aspects.entrySet()) {
            ClassNode aspect = read(e.getValue());
            aspect(aspect);
            out.put(e.getKey(), write(aspect));
        }
        return out;
    }

    private void target(ClassNode before, ClassNode after) {
        String cls = before.name.replace('/', '.');
        if (!Objects.equals(before.superName, after.superName) || !before.interfaces.equals(after.interfaces)) {
            errors.add(cls + ": weaving changed its superclass or interfaces");
        }
        after.access = before.access;
        after.innerClasses = before.innerClasses;
        after.nestHostClass = before.nestHostClass;
        after.nestMembers = before.nestMembers;
        after.permittedSubclasses = before.permittedSubclasses;
        after.recordComponents = before.recordComponents;
        Map<String, FieldNode> fieldsBefore = new LinkedHashMap<>();
        before.fields.forEach(f -> fieldsBefore.put(f.name + " " + f.desc, f));
        for (FieldNode f : after.fields) {
            FieldNode old = fieldsBefore.remove(f.name + " " + f.desc);
            if (old == null) {
                errors.add(cls + ": weaving added the field " + f.name + " " + f.desc + ", which a running class "
                        + "cannot gain");
            } else {
                f.access = old.access;
            }
        }
        fieldsBefore.keySet().forEach(f -> errors.add(cls + ": weaving removed the field " + f));
        Map<String, MethodNode> methodsBefore = new LinkedHashMap<>();
        before.methods.forEach(m -> methodsBefore.put(m.name + m.desc, m));
        List<MethodNode> kept = new ArrayList<>();
        for (MethodNode m : after.methods) {
            MethodNode old = methodsBefore.remove(m.name + m.desc);
            if (old != null) {
                if ((old.access & Opcodes.ACC_SYNCHRONIZED) != 0 && (m.access & Opcodes.ACC_SYNCHRONIZED) == 0) {
                    notes.add(cls + "." + m.name + m.desc + " is synchronized and has SYNC_* patches: it stays "
                            + "synchronized (a running method cannot lose a modifier), so they see the re-entrant "
                            + "acquisition inside it; acquisitions and hold times are counted, the wait for the monitor "
                            + "happens before the method's code runs and is not seen");
                }
                m.access = old.access;
                kept.add(m);
            } else if (!accessor(before, m)) {
                errors.add(cls + ": weaving added the method " + m.name + m.desc + ", which a running class cannot "
                        + "gain (around advice, thisJoinPoint and closures do that; the run-time way avoids them, "
                        + "so this is a Dyper bug)");
            }
        }
        methodsBefore.keySet().forEach(m -> errors.add(cls + ": weaving removed the method " + m));
        after.methods = kept;
    }

    /** Whether {@code m} is a field accessor ajc added (a static synthetic method that only gets or puts a field). */
    private boolean accessor(ClassNode owner, MethodNode m) {
        if (!m.name.startsWith("ajc$") || (m.access & Opcodes.ACC_STATIC) == 0) {
            return false;
        }
        FieldInsnNode field = null;
        for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            int op = insn.getOpcode();
            if (insn instanceof FieldInsnNode f) {
                if (field != null || !f.owner.equals(owner.name)) {
                    return false;
                }
                field = f;
            } else if (op >= 0 && !(op >= Opcodes.ILOAD && op <= Opcodes.ALOAD)
                    && !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN)) {
                return false;
            }
        }
        if (field == null) {
            return false;
        }
        accessors.put(owner.name + "." + m.name + m.desc, field);
        return true;
    }

    /** Redirects the aspect's calls of removed accessors, and its field accesses it may not make, to invokedynamic. */
    private void aspect(ClassNode aspect) {
        for (MethodNode m : aspect.methods) {
            for (AbstractInsnNode insn = m.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                AbstractInsnNode replacement = null;
                if (insn instanceof MethodInsnNode call) {
                    FieldInsnNode f = accessors.get(call.owner + "." + call.name + call.desc);
                    if (f != null) {
                        replacement = indy(f, call.desc);
                    } else if (originals.containsKey(call.owner)) {
                        errors.add(aspect.name.replace('/', '.') + " calls " + call.owner.replace('/', '.') + "."
                                + call.name + ", which run-time patching cannot reach");
                    }
                } else if (insn instanceof FieldInsnNode f && !reachable(f)) {
                    replacement = indy(f, fieldAccessDescriptor(f));
                } else if (insn instanceof TypeInsnNode t && originals.containsKey(t.desc)
                        && (originals.get(t.desc).access & Opcodes.ACC_PUBLIC) == 0) {
                    errors.add(aspect.name.replace('/', '.') + " names the non-public class "
                            + t.desc.replace('/', '.') + " in a cast or type test, which it cannot reach from its "
                            + "package");
                }
                if (replacement != null) {
                    m.instructions.set(insn, replacement);
                    insn = replacement;
                }
            }
        }
    }

    /** A field instruction an aspect in another package may execute: a public field of a public class. */
    private boolean reachable(FieldInsnNode f) {
        ClassNode owner = originals.get(f.owner);
        if (owner == null) {
            return true;  // not a patched class: ajc would have added an accessor if it were out of reach
        }
        if ((owner.access & Opcodes.ACC_PUBLIC) == 0) {
            return false;
        }
        for (FieldNode field : owner.fields) {
            if (field.name.equals(f.name)) {
                return (field.access & Opcodes.ACC_PUBLIC) != 0;
            }
        }
        return false;
    }

    private static String fieldAccessDescriptor(FieldInsnNode f) {
        return switch (f.getOpcode()) {
            case Opcodes.GETFIELD -> "(L" + f.owner + ";)" + f.desc;
            case Opcodes.GETSTATIC -> "()" + f.desc;
            case Opcodes.PUTFIELD -> "(L" + f.owner + ";" + f.desc + ")V";
            default -> "(" + f.desc + ")V";
        };
    }

    private static InvokeDynamicInsnNode indy(FieldInsnNode f, String descriptor) {
        int kind = switch (f.getOpcode()) {
            case Opcodes.GETFIELD -> 0;
            case Opcodes.GETSTATIC -> 1;
            case Opcodes.PUTFIELD -> 2;
            default -> 3;
        };
        return new InvokeDynamicInsnNode(f.name, descriptor, BOOTSTRAP, f.owner, kind);
    }

    static ClassNode read(byte[] bytes) {
        ClassNode node = new ClassNode();
        new ClassReader(bytes).accept(node, 0);
        return node;
    }

    /** Writes without recomputing anything: only whole methods were removed and single instructions replaced. */
    static byte[] write(ClassNode node) {
        // ajc's own attributes (org.aspectj.weaver.*) refer to the old constant pool: left out, the JVM ignores them
        node.attrs = null;
        for (MethodNode m : node.methods) {
            m.attrs = null;
        }
        for (FieldNode f : node.fields) {
            f.attrs = null;
        }
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        node.accept(w);
        return w.toByteArray();
    }
}
