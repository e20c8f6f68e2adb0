package org.dyper.patch.gen;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dyper.patch.scan.Allocation;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.FieldInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;
import org.objectweb.asm.Opcodes;

/**
 * The join points of one patched method that Dyper writes one advice for: the method's execution, its calls of one
 * method, its monitor acquisitions or releases, its reads or writes of one field, or its allocations of one type.
 * It knows the AspectJ pointcut that selects them and which values they offer to ARGs.
 */
final class Shadow {
    /** The AspectJ join point kind. */
    enum Kind {
        EXECUTION("execution of "), CALL("calls from "), LOCK("monitor acquisitions in "),
        UNLOCK("monitor releases in "), GET("field reads in "), SET("field writes in "), NEW("allocations in "),
        NEW_ARRAY("array allocations in ");

        final String describe;

        Kind(String describe) {
            this.describe = describe;
        }
    }

    final Kind kind;
    final MethodInfo method;
    /** The selecting pointcut, without argument bindings. */
    final String pointcut;
    /** What {@code args(...)} binds here, in order: parameters, arguments passed, the value written, the monitor. */
    final List<String> params;
    /** The value after the join point ({@code void} when none): returned, read, allocated. */
    final String returnType;
    /** Java type of the object {@code target()} binds, or null when ARG TYPE='TARGET' does not apply. */
    final String targetType;
    /** Set for CALL. */
    final CallInfo call;
    /** Set for GET and SET: the field as declared. */
    final FieldInfo field;
    /** Set for NEW and NEW_ARRAY. */
    final Allocation allocation;
    /** What the comment above the advice and warnings name. */
    final String subject;

    private Shadow(Kind kind, MethodInfo method, String pointcut, List<String> params, String returnType,
                   String targetType, CallInfo call, FieldInfo field, Allocation allocation, String subject) {
        this.kind = kind;
        this.method = method;
        this.pointcut = pointcut;
        this.params = List.copyOf(params);
        this.returnType = returnType;
        this.targetType = targetType;
        this.call = call;
        this.field = field;
        this.allocation = allocation;
        this.subject = subject;
    }

    private static String inMethod(MethodInfo m) {
        return " && withincode(" + signaturePattern(m) + ") && within(" + m.owner() + ")";
    }

    static Shadow execution(MethodInfo m) {
        return new Shadow(Kind.EXECUTION, m, "execution(" + signaturePattern(m) + ") && within(" + m.owner() + ")",
                m.parameterTypes(), m.isConstructor() ? "void" : m.returnType(), null, null, null, null,
                m.displayName());
    }

    /** Calls of {@code c} from {@code m}; {@code siblings} are calls of the same name and descriptor on other types. */
    static Shadow call(MethodInfo m, CallInfo c, List<CallInfo> siblings) {
        StringBuilder pc = new StringBuilder("call(" + callPattern(c) + ")" + inMethod(m));
        for (CallInfo s : siblings) {
            // call(Base.m()) also matches calls made through a subclass reference: keep each call in one group
            pc.append(" && !call(").append(callPattern(s)).append(')');
        }
        boolean isStatic = c.opcode() == Opcodes.INVOKESTATIC;
        return new Shadow(Kind.CALL, m, pc.toString(), Types.parameterTypes(c.descriptor()),
                Types.returnType(c.descriptor()), isStatic ? null : c.owner(), c, null, null,
                m.displayName() + " -> " + c.owner() + "." + c.name());
    }

    static Shadow lock(MethodInfo m, boolean release) {
        return new Shadow(release ? Kind.UNLOCK : Kind.LOCK, m, (release ? "unlock()" : "lock()") + inMethod(m),
                List.of("java.lang.Object"), "void", null, null, null, null, m.displayName());
    }

    static Shadow fieldAccess(MethodInfo m, FieldInfo f, boolean write) {
        String pc = (write ? "set(" : "get(") + f.type() + " " + f.owner() + "." + f.name() + ")" + inMethod(m);
        return new Shadow(write ? Kind.SET : Kind.GET, m, pc, write ? List.of(f.type()) : List.of(),
                write ? "void" : f.type(), f.isStatic() ? null : f.owner(), null, f, null,
                m.displayName() + " -> " + f.owner() + "." + f.name());
    }

    static Shadow allocation(MethodInfo m, Allocation a) {
        if (a.kind() == Allocation.Kind.OBJECT) {
            List<String> params = Types.parameterTypes(a.descriptor());
            String pc = "call(" + a.type() + ".new(" + String.join(", ", params) + "))" + inMethod(m);
            return new Shadow(Kind.NEW, m, pc, params, a.type(), null, null, null, a,
                    m.displayName() + " -> new " + a.type());
        }
        List<String> dims = new ArrayList<>(Collections.nCopies(a.dimensions(), "int"));
        String pc = "call(" + a.type() + ".new(" + String.join(", ", dims) + "))" + inMethod(m);
        return new Shadow(Kind.NEW_ARRAY, m, pc, dims, a.type(), null, null, null, a,
                m.displayName() + " -> new " + a.type());
    }

    /** Around advice is refused on lock()/unlock(), and on constructors and fields it would move code that sets a
     *  final field out of its constructor; there the context travels on a per-thread stack. */
    boolean aroundAllowed() {
        return switch (kind) {
            case EXECUTION -> !method.isConstructor();
            case CALL, NEW, NEW_ARRAY -> true;
            default -> false;
        };
    }

    String describe() {
        return kind.describe + subject;
    }

    // ---------------------------------------------------------------- AspectJ spelling

    private static String parameterPattern(MethodInfo m) {
        List<String> params = new ArrayList<>(m.parameterTypes());
        if ((m.access() & Opcodes.ACC_VARARGS) != 0 && !params.isEmpty()) {
            String last = params.get(params.size() - 1);
            params.set(params.size() - 1, last.substring(0, last.length() - 2) + "...");
        }
        return String.join(", ", params);
    }

    /** Patterns use binary names ({@code Outer$Inner}), which AspectJ accepts and which also fit anonymous classes. */
    static String signaturePattern(MethodInfo m) {
        if (m.isConstructor()) {
            return m.owner() + ".new(" + parameterPattern(m) + ")";
        }
        return m.returnType() + " " + m.owner() + "." + m.name() + "(" + parameterPattern(m) + ")";
    }

    static String callPattern(CallInfo c) {
        return Types.returnType(c.descriptor()) + " " + c.owner() + "." + c.name() + "("
                + String.join(", ", Types.parameterTypes(c.descriptor())) + ")";
    }
}
