package org.dyper.patch.aspectj;

import org.dyper.patch.bytecode.BytecodePlan;
import org.dyper.patch.scan.ClassLookup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Nesting;
import org.dyper.patch.scan.Types;
import org.objectweb.asm.Opcodes;

/**
 * How generated code names classes and members. AspectJ matches a nested class only by its dotted name
 * ({@code p.Outer.Inner}, never {@code p.Outer$Inner}) except as an array's element, where the binary name is the one
 * that always matches (see {@link #type}), matches an anonymous class only by {@code p.Outer.*}, and
 * spells a varargs parameter {@code T...}; Java source in the generated aspects may name only the classes code in
 * another package can see (anything else it passes as {@code Object}, so the aspects need no privileged access, which
 * would make AspectJ turn those classes public).
 *
 * <p>A patched method of an anonymous or local class is told apart from its siblings by a marker: an annotation type
 * the generation's shared class declares, which the bytecode pass puts on that class as an invisible (class-file
 * retention) annotation. Reflection never sees it.
 */
final class SourceNames {
    private final ClassIndex targets;
    private final ClassLookup lookup;
    private final String markerOwner;
    /** Marker annotation simple names by the binary name of the class they mark. */
    private final Map<String, String> markers = new LinkedHashMap<>();

    /** {@code markerOwner}: the generated type (fully qualified, dots) that declares the marker annotations. */
    SourceNames(ClassIndex targets, ClassLookup lookup, String markerOwner) {
        this.targets = targets;
        this.lookup = lookup;
        this.markerOwner = markerOwner;
    }

    private Optional<ClassInfo> info(String binaryName) {
        Optional<ClassInfo> c = targets.find(binaryName);
        return c.isPresent() ? c : lookup.find(binaryName);
    }

    // ---------------------------------------------------------------- AspectJ type patterns

    /**
     * The pattern for exactly this type where AspectJ can name it: a top-level class by its binary name, a member
     * class dotted, arrays of any class by the element's binary name with {@code []}; else (anonymous and local
     * classes, names AspectJ cannot spell) a pattern for any class nested in its outer class ({@code p.Outer.*}),
     * which {@link #isExact} reports.
     *
     * <p>In an array type pattern AspectJ resolves a dotted nested name only where the nested class is public from the
     * aspect's package; for a private, package-private or protected one ({@code p.Outer.Pkg[][]}) it compares the
     * name as written with the array's binary element name and never matches. The binary name
     * ({@code p.Outer$Pkg[][]}) matches every nested class, at every dimension, in every weaving way (issue 20).
     */
    String type(String javaType) {
        String base = javaType.replace("[]", "");
        String dims = javaType.substring(base.length());
        if (Types.isPrimitive(base) || !dims.isEmpty()) {
            return javaType;
        }
        String dotted = dotted(base);
        return dotted != null ? dotted : loose(base);
    }

    /** Whether {@link #type} names exactly this type (not every class nested in its outer class). */
    boolean isExact(String javaType) {
        String base = javaType.replace("[]", "");
        return Types.isPrimitive(base) || javaType.length() > base.length() || dotted(base) != null;
    }

    /** The dotted name AspectJ matches this class by, or null when it has none (anonymous, local, odd names). */
    private String dotted(String binaryName) {
        Optional<ClassInfo> c = info(binaryName);
        if (c.isEmpty() || c.get().nesting() == null) {
            // top level: AspectJ splits a name at '$' only for classes whose InnerClasses attribute names them
            return binaryName;
        }
        Nesting n = c.get().nesting();
        if (!n.member() || n.outer() == null || !isIdentifier(n.simpleName())
                || !binaryName.equals(n.outer() + "$" + n.simpleName())) {
            return null;
        }
        String outer = dotted(n.outer());
        return outer == null ? null : outer + "." + n.simpleName();
    }

    private String loose(String binaryName) {
        Optional<ClassInfo> c = info(binaryName);
        String outer = c.isPresent() && c.get().nesting() != null ? c.get().nesting().outer() : null;
        if (outer == null) {
            int dollar = binaryName.lastIndexOf('$');
            outer = dollar > 0 ? binaryName.substring(0, dollar) : null;
        }
        return outer == null ? binaryName : type(outer) + ".*";
    }

