package org.dyper.patch.scan;

import org.objectweb.asm.Opcodes;

/**
 * Where a nested class sits, from its class file's {@code InnerClasses} and {@code EnclosingMethod} attributes:
 * the class it is declared or written in, its simple name ({@code null} for an anonymous class), the access flags
 * its source declared (which reflection reports), and whether it is a member of {@code outer} (else it is local or
 * anonymous).
 */
public record Nesting(String outer, String simpleName, int access, boolean member) {
    public boolean isAnonymous() {
        return simpleName == null;
    }

    /** Public as the source declared it (the class file's own flags say public for protected members too). */
    public boolean isPublic() {
        return (access & Opcodes.ACC_PUBLIC) != 0;
    }
}
