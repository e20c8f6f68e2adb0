package org.dyper.patch.scan;

import org.objectweb.asm.Opcodes;

/** One field instruction: GETFIELD, PUTFIELD, GETSTATIC or PUTSTATIC of {@code owner.name} (dots). */
public record FieldInstruction(int opcode, String owner, String name, String descriptor, int line) {
    public boolean isStatic() {
        return opcode == Opcodes.GETSTATIC || opcode == Opcodes.PUTSTATIC;
    }

    public boolean isWrite() {
        return opcode == Opcodes.PUTFIELD || opcode == Opcodes.PUTSTATIC;
    }

    public String type() {
        return Types.typeName(descriptor);
    }

    public String key() {
        return opcode + " " + owner + "." + name + ":" + descriptor;
    }
}
