package org.dyper.runtime.instrument.internal;

import java.nio.ByteBuffer;

/** The lengths of JVM instructions and which of them name a constant pool entry, for walking a Code attribute. */
final class Bytecodes {
    private Bytecodes() {}

    /** Operand bytes after the opcode, by opcode; -1 for the variable-length ones (switches, wide). */
    private static final byte[] OPERANDS = new byte[256];

    static {
        java.util.Arrays.fill(OPERANDS, (byte) 0);
        set(1, 0x10, 0xbc);                                    // bipush, newarray
        set(2, 0x11, 0x13, 0x14, 0x84, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xbb, 0xbd, 0xc0, 0xc1, 0xc6,
                0xc7);                                         // sipush, ldc_w, ldc2_w, iinc, field/method refs, new...
        set(1, 0x12);                                          // ldc
        for (int op = 0x15; op <= 0x19; op++) {
            OPERANDS[op] = 1;                                  // xload index
        }
        for (int op = 0x36; op <= 0x3a; op++) {
            OPERANDS[op] = 1;                                  // xstore index
        }
        OPERANDS[0xa9] = 1;                                    // ret
        for (int op = 0x99; op <= 0xa8; op++) {
            OPERANDS[op] = 2;                                  // if*, goto, jsr
        }
        set(4, 0xb9, 0xba, 0xc8, 0xc9);                        // invokeinterface, invokedynamic, goto_w, jsr_w
        set(3, 0xc5);                                          // multianewarray
        set(-1, 0xaa, 0xab, 0xc4);                             // tableswitch, lookupswitch, wide
    }

    private static void set(int operands, int... ops) {
        for (int op : ops) {
            OPERANDS[op] = (byte) operands;
        }
    }

    /** The size in bytes of the instruction at {@code pc} of the code starting at {@code start}. */
    static int size(ByteBuffer b, int start, int pc) {
        int op = b.get(start + pc) & 0xff;
        int operands = OPERANDS[op];
        if (operands >= 0) {
            return 1 + operands;
        }
        if (op == 0xc4) {  // wide: iinc has 4 operand bytes after the opcode it widens, the others 2
            return (b.get(start + pc + 1) & 0xff) == 0x84 ? 6 : 4;
        }
        int pad = 3 - (pc % 4);
        int at = start + pc + 1 + pad;
        if (op == 0xaa) {
            int low = b.getInt(at + 4);
            int high = b.getInt(at + 8);
            return 1 + pad + 12 + 4 * (high - low + 1);
        }
        int pairs = b.getInt(at + 4);
        return 1 + pad + 8 + 8 * pairs;
    }

    /** The constant pool index the instruction names, or 0 when it names none. */
    static int constantIndex(ByteBuffer b, int start, int pc, int op) {
        return switch (op) {
            case 0x12 -> b.get(start + pc + 1) & 0xff;
            case 0x13, 0x14, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbd, 0xc0, 0xc1, 0xc5 ->
                    b.getShort(start + pc + 1) & 0xffff;
            default -> 0;
        };
    }
}
