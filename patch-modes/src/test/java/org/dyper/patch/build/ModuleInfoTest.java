package org.dyper.patch.build;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

/** A woven module's descriptor requires both runtimes and lists the generated package when it lists its packages. */
class ModuleInfoTest {
    private static byte[] descriptor(boolean listsPackages, String... requires) {
        ClassWriter w = new ClassWriter(0);
        w.visit(Opcodes.V17, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor m = w.visitModule("mod.app", 0, null);
        if (listsPackages) {
            m.visitPackage("app");
        }
        m.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        for (String r : requires) {
            m.visitRequire(r, 0, null);
        }
        m.visitExport("app", 0);
        m.visitEnd();
        w.visitEnd();
        return w.toByteArray();
    }

    /** The requires and the packages of a descriptor, in their order. */
    private static List<List<String>> read(byte[] descriptor) {
        List<String> requires = new ArrayList<>();
        List<String> packages = new ArrayList<>();
        new ClassReader(descriptor).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public ModuleVisitor visitModule(String name, int access, String version) {
                return new ModuleVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitRequire(String module, int flags, String v) {
                        requires.add(module);
                    }

                    @Override
                    public void visitPackage(String p) {
                        packages.add(p);
                    }
                };
            }
        }, 0);
        return List.of(requires, packages);
    }

    @Test
    void aDescriptorThatListsItsPackagesGainsTheGeneratedOne() {
        byte[] woven = ModuleInfo.withRuntime(descriptor(true), "org.dyper.generated.g0123456789ab");
        assertEquals(List.of(List.of("java.base", "org.dyper.runtime", "org.aspectj.runtime"),
                List.of("app", "org/dyper/generated/g0123456789ab")), read(woven));
    }

    @Test
    void onlyWhatIsMissingIsAdded() {
        byte[] woven = ModuleInfo.withRuntime(descriptor(false, "org.aspectj.runtime"), "org.dyper.generated.gx");
        assertEquals(List.of(List.of("java.base", "org.aspectj.runtime", "org.dyper.runtime"), List.of()), read(woven));
    }
}
