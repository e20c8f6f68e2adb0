package org.dyper.patch.ask;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.dyper.patch.ask.Question.Name;
import org.dyper.patch.ask.Question.Target;
import org.dyper.patch.ask.Question.ValueRef;
import org.dyper.patch.ask.QuestionCompiler.JoinPoint;
import org.dyper.patch.scan.Allocation;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassInfo;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.patch.scan.MethodInfo;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Resolves the names of a question against the scanned classes (the class path, as every Dyper command reads it)
 * and finds the join points that can contribute: the calls of a method (in one caller or all), the allocations of a
 * type, the monitors a method enters. A name the classes lack is a {@link QuestionException} at its column.
 */
final class Resolver {
    private final ClassIndex index;
    /** The JDK's classes read so far, by the name a question gave. */
    private final java.util.Map<String, Optional<ClassInfo>> jdk = new java.util.HashMap<>();

    Resolver(ClassIndex index) {
        this.index = index;
    }

    /** The methods a name selects ({@code Class.method}, all overloads, or {@code Class.method(params)}). */
    List<MethodInfo> methods(Name name) throws QuestionException {
        String className = className(name);
        ClassInfo c = type(className).orElseThrow(() -> new QuestionException(name.column(), "no class '"
                + className + "' in the classes on the class path" + (jdkType(className).isPresent()
                ? " (a JDK class: its own code is not woven, only the calls to it)" : "")));
        return select(name, c, true);
    }

    /**
     * The methods a call target selects: as {@link #methods}, and also of the JDK's classes, and without a body of
     * their own (an interface's, abstract or native methods are called all the same), since the calls are measured
     * in the callers.
     */
    List<MethodInfo> calledMethods(Name name) throws QuestionException {
        String className = className(name);
        Optional<ClassInfo> c = type(className);
        boolean fromJdk = c.isEmpty();
        if (fromJdk) {
            c = jdkType(className);
        }
        List<MethodInfo> selected = select(name, c.orElseThrow(() -> new QuestionException(name.column(), "no class '"
                + className + "' in the classes on the class path or the JDK")), false);
        // the program calls a JDK class's public and protected methods only (its private ones are its own helpers)
        List<MethodInfo> callable = fromJdk
                ? selected.stream().filter(m -> (m.access() & Opcodes.ACC_PRIVATE) == 0).toList() : selected;
        if (callable.isEmpty()) {
            throw new QuestionException(name.column(), name.text()
                    + ": private in the JDK; the program cannot call it");
        }
        return callable;
    }

    /** Whether the class {@code name} names is one of the JDK's (and not on the class path). */
    boolean isJdkClass(Name name) {
        String className = className(name);
        return type(className).isEmpty() && jdkType(className).isPresent();
    }

    private static String className(Name name) {
        String s = name.text();
        int paren = s.indexOf('(');
        String head = paren < 0 ? s : s.substring(0, paren);
        return head.substring(0, head.lastIndexOf('.'));
    }

    /** A JDK class (java.*, javax.*, ...) read from the running JDK, dotted or with '$' for nested ones; read once. */
    private Optional<ClassInfo> jdkType(String name) {
        return jdk.computeIfAbsent(name, n -> nested(n, Resolver::readJdkClass));
    }

