package org.dyper.patch.scan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads class files from jars and class folders into a {@link ClassIndex}. Only the structure is read (no frames,
 * no debug info but line numbers); Dyper's own classes and {@code module-info}/{@code package-info} are skipped.
 */
public final class ClassScanner {
    private static final List<String> OWN_PACKAGES = List.of(
            "org/dyper/runtime/", "org/dyper/patch/", "org/dyper/aspects/", "org/dyper/cli/", "org/dyper/generated/",
            "org/aspectj/");

    private ClassScanner() {}

    /** Scans every jar and class folder in {@code roots}; a missing root is an error naming it. */
    public static ClassIndex scan(List<Path> roots) throws IOException {
        return scan(roots, name -> true);
    }

    /**
     * As {@link #scan(List)}, reading method bodies (calls, field accesses, allocations, monitors) only of the classes
     * whose binary names {@code withBodies} accepts: the others keep their methods and fields but nothing a body does.
     * A model that patches a few classes of a big jar so scans it in a fraction of the time.
     */
    public static ClassIndex scan(List<Path> roots, java.util.function.Predicate<String> withBodies)
            throws IOException {
        ClassIndex index = new ClassIndex();
        for (Path root : roots) {
            try (ClassPath.Root r = ClassPath.root(root, 0)) {
                r.forEach((entry, time, data) -> {
                    if (wanted(entry)) {
                        index.add(read(data.read(), r.source(entry), withBodies), root, entry);
                    }
                });
            }
        }
        return index;
    }

    private static boolean wanted(String entry) {
        if (!entry.endsWith(".class") || entry.startsWith("META-INF/") || entry.endsWith("module-info.class")
                || entry.endsWith("package-info.class")) {
            return false;
        }
        return OWN_PACKAGES.stream().noneMatch(entry::startsWith);
    }

    /** Reads one class file. */
    public static ClassInfo read(byte[] classFile, String source) {
        return read(classFile, source, name -> true);
    }

    private static ClassInfo read(byte[] classFile, String source, java.util.function.Predicate<String> withBodies) {
        ClassReader reader = new ClassReader(classFile);
        Collector collector = new Collector(source);
        boolean bodies = withBodies.test(reader.getClassName().replace('/', '.'));
        reader.accept(collector, bodies ? ClassReader.SKIP_FRAMES : ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
        return collector.result();
    }

    private static String dots(String internalName) {
        return internalName == null ? null : internalName.replace('/', '.');
    }

    private static final class Collector extends ClassVisitor {
        private final String source;
        private String name;
        private int access;
        private String superName;
        private final List<String> interfaces = new ArrayList<>();
        private final List<MethodInfo> methods = new ArrayList<>();
        private final List<FieldInfo> fields = new ArrayList<>();
        private Nesting nesting;
        private String enclosing;

        Collector(String source) {
            super(Opcodes.ASM9);
            this.source = source;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                          String[] interfaces) {
            this.name = dots(name);
            this.access = access;
            this.superName = dots(superName);
            if (interfaces != null) {
                for (String i : interfaces) {
                    this.interfaces.add(dots(i));
                }
            }
        }

        @Override
        public void visitOuterClass(String owner, String method, String descriptor) {
            enclosing = dots(owner);
        }

        @Override
        public void visitInnerClass(String inner, String outer, String simpleName, int innerAccess) {
            if (dots(inner).equals(name)) {
                nesting = new Nesting(outer != null ? dots(outer) : null, simpleName, innerAccess, outer != null);
            }
        }

        @Override
        public FieldVisitor visitField(int access, String fieldName, String descriptor, String signature,
                                       Object value) {
            fields.add(new FieldInfo(name, fieldName, descriptor, access));
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int methodAccess, String methodName, String descriptor, String signature,
                                         String[] exceptions) {
            List<CallInfo> calls = new ArrayList<>();
            List<FieldInstruction> fieldAccesses = new ArrayList<>();
            List<Allocation> allocations = new ArrayList<>();
            return new MethodVisitor(Opcodes.ASM9) {
                private int line;
                private boolean monitors;
                /** Types of NEW instructions whose constructor call has not been seen yet. */
                private final java.util.ArrayDeque<String> pendingNew = new java.util.ArrayDeque<>();

                @Override
                public void visitLineNumber(int lineNumber, Label start) {
                    line = lineNumber;
                }

                @Override
                public void visitMethodInsn(int opcode, String owner, String callee, String calleeDescriptor,
                                            boolean isInterface) {
                    if (owner.startsWith("[")) {
                        return;
                    }
                    if (opcode == Opcodes.INVOKESPECIAL && callee.equals("<init>") && owner.equals(pendingNew.peek())) {
                        pendingNew.pop();
                        allocations.add(new Allocation(Allocation.Kind.OBJECT, dots(owner), calleeDescriptor, 0, line));
                    }
                    calls.add(new CallInfo(dots(owner), callee, calleeDescriptor, opcode, line));
                }

                @Override
                public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                    fieldAccesses.add(new FieldInstruction(opcode, dots(owner), field, fieldDescriptor, line));
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    if (opcode == Opcodes.NEW) {
                        pendingNew.push(type);
                    } else if (opcode == Opcodes.ANEWARRAY) {
                        String array = Types.typeName(type.startsWith("[") ? "[" + type : "[L" + type + ";");
                        allocations.add(new Allocation(Allocation.Kind.ARRAY, array, null, 1, line));
                    }
                }

                @Override
                public void visitIntInsn(int opcode, int operand) {
                    if (opcode == Opcodes.NEWARRAY) {
                        String element = switch (operand) {
                            case Opcodes.T_BOOLEAN -> "boolean";
                            case Opcodes.T_CHAR -> "char";
                            case Opcodes.T_FLOAT -> "float";
                            case Opcodes.T_DOUBLE -> "double";
                            case Opcodes.T_BYTE -> "byte";
                            case Opcodes.T_SHORT -> "short";
                            case Opcodes.T_INT -> "int";
                            default -> "long";
                        };
                        allocations.add(new Allocation(Allocation.Kind.BASE_ARRAY, element + "[]", null, 1, line));
                    }
                }

                @Override
                public void visitMultiANewArrayInsn(String arrayDescriptor, int dimensions) {
                    allocations.add(new Allocation(Allocation.Kind.ARRAY, Types.typeName(arrayDescriptor), null,
                            dimensions, line));
                }

                @Override
                public void visitInsn(int opcode) {
                    monitors |= opcode == Opcodes.MONITORENTER;
                }

                @Override
                public void visitEnd() {
                    methods.add(new MethodInfo(name, methodName, descriptor, methodAccess, calls, fieldAccesses,
                            allocations, monitors || (methodAccess & Opcodes.ACC_SYNCHRONIZED) != 0));
                }
            };
        }

        ClassInfo result() {
            Nesting n = nesting;
            if (n != null && n.outer() == null) {
                // a local or anonymous class: its EnclosingMethod attribute names the class it is written in
                n = new Nesting(enclosing, n.simpleName(), n.access(), false);
            }
            return new ClassInfo(name, access, superName, interfaces, methods, fields, source, n);
        }
    }
}
