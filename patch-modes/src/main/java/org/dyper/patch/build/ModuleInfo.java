package org.dyper.patch.build;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Makes a woven modular jar work on the module path: its {@code module-info} gains {@code requires} for what woven
 * code calls (the Dyper runtime and the AspectJ runtime, as the automatic modules {@link #RUNTIME} and
 * {@link #ASPECTJ}), and the package of the generated aspects when the descriptor lists its packages
 * ({@code ModulePackages}, which the {@code jar} tool writes; without it the JVM finds the package in the jar itself).
 */
final class ModuleInfo {
    /** The module name of the Dyper runtime jar ({@code Automatic-Module-Name} of {@code dyper-runtime}). */
    static final String RUNTIME = "org.dyper.runtime";
    /** The module name of {@code aspectjrt} ({@code Automatic-Module-Name} of its jar). */
    static final String ASPECTJ = "org.aspectj.runtime";

    private ModuleInfo() {}

    /** Whether {@code entry} is a module descriptor (at the root or in a release folder of a multi-release jar). */
    static boolean isDescriptor(String entry) {
        return entry.equals("module-info.class") || entry.startsWith("META-INF/versions/")
                && entry.endsWith("/module-info.class");
    }

    /** {@code descriptor} requiring both runtimes and, if it lists its packages, holding {@code generatedPackage}. */
    static byte[] withRuntime(byte[] descriptor, String generatedPackage) {
        ClassReader reader = new ClassReader(descriptor);
        ClassWriter writer = new ClassWriter(0);
        String pkg = generatedPackage.replace('.', '/');
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public ModuleVisitor visitModule(String module, int access, String version) {
                return new ModuleVisitor(Opcodes.ASM9, super.visitModule(module, access, version)) {
                    private final Set<String> required = new HashSet<>();
                    private final Set<String> packages = new HashSet<>();

                    @Override
                    public void visitRequire(String required, int flags, String version) {
                        this.required.add(required);
                        super.visitRequire(required, flags, version);
                    }

                    @Override
                    public void visitPackage(String packaze) {
                        packages.add(packaze);
                        super.visitPackage(packaze);
                    }

                    @Override
                    public void visitEnd() {
                        for (String m : new String[] {RUNTIME, ASPECTJ}) {
                            if (!required.contains(m)) {
                                super.visitRequire(m, 0, null);
                            }
                        }
                        if (!packages.isEmpty() && !packages.contains(pkg)) {
                            super.visitPackage(pkg);
                        }
                        super.visitEnd();
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }
}
