package org.dyper.runtime.instrument;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The bootstrap of the field reads and writes in code woven for run-time patching. Such code runs in a class of its
 * own, next to the class it patches, and may not add accessor methods to it (a running class cannot gain members),
 * so where the generated code reads a field it could not reach directly (a private field, or a field of a class that
 * is not public), the weaving step puts an {@code invokedynamic} that this method links once, to a method handle on
 * the field. After linking it costs what a direct field access costs.
 */
public final class FieldAccess {
    /** Reads an instance field: {@code (Owner)T}. */
    public static final int GET = 0;
    /** Reads a static field: {@code ()T}. */
    public static final int GET_STATIC = 1;
    /** Writes an instance field: {@code (Owner, T)V}. */
    public static final int PUT = 2;
    /** Writes a static field: {@code (T)V}. */
    public static final int PUT_STATIC = 3;

    private FieldAccess() {}

    /**
     * Links the field {@code name} of the class {@code owner} (internal name, found through the caller's class
     * loader, which sees the class it patches) for {@code kind}: {@link #GET}, {@link #GET_STATIC}, {@link #PUT} or
     * {@link #PUT_STATIC}. The caller's class and the owner share a class loader, hence a module when they are on a
     * class path, which is what lets a private lookup reach private fields.
     */
    public static CallSite field(MethodHandles.Lookup caller, String name, MethodType type, String owner, int kind)
            throws ReflectiveOperationException {
        Class<?> holder = Class.forName(owner.replace('/', '.'), false, caller.lookupClass().getClassLoader());
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(holder, caller);
        MethodHandle handle = switch (kind) {
            case GET -> lookup.findGetter(holder, name, type.returnType());
            case GET_STATIC -> lookup.findStaticGetter(holder, name, type.returnType());
            case PUT -> lookup.findSetter(holder, name, type.parameterType(1));
            case PUT_STATIC -> lookup.findStaticSetter(holder, name, type.parameterType(0));
            default -> throw new IllegalArgumentException("unknown field access kind " + kind);
        };
        return new ConstantCallSite(handle.asType(type));
    }
}
