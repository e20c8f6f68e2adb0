package org.dyper.patch.scan;

/**
 * One method call instruction: {@code owner} is the class the bytecode names (dots), {@code opcode} the invoke
 * opcode, {@code line} the source line or 0.
 */
public record CallInfo(String owner, String name, String descriptor, int opcode, int line) {
    public String key() {
        return owner + "." + name + descriptor;
    }
}
