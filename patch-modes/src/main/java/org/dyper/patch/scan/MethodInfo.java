package org.dyper.patch.scan;

import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * A method or constructor of a scanned class, with what its body does that Dyper can patch (in bytecode order):
 * method calls, field reads and writes, allocations, and whether it enters monitors.
 */
public record MethodInfo(String owner, String name, String descriptor, int access, List<CallInfo> calls,
                         List<FieldInstruction> fieldAccesses, List<Allocation> allocations, boolean entersMonitors) {
    public MethodInfo {
        calls = List.copyOf(calls);
        fieldAccesses = List.copyOf(fieldAccesses);
        allocations = List.copyOf(allocations);
    }

    public boolean isSynchronized() {
        return (access & Opcodes.ACC_SYNCHRONIZED) != 0;
    }

    public boolean isStatic() {
        return (access & Opcodes.ACC_STATIC) != 0;
    }

    public boolean isConstructor() {
        return name.equals("<init>");
    }

    /** Synthetic, bridge, abstract and native methods have no body a user wrote: Dyper does not patch them. */
    public boolean hasUserBody() {
        return (access & (Opcodes.ACC_SYNTHETIC | Opcodes.ACC_BRIDGE | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0
                && !name.equals("<clinit>");
    }

    public List<String> parameterTypes() {
        return Types.parameterTypes(descriptor);
    }

    public String returnType() {
        return Types.returnType(descriptor);
    }

    /** {@code com.acme.Bank.transfer(int,int,long)}: how reports and messages name the method. */
    public String displayName() {
        return owner + "." + name + "(" + String.join(",", parameterTypes()) + ")";
    }
}
