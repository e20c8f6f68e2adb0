package org.dyper.patch.aspectj;

import java.util.Optional;
import org.dyper.patch.bytecode.MethodCode;
import org.dyper.patch.model.Arg;
import org.dyper.patch.model.What;
import org.dyper.patch.plan.PlannedPatch;
import org.dyper.patch.scan.FieldInfo;
import org.objectweb.asm.Type;

/**
 * The Java expression each ARG passes at one join point (a bound pointcut value, a constant id, a field read, a local
 * the bytecode pass loads), checked against what that join point offers; what it binds is noted in the builder.
 */
final class ModeValues {
    /** A Java expression and its static type ({@code null} for the null literal). */
    record Value(String expression, String type) {}

    private final GenerationContext ctx;

    /**
     * Skips the patch here when {@code check} (which depends only on the patch and its WHAT, never on the join point)
     * refuses the ARG or CONDITION at {@code subject}: decided once per patch ({@link PatchChecks}), the error reported
     * once.
     */
    private void refuse(PlannedPatch use, Object subject, java.util.function.Supplier<String> check)
            throws ModeCalls.Skip {
        java.util.Optional<String> refusal = ctx.checks.once(use.patch(), subject, "value", check);
        if (refusal.isPresent()) {
            throw new ModeCalls.Skip(refusal.get());
        }
    }

    ModeValues(GenerationContext ctx) {
        this.ctx = ctx;
    }

    Value value(Arg a, PlannedPatch use, AdviceBuilder builder, String where) throws ModeCalls.Skip {
        What what = use.patch().what();
        if (builder.point != null) {
            Value v = bytecodeValue(a, use, builder, where);
            if (v != null) {
                return v;
            }
        } else if (BytecodeWrappers.BYTECODE_ARGS.contains(a.type())) {
            throw new IllegalStateException("ARG TYPE='" + a.type() + "' outside the bytecode pass");
        }
        JoinPoint.Kind kind = builder.joinPoint.kind;
        switch (a.type()) {
            case THIS:
                if (!builder.selfBound) {
                    return new Value("null", null);
                }
                builder.usesSelf = true;
                return new Value("self", builder.selfType);
            case INTEGER:
                return new Value(a.value(), "int");
            case CURTHREAD:
                return new Value("java.lang.Thread.currentThread()", "java.lang.Thread");
            case FIELD:
                if (a.value() == null) {
                    return joinPointField(use, builder, a.at(), "ARG", where);
                }
                return field(a.value(), builder);
            case RETURN:
                return returnValue(a.at(), "ARG", use, builder, where);
            case ARG:
                return argument(Integer.parseInt(a.value().trim()), a.at(), "ARG", use, builder, where);
            case METHODID:
                return new Value(builder.methodIdText(), "int");
            case CLASSID:
                return new Value(AspectFiles.id(ctx.ids.type(builder.method.owner())), "int");
            case REFMETHODID: {
                refuse(use, a, () -> switch (kind) {
                    case CALL, NEW, GET, SET -> null;
                    default -> {
                        ctx.error(a.at(), "ARG", "TYPE='REFMETHODID' names the called method, constructor or field "
                                + "and applies to WHAT='CALL', 'OBJECT_ALLOC' and the field WHATs only, not WHAT='"
                                + what + "'" + where);
                        yield "REFMETHODID does not apply";
                    }
                });
                JoinPoint sh = builder.joinPoint;
                int id = switch (kind) {
                    case CALL -> ctx.ids.callee(sh.call);
                    case NEW -> ctx.ids.method(sh.allocation.type(), "<init>", sh.allocation.descriptor());
                    default -> ctx.ids.field(sh.field);
                };
                return new Value(AspectFiles.id(id), "int");
            }
            case REFCLASSID: {
                refuse(use, a, () -> switch (kind) {
                    case CALL, NEW, NEW_ARRAY, GET, SET -> null;
                    default -> {
                        ctx.error(a.at(), "ARG", "TYPE='REFCLASSID' names the class of the called method, allocation "
                                + "or field and applies to WHAT='CALL', the *_ALLOC and the field WHATs only, not WHAT='"
                                + what + "'" + where);
                        yield "REFCLASSID does not apply";
                    }
                });
                JoinPoint sh = builder.joinPoint;
                int id = switch (kind) {
                    case CALL -> ctx.ids.type(sh.call.owner());
                    case NEW -> ctx.ids.type(sh.allocation.type());
                    case NEW_ARRAY -> ctx.ids.typeName(sh.allocation.type());
                    default -> ctx.ids.type(sh.field.owner());
                };
                return new Value(AspectFiles.id(id), "int");
            }
            case TARGET:
                refuse(use, a, () -> {
                    if (kind != JoinPoint.Kind.CALL && kind != JoinPoint.Kind.GET && kind != JoinPoint.Kind.SET) {
                        ctx.error(a.at(), "ARG", "TYPE='TARGET' is the object a called method runs on or whose field "
                                + "is accessed; it applies to WHAT='CALL' and the field WHATs only, not WHAT='" + what
                                + "'" + where);
                        return "TARGET does not apply";
                    }
                    return null;
                });
                if (builder.joinPoint.targetType == null) {
                    return new Value("null", null);
                }
                builder.usesTarget = true;
                return new Value("target", ctx.formalType(builder.joinPoint.targetType));
            case EXCEPTION:
                refuse(use, a, () -> {
                    if (what != What.EXIT && what != What.CALL) {
                        ctx.error(a.at(), "ARG", "TYPE='EXCEPTION' is the exception that ends a method or a call; it "
                                + "applies to WHAT='EXIT' and 'CALL' only, not WHAT='" + what + "'" + where);
                        return "EXCEPTION does not apply";
                    }
                    return null;
                });
                if (builder.point != null) {
                    ctx.error(a.at(), "ARG", "TYPE='EXCEPTION' cannot be combined with the values of the bytecode "
                            + "pass (LOCAL, INSNO, BLOCKID, REFBLOCKID, WHEN CASE='BLOCK')" + where);
                    throw new ModeCalls.Skip("EXCEPTION in the bytecode pass");
                }
                builder.usesThrown = true;
                return new Value("thrown$", "java.lang.Throwable");
            case CONTEXT:
                return new Value("ctx", builder.contextType);
            case NULL:
                return new Value("null", null);
            default:
                throw new IllegalStateException(a.type().toString());
        }
    }

