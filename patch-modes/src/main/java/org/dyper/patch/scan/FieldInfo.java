package org.dyper.patch.scan;

import org.objectweb.asm.Opcodes;

/** A field declared by a scanned class. */
public record FieldInfo(String owner, String name, String descriptor, int access) {
    public boolean isStatic() {
        return (access & Opcodes.ACC_STATIC) != 0;
    }

    public String type() {
        return Types.typeName(descriptor);
    }
}
