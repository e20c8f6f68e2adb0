package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dyper.patch.model.What;
import org.dyper.patch.scan.Allocation;
import org.dyper.patch.scan.CallInfo;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.FieldInstruction;
import org.dyper.patch.scan.FieldInfo;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;
import org.objectweb.asm.Opcodes;

/**
 * The join points of one patched method that Dyper writes one advice for: the method's execution, its calls of one
 * method, its monitor acquisitions or releases, its reads or writes of one field, or its allocations of one type.
 * It knows the AspectJ pointcut that selects them and which values they offer to ARGs.
 */
final class JoinPoint {
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
    /**
     * How many values AspectJ's {@code args()} sees here: the parameters, except at an array allocation, where
     * AspectJ counts one per dimension of the array type it gives the join point ({@code new int[n][]} has one length
     * but two "arguments"; the binding of the real ones is right), see {@link #aspectjArrayType}.
     */
    final int argsArity;
    /** Why no pointcut can select exactly this group (another one in the method looks alike to AspectJ, or AspectJ
     *  makes no join point of it), or null: its patches are then skipped there with this reason. */
    String ambiguity;

    private JoinPoint(Kind kind, MethodInfo method, String pointcut, List<String> params, String returnType,
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
        String arrayType = kind == Kind.NEW_ARRAY ? aspectjArrayType(allocation) : null;
        this.argsArity = kind == Kind.NEW_ARRAY ? (arrayType.length() - arrayType.replace("[]", "").length()) / 2
                : this.params.size();
    }

    private static String inMethod(MethodInfo m, SourceNames names) {
        return " && withincode(" + names.signature(m) + ") && " + names.within(m);
    }

    static JoinPoint execution(MethodInfo m, SourceNames names) {
        return new JoinPoint(Kind.EXECUTION, m, "execution(" + names.signature(m) + ")" + names.executionWithin(m),
                m.parameterTypes(), m.isConstructor() ? "void" : m.returnType(), null, null, null, null,
                m.displayName());
    }

    /**
     * The execution of {@code m} where no AspectJ pointcut is written ({@link PlainCalls}): the same values, no
     * pointcut, so that no class gets a marker annotation it does not need.
     */
    static JoinPoint unnamedExecution(MethodInfo m) {
        return new JoinPoint(Kind.EXECUTION, m, null, m.parameterTypes(), m.isConstructor() ? "void" : m.returnType(),
                null, null, null, null, m.displayName());
    }

    /** One group per method {@code m} calls (its call join points), in bytecode order. */
    static List<JoinPoint> calls(MethodInfo m, SourceNames names) {
        Map<String, CallInfo> callees = new LinkedHashMap<>();
        for (CallInfo c : m.calls()) {
            if (isCallJoinPoint(m, c)) {
                callees.putIfAbsent(c.key(), c);
            }
        }
        List<JoinPoint> shadows = new ArrayList<>();
        for (CallInfo callee : callees.values()) {
            List<CallInfo> siblings = callees.values().stream().filter(o -> o != callee
                    && o.name().equals(callee.name()) && o.descriptor().equals(callee.descriptor())).toList();
            shadows.add(call(m, callee, siblings, names));
        }
        return shadows;
    }

    /** Calls AspectJ has a call join point for: not constructors, super calls, or signature-polymorphic calls. */
    static boolean isCallJoinPoint(MethodInfo caller, CallInfo c) {
        if (c.name().equals("<init>") || c.owner().startsWith(org.dyper.runtime.Dyper.class.getPackageName() + ".")) {
            return false;
        }
        if (c.opcode() == Opcodes.INVOKESPECIAL && !c.owner().equals(caller.owner())) {
            return false;
        }
        return !(c.owner().equals("java.lang.invoke.MethodHandle") || c.owner().equals("java.lang.invoke.VarHandle"));
    }