    /**
     * Whether the pattern {@link #type} gives for {@code patternOf} also matches the class {@code type}: only a
     * pattern for any class nested in an outer class can, when {@code type} is nested in the same one.
     */
    boolean covers(String patternOf, String type) {
        if (isExact(patternOf)) {
            return false;
        }
        List<String> pattern = List.of(type(patternOf).split("\\."));
        List<String> names = components(type);
        if (names.size() != pattern.size()) {
            return false;
        }
        for (int i = 0; i < names.size(); i++) {
            if (!pattern.get(i).equals("*") && !pattern.get(i).equals(names.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The name parts AspectJ compares a type pattern with: at dots, and for a nested class also at '$'. */
    private List<String> components(String binaryName) {
        List<String> parts = new ArrayList<>(List.of(binaryName.split("\\.")));
        Optional<ClassInfo> c = info(binaryName);
        if (c.isPresent() && c.get().nesting() != null) {
            String last = parts.remove(parts.size() - 1);
            parts.addAll(List.of(last.split("\\$", -1)));
        }
        return parts;
    }

    private static boolean isIdentifier(String s) {
        if (s == null || s.isEmpty() || s.indexOf('$') >= 0 || !Character.isJavaIdentifierStart(s.charAt(0))) {
            return false;
        }
        return s.chars().allMatch(Character::isJavaIdentifierPart);
    }

    /**
     * The declaring type of a patched method's own join points: its class's dotted name, or for a class AspectJ
     * cannot name exactly, {@code (@Marker *)} with a marker for that class.
     */
    String owner(String binaryName) {
        String dotted = dotted(binaryName);
        if (dotted != null) {
            return dotted;
        }
        String marker = markers.computeIfAbsent(binaryName, k -> "Type" + (markers.size() + 1));
        return "(@" + markerOwner + "." + marker + " *)";
    }

    /**
     * Code written in exactly the class {@code binaryName}, not in a class nested in it (whose code AspectJ's
     * {@code within} also covers): {@code within(p.Base) && !within(p.Base.*)}; for a marked class its marker.
     */
    String within(String binaryName) {
        String owner = owner(binaryName);
        if (owner.startsWith("(@")) {
            // nested classes carry no marker of their own; the signature's declaring type pins the class too
            return "within" + owner;
        }
        return "within(" + owner + ") && !within(" + owner + ".*)";
    }

    /** Binary names of the classes that need a marker, with the annotation's simple name (nested in the owner). */
    Map<String, String> markers() {
        return markers;
    }

    /** The JVM descriptor of the marker annotation named {@code simpleName}. */
    String markerDescriptor(String simpleName) {
        return "L" + markerOwner.replace('.', '/') + "$" + simpleName + ";";
    }

    /**
     * Has the bytecode pass put each marker on its class (read again from the targets); those classes are woven, and
     * so added to {@code woven}.
     */
    void markClasses(BytecodePlan plan, java.util.Set<String> woven) {
        markers.forEach((className, marker) -> {
            try {
                plan.mark(className, targets.classFile(className), markerDescriptor(marker));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot read the class file of " + className, e);
            }
            woven.add(className);
        });
    }

    /** Java source declaring the marker annotations, for the body of {@code markerOwner}. */
    String markerDeclarations() {
        StringBuilder s = new StringBuilder();
        markers.forEach((c, name) -> s.append("    // marks ").append(c).append(" (invisible to reflection)\n")
                .append("    @java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)\n")
                .append("    @java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE)\n")
                .append("    @interface ").append(name).append(" {}\n\n"));
        return s.toString();
    }

    // ---------------------------------------------------------------- signatures

    private String parameters(List<String> types, boolean varargs) {
        List<String> params = new ArrayList<>();
        for (String t : types) {
            params.add(type(t));
        }
        if (varargs && !params.isEmpty()) {
            String last = params.get(params.size() - 1);
            params.set(params.size() - 1, last.substring(0, last.length() - 2) + "...");
        }
        return String.join(", ", params);
    }

    /** The signature pattern of a patched method or constructor, as execution() and withincode() take it. */
    String signature(MethodInfo m) {
        boolean varargs = (m.access() & Opcodes.ACC_VARARGS) != 0;
        String params = "(" + parameters(m.parameterTypes(), varargs) + ")";
        if (m.isConstructor()) {
            return owner(m.owner()) + ".new" + params;
        }
        return type(m.returnType()) + " " + owner(m.owner()) + "." + m.name() + params;
    }

    /** The signature pattern of a called method, as call() takes it. */
    String call(CallInfo c) {
        return type(Types.returnType(c.descriptor())) + " " + type(c.owner()) + "." + c.name() + "("
                + parameters(Types.parameterTypes(c.descriptor()), isVarargs(c.owner(), c.name(), c.descriptor()))
                + ")";
    }

    /** The pattern of a constructor called by {@code new}, as call() takes it. */
    String constructor(String type, String descriptor) {
        return type(type) + ".new(" + parameters(Types.parameterTypes(descriptor), isVarargs(type, "<init>",
                descriptor)) + ")";
    }

    /**
     * Whether the method {@code owner.name descriptor} (declared there or inherited) is declared varargs; false when
     * its class file cannot be found.
     */
    boolean isVarargs(String owner, String name, String descriptor) {
        List<String> pending = new ArrayList<>(List.of(owner));
        for (int i = 0; i < pending.size() && i < 64; i++) {
            Optional<ClassInfo> c = info(pending.get(i));
            if (c.isEmpty()) {
                continue;
            }
            for (MethodInfo m : c.get().methods()) {
                if (m.name().equals(name) && m.descriptor().equals(descriptor)) {
                    return (m.access() & Opcodes.ACC_VARARGS) != 0;
                }
            }
            if (!name.equals("<init>")) {
                if (c.get().superName() != null) {
                    pending.add(c.get().superName());
                }
                pending.addAll(c.get().interfaces());
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- Java source

    /**
     * A type the generated Java source may use for a value of {@code javaType}: its source name when code in the
     * generated package can name it, else {@code java.lang.Object} (with the array dimensions kept).
     */
    String javaType(String javaType) {
        String base = javaType.replace("[]", "");
        String dims = javaType.substring(base.length());
        if (Types.isPrimitive(base)) {
            return javaType;
        }
        String source = sourceName(base);
        return (source != null ? source : "java.lang.Object") + dims;
    }

    /** Whether the generated Java source may name the class {@code binaryName} (see {@link #javaType}). */
    boolean isNameable(String binaryName) {
        return sourceName(binaryName) != null;
    }

    private String sourceName(String binaryName) {
        Optional<ClassInfo> c = info(binaryName);
        if (c.isEmpty()) {
            return Types.sourceType(binaryName);  // not found: as before, the compiler will say so if it is wrong
        }
        if (!c.get().isPublic()) {
            return null;
        }
        Nesting n = c.get().nesting();
        if (n == null) {
            return binaryName.indexOf('$') >= 0 ? null : binaryName;
        }
        String outer = n.outer() == null ? null : sourceName(n.outer());
        return outer == null || !isIdentifier(n.simpleName()) ? null : outer + "." + n.simpleName();
    }
}
