package org.dyper.patch.build;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassPath;
import org.dyper.patch.scan.ClassInfo;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.signature.SignatureReader;
import org.objectweb.asm.signature.SignatureVisitor;

/**
 * Finds the classes ajc cannot weave because a type they need is on neither the targets, the class path, Dyper's
 * runtime nor the JDK: a supertype (transitively), or a type named by one of their members' signatures (fields,
 * methods, generic signatures, annotations), or a supertype of such a type. Real jars have optional dependencies
 * (compression codecs, servlet APIs, OSGi) that are absent at weave time; ajc's front end stops on the first of these
 * it meets ("The type X cannot be resolved"), so such classes are left unpatched instead, and the rest is woven.
 * Method bodies are not looked at: ajc does not resolve what only a body names.
 */
final class MissingTypes {
    private final List<Path> roots;
    private final List<Path> targetRoots;
    private final ClassIndex targets;
    /** Every root, open while {@link #check} runs. */
    private ClassPath all;
    /** Supertypes by internal name (empty when a type has none); absent from the map: not looked up yet. */
    private final Map<String, Optional<List<String>>> supertypes = new HashMap<>();
    /** Types known to be missing although a class file may exist (ajc could not resolve them). */
    private final Set<String> alsoMissing = new HashSet<>();

    /**
     * {@code targets} scanned from {@code targetRoots}; {@code roots}: every jar and folder the woven code may see
     * (targets, class path, runtime), in order.
     */
    MissingTypes(ClassIndex targets, List<Path> targetRoots, List<Path> roots) {
        this.targets = targets;
        this.targetRoots = List.copyOf(targetRoots);
        this.roots = List.copyOf(roots);
    }

    /** Treats {@code binaryName} as missing from now on (ajc said it cannot resolve it). */
    void markMissing(String binaryName) {
        alsoMissing.add(binaryName.replace('.', '/'));
    }

    /**
     * For each of {@code classNames} (binary names of scanned classes) that needs a missing type, the missing types it
     * needs (binary names, sorted); classes that need none are not in the result.
     */
    Map<String, Set<String>> check(Collection<String> classNames) throws IOException {
        Map<String, Set<String>> result = new LinkedHashMap<>();
        try (ClassPath files = ClassPath.of(targetRoots, 0); ClassPath everything = ClassPath.of(roots, 0)) {
            all = everything;
            for (String name : classNames) {
                Set<String> missing = new TreeSet<>();
                String internal = name.replace('.', '/');
                missingInHierarchy(internal, missing, new HashSet<>());
                byte[] bytes = files.read(internal + ".class");
                for (String ref : bytes == null ? Set.<String>of() : referencedTypes(bytes)) {
                    missingInHierarchy(ref, missing, new HashSet<>());
                }
                if (!missing.isEmpty()) {
                    Set<String> dotted = new TreeSet<>();
                    missing.forEach(m -> dotted.add(m.replace('/', '.')));
                    result.put(name, dotted);
                }
            }
        } finally {
            all = null;
        }
        return result;
    }

    /** Adds to {@code missing} the types among {@code internal} and its supertypes that cannot be found. */
    private void missingInHierarchy(String internal, Set<String> missing, Set<String> seen) throws IOException {
        if (!seen.add(internal)) {
            return;
        }
        Optional<List<String>> supers = supertypes(internal);
        if (supers.isEmpty()) {
            missing.add(internal);
            return;
        }
        for (String s : supers.get()) {
            missingInHierarchy(s, missing, seen);
        }
    }

    private Optional<List<String>> supertypes(String internal) throws IOException {
        Optional<List<String>> known = supertypes.get(internal);
        if (known == null) {
            known = alsoMissing.contains(internal) ? Optional.empty() : lookUp(internal);
            supertypes.put(internal, known);
        }
        return known;
    }

    private Optional<List<String>> lookUp(String internal) throws IOException {
        Optional<ClassInfo> scanned = targets.find(internal.replace('/', '.'));
        if (scanned.isPresent()) {
            List<String> s = new ArrayList<>();
            if (scanned.get().superName() != null) {
                s.add(scanned.get().superName().replace('.', '/'));
            }
            scanned.get().interfaces().forEach(i -> s.add(i.replace('.', '/')));
            return Optional.of(s);
        }
        String entry = internal + ".class";
        if (internal.startsWith("java/") || ClassLoader.getPlatformClassLoader().getResource(entry) != null) {
            return Optional.of(List.of());  // the JDK's own hierarchy is complete
        }
        byte[] bytes = all.read(entry);
        if (bytes == null) {
            return Optional.empty();
        }
        ClassReader reader = new ClassReader(bytes);
        List<String> s = new ArrayList<>();
        if (reader.getSuperName() != null) {
            s.add(reader.getSuperName());
        }
        s.addAll(List.of(reader.getInterfaces()));
        return Optional.of(s);
    }

    /** The types (internal names) that the signatures and annotations of a class and its members name. */
    private static Set<String> referencedTypes(byte[] bytes) {
        Set<String> refs = new TreeSet<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName,
                              String[] interfaces) {
                signature(signature, refs);
            }

            @Override
            public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
                descriptor(descriptor, refs);
                return null;
            }

            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                descriptor(descriptor, refs);
                signature(signature, refs);
                return new FieldVisitor(Opcodes.ASM9) {
                    @Override
                    public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                        descriptor(annotation, refs);
                        return null;
                    }
                };
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                                             String[] exceptions) {
                descriptor(descriptor, refs);
                signature(signature, refs);
                if (exceptions != null) {
                    refs.addAll(List.of(exceptions));
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                        descriptor(annotation, refs);
                        return null;
                    }

                    @Override
                    public AnnotationVisitor visitParameterAnnotation(int parameter, String annotation,
                                                                      boolean visible) {
                        descriptor(annotation, refs);
                        return null;
                    }
                };
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return refs;
    }

    private static void descriptor(String descriptor, Set<String> refs) {
        Type t = Type.getType(descriptor);
        if (t.getSort() == Type.METHOD) {
            descriptor(t.getReturnType().getDescriptor(), refs);
            for (Type a : t.getArgumentTypes()) {
                descriptor(a.getDescriptor(), refs);
            }
            return;
        }
        if (t.getSort() == Type.ARRAY) {
            t = t.getElementType();
        }
        if (t.getSort() == Type.OBJECT) {
            refs.add(t.getInternalName());
        }
    }

    private static void signature(String signature, Set<String> refs) {
        if (signature == null) {
            return;
        }
        new SignatureReader(signature).accept(new SignatureVisitor(Opcodes.ASM9) {
            @Override
            public void visitClassType(String name) {
                refs.add(name);
            }

            @Override
            public void visitInnerClassType(String name) {
                // an inner type of the last class type: its name alone is not an internal name; the outer one counts
            }
        });
    }
}