    /** Calls of {@code c} from {@code m}; {@code siblings} are calls of the same name and descriptor on other types. */
    static JoinPoint call(MethodInfo m, CallInfo c, List<CallInfo> siblings, SourceNames names) {
        StringBuilder pc = new StringBuilder("call(" + names.call(c) + ")" + inMethod(m, names));
        String ambiguity = null;
        for (CallInfo s : siblings) {
            // AspectJ matches a call by every type that declares its method: call(Base.m()) also matches the calls
            // made through a Sub reference. Keep each call in one group: Base's group leaves out call(Sub.m());
            // Sub's group must not leave out call(Base.m()), which would take every one of its own calls with it
            if (names.isSubtype(c.owner(), s.owner(), false)) {
                continue;
            }
            if (!names.covers(s.owner(), c.owner())) {
                pc.append(" && !call(").append(names.call(s)).append(')');
            } else if (!names.isExact(c.owner())) {
                ambiguity = ambiguity(c.owner(), s.owner());
            }
        }
        boolean isStatic = c.opcode() == Opcodes.INVOKESTATIC;
        JoinPoint shadow = new JoinPoint(Kind.CALL, m, pc.toString(), Types.parameterTypes(c.descriptor()),
                Types.returnType(c.descriptor()), isStatic ? null : c.owner(), c, null, null,
                m.displayName() + " -> " + c.owner() + "." + c.name());
        shadow.ambiguity = ambiguity;
        return shadow;
    }

    static JoinPoint lock(MethodInfo m, boolean release, SourceNames names) {
        return new JoinPoint(release ? Kind.UNLOCK : Kind.LOCK, m, (release ? "unlock()" : "lock()") + inMethod(m, names),
                List.of("java.lang.Object"), "void", null, null, null, null, m.displayName());
    }

    /**
     * One group per field {@code m} reads or writes (as declared: a field read through a subclass is its declaring
     * class's), in bytecode order; fields of the same name and type in other classes are told apart.
     */
    static List<JoinPoint> fieldAccesses(MethodInfo m, ClassIndex targets, SourceNames names) {
        Map<String, FieldInfo> declared = new LinkedHashMap<>();
        Map<String, Boolean> writes = new LinkedHashMap<>();
        for (FieldInstruction fa : m.fieldAccesses()) {
            FieldInfo f = targets.field(fa.owner(), fa.name()).orElse(new FieldInfo(fa.owner(), fa.name(),
                    fa.descriptor(), fa.isStatic() ? Opcodes.ACC_STATIC : 0));
            String key = fa.isWrite() + " " + f.owner() + "." + f.name();
            if (declared.putIfAbsent(key, f) == null) {
                writes.put(key, fa.isWrite());
            }
        }
        List<JoinPoint> shadows = new ArrayList<>();
        declared.forEach((key, f) -> {
            boolean write = writes.get(key);
            List<FieldInfo> siblings = declared.entrySet().stream().filter(o -> o.getValue() != f
                    && writes.get(o.getKey()) == write && o.getValue().name().equals(f.name())
                    && o.getValue().descriptor().equals(f.descriptor())).map(Map.Entry::getValue).toList();
            shadows.add(fieldAccess(m, f, write, siblings, names));
        });
        return shadows;
    }

    /** One group per type {@code m} allocates (objects, arrays), in bytecode order. */
    static List<JoinPoint> allocations(MethodInfo m, SourceNames names) {
        Map<String, Allocation> seen = new LinkedHashMap<>();
        List<JoinPoint> shadows = new ArrayList<>();
        for (Allocation a : m.allocations()) {
            if (seen.putIfAbsent(a.key(), a) == null) {
                List<Allocation> siblings = m.allocations().stream().filter(o -> o.kind() == a.kind()
                        && !o.type().equals(a.type()) && Objects.equals(o.descriptor(), a.descriptor())).toList();
                shadows.add(allocation(m, a, siblings, names));
            }
        }
        return shadows;
    }

    /** The WHAT whose patches apply to this field or allocation group. */
    What what() {
        return switch (kind) {
            case GET -> field.isStatic() ? What.STATIC_ACCESS : What.FIELD_ACCESS;
            case SET -> field.isStatic() ? What.STATIC_WRITE : What.FIELD_WRITE;
            case NEW -> What.OBJECT_ALLOC;
            case NEW_ARRAY -> allocation.kind() == Allocation.Kind.ARRAY ? What.ARRAY_ALLOC : What.BASE_ARRAY_ALLOC;
            default -> throw new IllegalStateException(kind + " groups are selected by their WHATs directly");
        };
    }