    /** ARG n: a parameter at ENTER/EXIT, an argument passed at CALL and OBJECT_ALLOC, a dimension's length at an
     *  array allocation, the value written at a field write, the monitor at SYNC_*. */
    Value argument(int n, org.dyper.patch.model.Location at, String element, PlannedPatch use,
                   AdviceBuilder builder, String where) throws ModeCalls.Skip {
        What what = use.patch().what();
        JoinPoint.Kind kind = builder.joinPoint.kind;
        refuse(use, at, () -> {
            if (kind == JoinPoint.Kind.GET) {
                ctx.error(at, element, "TYPE='ARG' has no value at WHAT='" + what + "' (a field read has no "
                        + "arguments; RETURN is the value read)" + where);
                return "ARG does not apply";
            }
            return null;
        });
        if (n < 1 || n > builder.params.size()) {
            if (kind != JoinPoint.Kind.EXECUTION && kind != JoinPoint.Kind.CALL && kind != JoinPoint.Kind.NEW
                    && kind != JoinPoint.Kind.NEW_ARRAY) {
                ctx.error(at, element, "TYPE='ARG' number " + n + " does not exist at WHAT='" + what + "', which has "
                        + builder.params.size() + where);
            }
            throw new ModeCalls.Skip("ARG " + n + " is past the " + builder.params.size() + (kind == JoinPoint.Kind.NEW_ARRAY
                    ? " length(s) the allocation gives" : " parameter(s)"));
        }
        builder.argsUsed.add(n);
        return new Value("a" + n, builder.params.get(n - 1));
    }

    Value returnValue(org.dyper.patch.model.Location at, String element, PlannedPatch use, AdviceBuilder builder, String where)
            throws ModeCalls.Skip {
        What what = use.patch().what();
        JoinPoint.Kind kind = builder.joinPoint.kind;
        refuse(use, at, () -> {
            if (what == What.ENTER) {
                ctx.error(at, element, "TYPE='RETURN' has no value at WHAT='ENTER' (use it at EXIT or CALL)" + where);
                return "RETURN has no value at ENTER";
            }
            if (kind == JoinPoint.Kind.LOCK || kind == JoinPoint.Kind.UNLOCK || kind == JoinPoint.Kind.SET) {
                ctx.error(at, element, "TYPE='RETURN' has no value at WHAT='" + what + "' (it is the value returned "
                        + "at EXIT and CALL, read at a field read, and allocated at an allocation)" + where);
                return "RETURN has no value here";
            }
            return null;
        });
        if (builder.returnType.equals("void")) {
            throw new ModeCalls.Skip("RETURN has no value where the method returns void");
        }
        builder.usesReturn = true;
        return new Value("ret", builder.returnType);
    }