    private static Optional<ClassInfo> readJdkClass(String binaryName) {
        try (java.io.InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(
                binaryName.replace('.', '/') + ".class")) {
            return in == null ? Optional.empty() : Optional.of(ClassScanner.read(in.readAllBytes(), "the JDK"));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The first class {@code find} has under {@code name} as written, then with its last dots read as '$' one by one
     * from the right ({@code p.Outer.Inner} is {@code p.Outer$Inner}).
     */
    private static Optional<ClassInfo> nested(String name,
                                              java.util.function.Function<String, Optional<ClassInfo>> find) {
        Optional<ClassInfo> c = find.apply(name);
        String n = name;
        while (c.isEmpty() && n.lastIndexOf('.') > 0) {
            int dot = n.lastIndexOf('.');
            n = n.substring(0, dot) + "$" + n.substring(dot + 1);
            c = find.apply(n);
        }
        return c;
    }

    private List<MethodInfo> select(Name name, ClassInfo c, boolean needBody) throws QuestionException {
        String s = name.text();
        int paren = s.indexOf('(');
        String head = paren < 0 ? s : s.substring(0, paren);
        int dot = head.lastIndexOf('.');
        String method = head.substring(dot + 1);
        int methodColumn = name.column() + dot + 1;
        List<MethodInfo> named = c.methods().stream().filter(m -> m.name().equals(method)).toList();
        if (named.isEmpty()) {
            TreeSet<String> names = new TreeSet<>();
            c.methods().stream().filter(MethodInfo::hasUserBody).filter(m -> !m.name().startsWith("<"))
                    .forEach(m -> names.add(m.name()));
            throw new QuestionException(methodColumn, c.name() + " has no method '" + method + "'"
                    + (names.isEmpty() ? "" : " (it has: " + String.join(", ", names) + ")"));
        }
        if (paren >= 0) {
            List<String> wanted = params(s.substring(paren + 1, s.length() - 1));
            named = named.stream().filter(m -> sameParams(m.parameterTypes(), wanted)).toList();
            if (named.isEmpty()) {
                throw new QuestionException(methodColumn + method.length(), c.name() + "." + method + " has no "
                        + "overload (" + String.join(",", wanted) + ")");
            }
        }
        if (!needBody) {
            return named;
        }
        List<MethodInfo> bodies = named.stream().filter(MethodInfo::hasUserBody).toList();
        if (bodies.isEmpty()) {
            throw new QuestionException(methodColumn, c.name() + "." + method + " has no body here (abstract, "
                    + "native or synthetic): name the class that implements it");
        }
        return bodies;
    }

    /**
     * The field {@code name} ({@code Class.field}, declared there or in a superclass); a missing class or field is an
     * error at the name's column.
     */
    org.dyper.patch.scan.FieldInfo field(Name name) throws QuestionException {
        String s = name.text();
        int dot = s.lastIndexOf('.');
        String fieldName = s.substring(dot + 1);
        ClassInfo c = type(s.substring(0, dot)).orElseThrow(() -> new QuestionException(name.column(), "no class '"
                + s.substring(0, dot) + "' in the classes on the class path"));
        return index.field(c.name(), fieldName).orElseThrow(() -> {
            TreeSet<String> fields = new TreeSet<>();
            c.fields().forEach(f -> fields.add(f.name()));
            return new QuestionException(name.column() + dot + 1, c.name() + " has no field '" + fieldName + "'"
                    + (fields.isEmpty() ? "" : " (it has: " + String.join(", ", fields) + ")"));
        });
    }

    /** Whether code of class {@code className} sees field {@code f} as its own (declared there or inherited). */
    boolean sees(String className, org.dyper.patch.scan.FieldInfo f) {
        return index.field(className, f.name()).map(x -> x.owner().equals(f.owner())).orElse(false);
    }

    /**
     * The binary name of the exception class a question names: a class on the class path, or one of the JDK (read
     * where this JVM reads its own). A name neither has is an error at {@code column}.
     */
    String exceptionClass(String name, int column) throws QuestionException {
        Optional<ClassInfo> c = type(name);
        if (c.isEmpty()) {
            c = jdkType(name);
        }
        return c.map(ClassInfo::name).orElseThrow(() -> new QuestionException(column, "no class '" + name
                + "' in the classes on the class path or the JDK"));
    }

    private Optional<ClassInfo> type(String name) {
        return nested(name, index::find);
    }

    private static List<String> params(String list) {
        List<String> out = new ArrayList<>();
        for (String p : list.split(",")) {
            if (!p.isBlank()) {
                out.add(p.strip());
            }
        }
        return out;
    }

    private static boolean sameParams(List<String> actual, List<String> wanted) {
        if (actual.size() != wanted.size()) {
            return false;
        }
        for (int i = 0; i < actual.size(); i++) {
            String a = actual.get(i);
            String w = wanted.get(i);
            String simple = a.substring(Math.max(a.lastIndexOf('.'), a.lastIndexOf('$')) + 1);
            if (!a.equals(w) && !simple.equals(w) && !a.replace('$', '.').equals(w)) {
                return false;
            }
        }
        return true;
    }

    /** Checks that {@code r} exists in {@code m} and is a whole number. */
    void checkValue(ValueRef r, MethodInfo m) throws QuestionException {
        String type;
        if (r.isReturn()) {
            type = m.returnType();
            if (type.equals("void")) {
                throw new QuestionException(r.column(), "return: " + m.displayName() + " returns nothing (void)");
            }
        } else {
            List<String> params = m.parameterTypes();
            if (r.index() > params.size()) {
                throw new QuestionException(r.column(), r + ": " + m.displayName() + " has " + params.size()
                        + (params.size() == 1 ? " parameter" : " parameters"));
            }
            type = params.get(r.index() - 1);
        }
        if (!QuestionCompiler.INTEGRAL.contains(type)) {
            throw new QuestionException(r.column(), r + " of " + m.displayName() + " is a " + type + ": questions "
                    + "compare, sum and group whole numbers only (int, long, short, byte, char)");
        }
    }

    /**
     * The call sites of {@code targets} in {@code callers} (null: in every scanned method). Calls the CALL join
     * point does not see (in lambda bodies and other synthetic methods, {@code super.m()}) are left out with a
     * warning; no call at all is an error at the target's column.
     */
    List<JoinPoint> calls(List<MethodInfo> targets, List<MethodInfo> callers, Target target, List<String> warnings)
            throws QuestionException {
        String owner = targets.get(0).owner();
        String name = targets.get(0).name();
        List<String> descriptors = targets.stream().map(MethodInfo::descriptor).toList();
        List<JoinPoint> out = new ArrayList<>();
        int unseen = 0;
        List<MethodInfo> scope = callers;
        if (scope == null) {
            scope = new ArrayList<>();
            for (ClassInfo c : index.classes()) {
                scope.addAll(c.methods());
            }
        }
        for (MethodInfo m : scope) {
            int i = 0;
            for (CallInfo call : m.calls()) {
                i++;
                if (!call.owner().equals(owner) || !call.name().equals(name)) {
                    continue;
                }
                if (!descriptors.contains(call.descriptor())) {
                    throw new QuestionException(target.name().column(), m.displayName() + " also calls another "
                            + "overload of " + owner + "." + name + ", which a CALL patch cannot tell apart: ask about "
                            + "all of them (no parameter list)");
                }
                if (!m.hasUserBody() || call.opcode() == Opcodes.INVOKESPECIAL) {
                    unseen++;
                    continue;
                }
                out.add(new JoinPoint(m, "#" + i, 1, "CALL in " + m.displayName() + " of " + owner + "." + name
                        + (call.line() > 0 ? " (line " + call.line() + ")" : "")));
            }
        }
        if (unseen > 0) {
            warnings.add(target.name().text() + ": " + unseen + " call(s) in lambda bodies, synthetic methods or "
                    + "super calls are not CALL join points and go unmeasured");
        }
        if (out.isEmpty()) {
            Name at = target.from() != null ? target.from() : target.name();
            throw new QuestionException(at.column(), "no call of " + owner + "." + name
                    + (callers == null ? " in the classes on the class path" : " in " + target.from().text())
                    + (unseen > 0 ? " that a CALL patch can see" : ""));
        }
        return out;
    }

    /** The allocations ({@code new T}) of a type in every scanned method. */
    List<JoinPoint> allocations(Name type) throws QuestionException {
        String t = type(type.text()).map(ClassInfo::name).orElse(type.text());
        List<JoinPoint> out = new ArrayList<>();
        for (ClassInfo c : index.classes()) {
            for (MethodInfo m : c.methods()) {
                if (!m.hasUserBody()) {
                    continue;
                }
                int i = 0;
                for (Allocation a : m.allocations()) {
                    i++;
                    if (a.kind() == Allocation.Kind.OBJECT && a.type().equals(t)) {
                        out.add(new JoinPoint(m, "#" + i, 1, "OBJECT_ALLOC in " + m.displayName() + " of " + t
                                + (a.line() > 0 ? " (line " + a.line() + ")" : "")));
                    }
                }
            }
        }
        if (out.isEmpty()) {
            throw new QuestionException(type.column(), "no 'new " + type.text() + "' in the classes on the class "
                    + "path" + (type(type.text()).isEmpty() ? " (and no such class there)" : ""));
        }
        return out;
    }

    /** A field and the instructions that write it. */
    record Writes(org.dyper.patch.scan.FieldInfo field, List<JoinPoint> points) {
    }

    /**
     * The field {@code name} ({@code Class.field}, declared there or in a superclass) and every instruction on the
     * class path that writes it (constructors and static initialisers included). A missing class or field, or no
     * write at all, is an error at the name's column.
     */
    Writes writes(Name name) throws QuestionException {
        org.dyper.patch.scan.FieldInfo field = field(name);
        String fieldName = field.name();
        List<JoinPoint> out = new ArrayList<>();
        int put = field.isStatic() ? Opcodes.PUTSTATIC : Opcodes.PUTFIELD;
        for (ClassInfo k : index.classes()) {
            for (MethodInfo m : k.methods()) {
                int i = 0;
                for (org.dyper.patch.scan.FieldInstruction f : m.fieldAccesses()) {
                    if (f.opcode() != put || !f.name().equals(fieldName)) {
                        continue;
                    }
                    if (!index.field(f.owner(), fieldName).map(x -> x.owner().equals(field.owner())).orElse(false)) {
                        continue;
                    }
                    i++;
                    out.add(new JoinPoint(m, "#" + i, 1, (field.isStatic() ? "STATIC_WRITE" : "FIELD_WRITE") + " in "
                            + m.displayName() + " of " + field.owner() + "." + fieldName
                            + (f.line() > 0 ? " (line " + f.line() + ")" : "")));
                }
            }
        }
        if (out.isEmpty()) {
            throw new QuestionException(name.column(), "nothing on the class path writes " + field.owner() + "."
                    + fieldName);
        }
        return new Writes(field, out);
    }

    /** The monitor entries of methods: each {@code monitorenter}, and the method's own when it is synchronized. */
    List<JoinPoint> locks(List<MethodInfo> methods, Name name, String what) throws QuestionException, IOException {
        List<JoinPoint> out = new ArrayList<>();
        for (MethodInfo m : methods) {
            if (m.isSynchronized()) {
                out.add(new JoinPoint(m, "sync", 1, what + " of " + m.displayName()
                        + " (synchronized method)"));
            }
            int blocks = monitorEnters(m);
            for (int b = 1; b <= blocks; b++) {
                out.add(new JoinPoint(m, "monitorenter #" + b, 1, what + " in " + m.displayName()
                        + " (synchronized block " + b + ")"));
            }
        }
        if (out.isEmpty()) {
            throw new QuestionException(name.column(), name.text() + " takes no lock (no synchronized block, not "
                    + "synchronized)");
        }
        return out;
    }

    private int monitorEnters(MethodInfo m) throws IOException {
        if (!m.entersMonitors()) {
            return 0;
        }
        int[] n = {0};
        new ClassReader(index.classFile(m.owner())).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String mName, String desc, String sig, String[] ex) {
                if (!mName.equals(m.name()) || !desc.equals(m.descriptor())) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.MONITORENTER) {
                            n[0]++;
                        }
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return n[0];
    }

    /** The FOR's METHOD of one method: its name (or {@code new}) and its parameter list, so no overload is added. */
    static String methodPattern(MethodInfo m) {
        return (m.isConstructor() ? "new" : m.name()) + "(" + String.join(",", m.parameterTypes()) + ")";
    }

    /** The WHEN CASE='METHOD' argument of calls of a named method: {@code Class.name}. */
    static String calledPattern(Name n) {
        String s = n.text();
        int paren = s.indexOf('(');
        return (paren < 0 ? s : s.substring(0, paren)).replace('$', '.');
    }
}