    /** Reads or writes of {@code f} from {@code m}; {@code siblings}: fields of the same name and type elsewhere. */
    static JoinPoint fieldAccess(MethodInfo m, FieldInfo f, boolean write, List<FieldInfo> siblings, SourceNames names) {
        String kind = write ? "set(" : "get(";
        StringBuilder pc = new StringBuilder(kind + names.type(f.type()) + " " + names.type(f.owner()) + "." + f.name()
                + ")" + inMethod(m, names));
        String ambiguity = null;
        for (FieldInfo s : siblings) {
            if (names.isExact(f.owner())) {
                continue;
            }
            if (names.covers(s.owner(), f.owner())) {
                ambiguity = ambiguity(f.owner(), s.owner());
            } else {
                pc.append(" && !").append(kind).append(names.type(s.type())).append(' ').append(names.type(s.owner()))
                        .append('.').append(s.name()).append(')');
            }
        }
        JoinPoint shadow = new JoinPoint(write ? Kind.SET : Kind.GET, m, pc.toString(), write ? List.of(f.type()) : List.of(),
                write ? "void" : f.type(), f.isStatic() ? null : f.owner(), null, f, null,
                m.displayName() + " -> " + f.owner() + "." + f.name());
        shadow.ambiguity = ambiguity;
        return shadow;
    }

    /** Allocations of {@code a}'s type in {@code m}; {@code siblings}: objects of other types, same constructor
     *  descriptor. */
    static JoinPoint allocation(MethodInfo m, Allocation a, List<Allocation> siblings, SourceNames names) {
        if (a.kind() == Allocation.Kind.OBJECT) {
            List<String> params = Types.parameterTypes(a.descriptor());
            StringBuilder pc = new StringBuilder("call(" + names.constructor(a.type(), a.descriptor()) + ")"
                    + inMethod(m, names));
            String ambiguity = null;
            for (Allocation s : siblings) {
                // only a pattern for "any class nested in Outer" (anonymous and local classes) can match another type
                if (!names.isExact(a.type()) && names.covers(s.type(), a.type())) {
                    ambiguity = ambiguity(a.type(), s.type());
                } else if (!names.isExact(a.type())) {
                    pc.append(" && !call(").append(names.constructor(s.type(), s.descriptor())).append(')');
                }
            }
            JoinPoint shadow = new JoinPoint(Kind.NEW, m, pc.toString(), params, a.type(), null, null, null, a,
                    m.displayName() + " -> new " + a.type());
            shadow.ambiguity = ambiguity;
            return shadow;
        }
        List<String> dims = new ArrayList<>(Collections.nCopies(a.dimensions(), "int"));
        String pc = "call(" + names.type(aspectjArrayType(a)) + ".new(" + String.join(", ", dims) + "))"
                + inMethod(m, names);
        JoinPoint shadow = new JoinPoint(Kind.NEW_ARRAY, m, pc, dims, a.type(), null, null, null, a,
                m.displayName() + " -> new " + a.type());
        for (Allocation s : siblings) {
            if (s.dimensions() == a.dimensions() && aspectjArrayType(s).equals(aspectjArrayType(a))) {
                String partial = aspectjArrayType(a).equals(a.type()) ? s.type() : a.type();
                String full = partial.equals(a.type()) ? s.type() : a.type();
                shadow.ambiguity = "AspectJ names new " + partial.replaceFirst("(\\[\\])+$", "") + "[a][b]...[] (a "
                        + "multianewarray of a class that leaves dimensions out) like new " + full + " with as many "
                        + "lengths, and the method makes both";
            }
        }
        return shadow;
    }

    /**
     * The array type AspectJ gives the join point of an array allocation: its own type, except for a multianewarray
     * of a class that leaves dimensions out ({@code new T[a][b][]}), which AspectJ 1.9.25 types by the dimensions
     * given ({@code T[][]}, with the two lengths as arguments), as if it were {@code new T[a][b]}.
     */
    static String aspectjArrayType(Allocation a) {
        String element = a.type().replace("[]", "");
        int arrayDims = (a.type().length() - element.length()) / 2;
        if (a.dimensions() > 1 && a.dimensions() < arrayDims && !Types.isPrimitive(element)) {
            return element + "[]".repeat(a.dimensions());
        }
        return a.type();
    }

    private static String ambiguity(String own, String other) {
        String first = own.compareTo(other) < 0 ? own : other;
        String second = first.equals(own) ? other : own;
        return "AspectJ can name " + first + " and " + second + " only alike (as any class nested in their outer "
                + "class), and the method uses both the same way";
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
}
