package org.dyper.cli.whatif;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * Delay points at loop heads, where AspectJ has no join point: a call of {@code WhatIf.loop()} (no argument, no
 * result: one volatile read while no experiment runs) before every backward jump of the named methods, in a class file
 * that run-time patching has woven already. Only a call is inserted, so the stack, the locals and the stack map frames
 * stay as they were. A backward jump of a {@code tableswitch}/{@code lookupswitch} is not a loop head here (javac
 * writes loops with jumps).
 */
final class LoopHeads {
    static final String OWNER = "org/dyper/runtime/whatif/WhatIf";
    static final String NAME = "loop";

    /** The class file with its loop heads, how many, and the methods (name + descriptor) that got any. */
    record Result(byte[] bytes, int heads, List<String> methods) {
    }

    private LoopHeads() {
    }

    /**
     * Inserts the call at the loop heads of the methods named {@code methods} (every overload; a body AspectJ moved to
     * {@code name_aroundBodyN} too). A class without any comes back as it was.
     */
    static Result insert(byte[] classFile, Set<String> methods) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, 0);
        int heads = 0;
        List<String> patched = new ArrayList<>();
        for (MethodNode m : cn.methods) {
            if ((m.access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0 || !named(m.name, methods)) {
                continue;
            }
            Map<LabelNode, Integer> at = new HashMap<>();
            List<JumpInsnNode> jumps = new ArrayList<>();
            int i = 0;
            for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext(), i++) {
                if (n instanceof LabelNode l) {
                    at.put(l, i);
                } else if (n instanceof JumpInsnNode j) {
                    jumps.add(j);
                }
            }
            int found = 0;
            i = 0;
            Map<AbstractInsnNode, Integer> index = new HashMap<>();
            for (AbstractInsnNode n = m.instructions.getFirst(); n != null; n = n.getNext(), i++) {
                index.put(n, i);
            }
            for (JumpInsnNode j : jumps) {
                Integer target = at.get(j.label);
                if (target != null && target < index.get(j)) {
                    m.instructions.insertBefore(j, new MethodInsnNode(Opcodes.INVOKESTATIC, OWNER, NAME, "()V",
                            false));
                    found++;
                }
            }
            if (found > 0) {
                heads += found;
                patched.add(m.name + m.desc);
            }
        }
        if (heads == 0) {
            return new Result(classFile, 0, List.of());
        }
        ClassWriter w = new ClassWriter(0);
        cn.accept(w);
        return new Result(w.toByteArray(), heads, patched);
    }

    private static boolean named(String name, Set<String> methods) {
        if (methods.contains(name)) {
            return true;
        }
        int around = name.indexOf("_aroundBody");
        return around > 0 && methods.contains(name.substring(0, around));
    }
}
