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
     * Code written in exactly the class of {@code m}, where {@code m}'s signature pattern could match a method:
     * {@code within(p.Top)} of its top-level class and, for each other class nested in {@code p.Top} that extends or
     * implements {@code m}'s class and declares a method of {@code m}'s name, {@code !within(p.Top.Nested)} (its
     * marker where AspectJ cannot name it); for a marked class, {@code within(p.Top)} and its marker. The signature's
     * declaring type pins the class among those nested in {@code p.Top}: a nested class that is not a subtype, or
     * declares no method of that name, has no join point the signature pattern matches, and constructors are never
     * inherited.
     *
     * <p>Why the top-level class: ajc decides {@code within} of a top-level class per class before it looks at the
     * class's join points, at the cost of comparing two types; for a nested class's dotted name or a wildcard
     * ({@code p.Base.*}) it compiles a regular expression per advice and class (AspectJ 1.9.25's
     * {@code WildTypePattern}), and for an annotation pattern (a marker) it cannot decide it at all and matches the
     * advice against every method of every class of the batch. Spelled those ways, a broad weave of lucene-core took
     * four times as long (issue 20).
     */
    String within(MethodInfo m) {
        String binaryName = m.owner();
        String owner = owner(binaryName);
        String top = topLevel(binaryName);
        if (owner.startsWith("(@")) {
            // nested classes carry no marker of their own; the signature's declaring type pins the class too
            return "within(" + top + ") && within" + owner;
        }
        StringBuilder s = new StringBuilder("within(").append(top).append(')');
        if (!m.isConstructor()) {
            for (String n : nested(top)) {
                if (!n.equals(binaryName) && declares(n, m.name()) && isSubtype(n, binaryName, true)) {
                    String nestedOwner = owner(n);
                    s.append(" && !within")
                            .append(nestedOwner.startsWith("(@") ? nestedOwner : "(" + nestedOwner + ")");
                }
            }
        }
        return s.toString();
    }

    /**
     * What pins an execution join point's pointcut to {@code m}'s own class, after its signature pattern: for a method
     * of a class AspectJ can name, only {@code !within(S)} for each subtype {@code S} of the targets that declares a
     * method of the same name (ajc rules a class out by the signature's exact declaring type, walking its superclasses,
     * which is cheaper than {@code within}'s walk through its outer classes); else {@link #within}. Starts with
     * " && " unless empty.
     */
    String executionWithin(MethodInfo m) {
        String owner = owner(m.owner());
        if (m.isConstructor() || owner.startsWith("(@")) {
            return " && " + within(m);
        }
        StringBuilder s = new StringBuilder();
        for (String sub : subtypes(m.owner())) {
            if (!sub.equals(m.owner()) && declares(sub, m.name())) {
                String subOwner = owner(sub);
                if (subOwner.startsWith("(@")) {
                    return " && " + within(m);
                }
                s.append(" && !within(").append(subOwner).append(')');
            }
        }
        return s.toString();
    }

    /** Classes of the targets by each of their supertypes (transitively); built on first use. */
    private Map<String, List<String>> subtypesOf;

    private List<String> subtypes(String binaryName) {
        if (subtypesOf == null) {
            subtypesOf = new java.util.HashMap<>();
            for (ClassInfo c : targets.classes()) {
                java.util.Set<String> seen = new java.util.HashSet<>();
                List<String> pending = new ArrayList<>();
                if (c.superName() != null) {
                    pending.add(c.superName());
                }
                pending.addAll(c.interfaces());
                for (int i = 0; i < pending.size() && i < 256; i++) {
                    String t = pending.get(i);
                    if (t.startsWith("java.") || !seen.add(t)) {
                        continue;
                    }
                    subtypesOf.computeIfAbsent(t, k -> new ArrayList<>()).add(c.name());
                    Optional<ClassInfo> info = info(t);
                    if (info.isPresent()) {
                        if (info.get().superName() != null) {
                            pending.add(info.get().superName());
                        }
                        pending.addAll(info.get().interfaces());
                    }
                }
            }
        }
        return subtypesOf.getOrDefault(binaryName, List.of());
    }

    /** The top-level class {@code binaryName} is nested in (itself when it is one). */
    private String topLevel(String binaryName) {
        String c = binaryName;
        for (int depth = 0; depth < 256; depth++) {
            Optional<ClassInfo> info = info(c);
            if (info.isEmpty() || info.get().nesting() == null) {
                return c;
            }
            String outer = info.get().nesting().outer();
            if (outer == null) {
                int dollar = c.lastIndexOf('$');
                if (dollar <= 0) {
                    return c;
                }
                outer = c.substring(0, dollar);
            }
            c = outer;
        }
        return c;
    }

    /** Classes of the targets whose binary names say they are nested (at any depth) in a class, by its name. */
    private Map<String, List<String>> nestedIn;

    private List<String> nested(String binaryName) {
        if (nestedIn == null) {
            nestedIn = new java.util.HashMap<>();
            for (ClassInfo c : targets.classes()) {
                String name = c.name();
                for (int i = name.indexOf('$'); i > 0; i = name.indexOf('$', i + 1)) {
                    nestedIn.computeIfAbsent(name.substring(0, i), k -> new ArrayList<>()).add(name);
                }
            }
        }
        return nestedIn.getOrDefault(binaryName, List.of());
    }

    private boolean declares(String binaryName, String method) {
        Optional<ClassInfo> c = info(binaryName);
        return c.isEmpty() || c.get().methods().stream().anyMatch(x -> x.name().equals(method));
    }

    /**
     * Whether {@code type} extends or implements {@code supertype}, directly or not, as far as the classes can be
     * read (the targets, the class path, the JDK); {@code unsure} when a supertype on the way cannot be read.
     */
    boolean isSubtype(String type, String supertype, boolean unsure) {
        boolean ofTheJdk = supertype.startsWith("java.");
        List<String> pending = new ArrayList<>(List.of(type));
        for (int i = 0; i < pending.size(); i++) {
            if (i >= 256) {
                return unsure;
            }
            if (pending.get(i).startsWith("java.") && !ofTheJdk) {
                continue;  // the JDK's classes extend none of the program's
            }
            Optional<ClassInfo> c = info(pending.get(i));
            if (c.isEmpty()) {
                // a supertype we cannot read: it might extend the class
                if (i > 0 && unsure) {
                    return true;
                }
                continue;
            }
            if (c.get().superName() != null) {
                pending.add(c.get().superName());
            }
            pending.addAll(c.get().interfaces());
            if (pending.subList(i + 1, pending.size()).contains(supertype)) {
                return true;
            }
        }
        return false;
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
