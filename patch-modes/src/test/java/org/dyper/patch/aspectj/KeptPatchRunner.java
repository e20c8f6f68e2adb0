package org.dyper.patch.aspectj;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.List;
import org.dyper.patch.gentest.InFlight;
import org.dyper.patch.runtime.PatchFiles;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.example.inflight.Busy;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A patch put in at run time, then {@link Busy} retransformed by another agent ({@link ForeignAgent}, with a
 * transformer that changes nothing), then the patch taken out and the class retransformed again. Prints the ENTERs one
 * call of {@code Busy.outer} counts at each step ({@code PATCHED n}, {@code RETRANSFORMED n}, {@code REMOVED n},
 * {@code REMOVED_RETRANSFORMED n}); then the patch put in again ({@code PATCHED_AGAIN n}), Busy redefined by the other
 * agent with bytes of its own ({@code REDEFINED n}, {@code UNPATCHED k STATUS}: how many classes the status calls
 * UNPATCHED, plus 1, and the status) and retransformed once more ({@code REDEFINED_RETRANSFORMED n}); and
 * {@code WRONG n}, the calls whose result differs from the unpatched one.
 *
 * <p>Argument: the patch folder.
 */
public final class KeptPatchRunner {
    private KeptPatchRunner() {}

    public static void main(String[] args) throws Exception {
        PatchSet set = PatchFiles.toPatchSet(PatchFiles.read(Path.of(args[0])), List.of());
        long expected = new Busy(5).outer(40);
        int[] wrong = {0};
        Runnable call = () -> {
            if (new Busy(5).outer(40) != expected) {
                wrong[0]++;
            }
        };
        RuntimePatcher.get().insert(set);
        System.out.println("PATCHED " + enters(call));
        retransform();
        System.out.println("RETRANSFORMED " + enters(call));
        RuntimePatcher.get().remove(null);
        System.out.println("REMOVED " + enters(call));
        retransform();
        System.out.println("REMOVED_RETRANSFORMED " + enters(call));
        // patched again, then another agent redefines the class with code of its own: its version wins
        RuntimePatcher.get().insert(set);
        System.out.println("PATCHED_AGAIN " + enters(call));
        ForeignAgent.inst.redefineClasses(new ClassDefinition(Busy.class, withNop(Busy.class)));
        System.out.println("REDEFINED " + enters(call));
        String status = RuntimePatcher.get().statusXml();
        System.out.println("UNPATCHED " + status.split("STATE='UNPATCHED'", -1).length + " " + status.replace(' ', '_'));
        retransform();
        System.out.println("REDEFINED_RETRANSFORMED " + enters(call));
        RuntimePatcher.get().remove(null);
        System.out.println("WRONG " + wrong[0]);
    }

    /** The class file of {@code type} with a NOP at the start of every method: other bytes, the same behaviour. */
    private static byte[] withNop(Class<?> type) throws Exception {
        byte[] original;
        try (var in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            original = in.readAllBytes();
        }
        ClassWriter w = new ClassWriter(0);
        new ClassReader(original).accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                MethodVisitor m = super.visitMethod(access, name, descriptor, signature, exceptions);
                return new MethodVisitor(Opcodes.ASM9, m) {
                    @Override
                    public void visitCode() {
                        super.visitCode();
                        super.visitInsn(Opcodes.NOP);
                    }
                };
            }
        }, 0);
        return w.toByteArray();
    }

    private static long enters(Runnable call) {
        long before = InFlight.ENTERS.get();
        call.run();
        return InFlight.ENTERS.get() - before;
    }

    /** What another agent does: retransforms the class, with a transformer of its own that changes nothing. */
    private static void retransform() throws Exception {
        ClassFileTransformer looking = new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> type, ProtectionDomain domain,
                                    byte[] bytes) {
                return null;
            }
        };
        ForeignAgent.inst.addTransformer(looking, true);
        try {
            ForeignAgent.inst.retransformClasses(Busy.class);
        } finally {
            ForeignAgent.inst.removeTransformer(looking);
        }
    }
}
