package org.dyper.patch.scan;

import java.util.List;

/**
 * What Dyper needs to know about one class: its methods (with the calls they make) and fields, and for a nested
 * class where it is nested ({@code nesting}, null for a top-level class). Names are Java binary names with dots
 * ({@code com.acme.Outer$Inner}).
 */
public record ClassInfo(String name, int access, String superName, List<String> interfaces, List<MethodInfo> methods,
                        List<FieldInfo> fields, String source, Nesting nesting) {
    public ClassInfo {
        interfaces = List.copyOf(interfaces);
        methods = List.copyOf(methods);
        fields = List.copyOf(fields);
    }

    public boolean isInterface() {
        return (access & org.objectweb.asm.Opcodes.ACC_INTERFACE) != 0;
    }

    /** The name as AspectJ type patterns and Java source spell it ({@code com.acme.Outer.Inner}). */
    public String sourceName() {
        return Types.sourceName(name);
    }

    /** Whether code in another package may name this class: it and every class it is a member of are public. */
    public boolean isPublic() {
        return nesting == null ? (access & org.objectweb.asm.Opcodes.ACC_PUBLIC) != 0
                : nesting.member() && nesting.isPublic();
    }
}