    /**
     * FIELD with a VALUE: a field of the patched method's class (or a superclass), read directly; or, written
     * {@code Class.field}, a static field of any class among the woven ones.
     */
    Value field(String name, AdviceBuilder builder) throws ModeCalls.Skip {
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            Optional<FieldInfo> f = ctx.targets.field(name.substring(0, dot), name.substring(dot + 1));
            if (f.isEmpty()) {
                throw new ModeCalls.Skip("no static field '" + name + "' in the classes woven");
            }
            if (!f.get().isStatic()) {
                throw new ModeCalls.Skip("'" + name + "' is an instance field (only a static field is read by its "
                        + "class's name; an instance field by its name alone, in its own class)");
            }
            return new Value(ctx.fieldReads.read(f.get(), null, builder.methodId()), f.get().type());
        }
        Optional<FieldInfo> f = ctx.targets.field(builder.method.owner(), name);
        if (f.isEmpty()) {
            throw new ModeCalls.Skip("its class has no field '" + name + "'");
        }
        FieldInfo field = f.get();
        if (field.isStatic()) {
            return new Value(ctx.fieldReads.read(field, null, builder.methodId()), field.type());
        }
        if (!builder.selfBound) {
            throw new ModeCalls.Skip("instance field '" + name + "' is not visible in static code");
        }
        builder.usesSelf = true;
        return new Value(ctx.fieldReads.read(field, "self", builder.methodId()), field.type());
    }

    /** FIELD without a VALUE at a field read or write: the accessed field's current value (before a write). */
    Value joinPointField(PlannedPatch use, AdviceBuilder builder, org.dyper.patch.model.Location at,
                         String element, String where) throws ModeCalls.Skip {
        FieldInfo f = builder.joinPoint.field;
        refuse(use, at, () -> {
            if (f == null) {
                ctx.error(at, element, "TYPE='FIELD' without a VALUE means the accessed field, which exists at the "
                        + "field WHATs only, not WHAT='" + use.patch().what() + "'" + where);
                return "FIELD without VALUE does not apply";
            }
            return null;
        });
        if (f.isStatic()) {
            return new Value(ctx.fieldReads.read(f, null, builder.methodId()), f.type());
        }
        builder.usesTarget = true;
        return new Value(ctx.fieldReads.read(f, "target", builder.methodId()), f.type());
    }

    /** The values only the bytecode pass has (and the ones it cannot give at a call); null for the others. */
    Value bytecodeValue(Arg a, PlannedPatch use, AdviceBuilder builder, String where) throws ModeCalls.Skip {
        BytecodeWrappers.Point point = builder.point;
        MethodCode mc = builder.code;
        int block = mc.blockOf[point.valuesAt()];
        switch (a.type()) {
            case LOCAL:
                return local(a.value(), a.at(), "ARG", builder, where);
            case INSNO:
                return new Value(Integer.toString(point.valuesAt()), "int");
            case BLOCKID:
                return new Value(AspectFiles.id(ctx.ids.block(builder.method, block, mc.lines[mc.starts[block]])), "int");
            case REFBLOCKID: {
                int ref = mc.referencedBlock(block);
                return new Value(ref < 0 ? "0" : AspectFiles.id(ctx.ids.block(builder.method, ref, mc.lines[mc.starts[ref]])),
                        "int");
            }
            case THIS:
                if (mc.thisUninitialisedAt(point.valuesAt())) {
                    ctx.error(a.at(), "ARG", "TYPE='THIS' at instruction " + point.valuesAt() + " of "
                            + builder.method.displayName()
                            + ": the object is not initialised before the constructor calls super() or this()" + where);
                    throw new ModeCalls.Skip("this is not initialised there");
                }
                return null;
            case ARG:
            case TARGET:
                if (builder.joinPoint.kind == JoinPoint.Kind.CALL) {
                    ctx.error(a.at(), "ARG", "TYPE='" + a.type() + "' at WHAT='CALL' cannot be combined with the values of "
                            + "the bytecode pass (LOCAL, INSNO, BLOCKID, REFBLOCKID) yet" + where);
                    throw new ModeCalls.Skip(a.type() + " at a bytecode CALL");
                }
                return null;
            default:
                return null;
        }
    }

    /** LOCAL v: slot v when v is a number, else the local of that name (debug information) at the point. */
    Value local(String v, org.dyper.patch.model.Location at, String element, AdviceBuilder builder, String where)
            throws ModeCalls.Skip {
        MethodCode mc = builder.code;
        int insn = builder.point.valuesAt();
        String method = builder.method.displayName();
        String text = v == null ? "" : v.trim();
        MethodCode.Local l;
        if (text.matches("\\d+")) {
            int slot = Integer.parseInt(text);
            l = mc.slotAt(slot, insn);
            if (l == null) {
                ctx.error(at, element, "TYPE='LOCAL' VALUE='" + text + "': slot " + slot + " of " + method + " holds no "
                        + "initialised value at instruction " + insn + where);
                throw new ModeCalls.Skip("local slot " + slot + " is not initialised there");
            }
        } else {
            if (!mc.hasLocalNamed(text)) {
                ctx.error(at, element, "TYPE='LOCAL' VALUE='" + text + "': " + method + " has no local variable named '"
                        + text + "' in its debug information (compile it with -g, or give the slot number)" + where);
                throw new ModeCalls.Skip("no local named '" + text + "'");
            }
            l = mc.namedAt(text, insn);
            if (l == null) {
                ctx.error(at, element, "TYPE='LOCAL' VALUE='" + text + "': local '" + text + "' of " + method + " is not in "
                        + "scope at instruction " + insn + where);
                throw new ModeCalls.Skip("local '" + text + "' is not in scope there");
            }
        }
        builder.locals.put(l.slot(), l.descriptor());
        return new Value("l" + l.slot(), Type.getType(l.descriptor()).getClassName());
    }
}
