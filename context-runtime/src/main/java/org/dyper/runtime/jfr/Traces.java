package org.dyper.runtime.jfr;

import java.util.concurrent.atomic.AtomicLong;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Sites;

/**
 * The hot path of the trace modes, reached only through {@code org.dyper.runtime.Tracing} once it knows JFR is there.
 * The guard is the event type's own {@code isEnabled()} (a static field read once JFR instrumented the class), asked of
 * one shared instance: a disabled type costs that test and allocates nothing.
 */
public final class Traces {
    private static final MethodTrace METHOD = new MethodTrace();
    private static final UserEvent USER = new UserEvent();
    private static final CallTrace CALL = new CallTrace();
    private static final AllocationTrace ALLOCATION = new AllocationTrace();
    private static final FieldWriteTrace FIELD = new FieldWriteTrace();
    private static final ReferenceWriteTrace REFERENCE = new ReferenceWriteTrace();
    /** Depth among traced calls, per thread; read and written only when tracing is on. */
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private Traces() {
    }

    /** The event of one call, begun, or null when {@code dyper.MethodTrace} is off. */
    public static Object enter(int id) {
        if (!METHOD.isEnabled()) {
            return null;
        }
        return begin(id, 0);
    }

    /** As {@link #enter}, keeping the first argument. */
    public static Object enter(int id, long argument) {
        if (!METHOD.isEnabled()) {
            return null;
        }
        return begin(id, argument);
    }

    private static Object begin(int id, long argument) {
        try {
            MethodTrace e = new MethodTrace();
            int[] depth = DEPTH.get();
            e.depth = ++depth[0];
            e.argument = argument;
            e.begin();
            return e;
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
            return null;
        }
    }

    /** Ends the call {@code context} ({@link #enter}'s event) and commits it if it lasted at least the threshold. */
    public static void exit(int id, Object context) {
        end(id, context, false, 0);
    }

    /** As {@link #exit}, keeping the value returned. */
    public static void exit(int id, Object context, long returned) {
        end(id, context, true, returned);
    }

    private static void end(int id, Object context, boolean returns, long returned) {
        try {
            MethodTrace e = (MethodTrace) context;
            e.end();
            DEPTH.get()[0]--;
            if (e.shouldCommit()) {
                e.method = Sites.name(id);
                e.siteId = id;
                if (returns) {
                    e.returnValue = returned;
                }
                e.commit();
            }
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /** The event of one call made at site {@code id} to {@code callee}, begun, or null when dyper.CallTrace is off. */
    public static Object call(int id, int callee) {
        if (!CALL.isEnabled()) {
            return null;
        }
        try {
            CallTrace e = new CallTrace();
            e.siteId = id;
            e.calleeId = callee;
            e.begin();
            return e;
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
            return null;
        }
    }

    /** Ends the call {@code context} ({@link #call}'s event); commits it if it lasted at least the threshold. */
    public static void callEnd(int id, Object context) {
        try {
            CallTrace e = (CallTrace) context;
            e.end();
            if (e.shouldCommit()) {
                e.caller = Sites.name(e.siteId);
                e.callee = Sites.name(e.calleeId);
                e.commit();
            }
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /** An allocation of class {@code classId} at site {@code id} ({@code length}: an array's, or -1). */
    public static void allocation(int id, int classId, int length) {
        if (!ALLOCATION.isEnabled()) {
            return;
        }
        try {
            AllocationTrace e = new AllocationTrace();
            e.site = Sites.name(id);
            e.siteId = id;
            e.objectClass = Sites.name(classId);
            e.arrayLength = length;
            e.commit();
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /** A write of field {@code fieldId} of {@code owner} (null: static) at site {@code id}. */
    public static void fieldWrite(int id, int fieldId, Object owner, long oldValue, long newValue) {
        if (!FIELD.isEnabled()) {
            return;
        }
        try {
            FieldWriteTrace e = new FieldWriteTrace();
            e.site = Sites.name(id);
            e.siteId = id;
            e.field = Sites.name(fieldId);
            e.oldValue = oldValue;
            e.newValue = newValue;
            e.locked = owner != null && Thread.holdsLock(owner);
            e.commit();
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /**
     * A write of reference field {@code fieldId} of {@code owner} (null: static) at site {@code id}: objects named by
     * class and identity hash, never by a method of theirs.
     */
    public static void referenceWrite(int id, int fieldId, Object owner, Object oldValue, Object newValue) {
        if (!REFERENCE.isEnabled()) {
            return;
        }
        try {
            ReferenceWriteTrace e = new ReferenceWriteTrace();
            e.site = Sites.name(id);
            e.siteId = id;
            e.field = Sites.name(fieldId);
            if (owner != null) {
                e.ownerClass = owner.getClass().getName();
                e.ownerIdentity = System.identityHashCode(owner);
                e.locked = Thread.holdsLock(owner);
            }
            if (oldValue != null) {
                e.oldClass = oldValue.getClass().getName();
                e.oldIdentity = System.identityHashCode(oldValue);
            }
            if (newValue != null) {
                e.newClass = newValue.getClass().getName();
                e.newIdentity = System.identityHashCode(newValue);
            }
            e.commit();
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }

    /** A user event named by the site {@code id} (the EVENT mode). */
    public static void event(int id) {
        if (USER.isEnabled()) {
            user(id, Sites.name(id));
        }
    }

    /** A user event with {@code message} ({@code Dyper.userEvent}). */
    public static void userEvent(String message) {
        if (USER.isEnabled()) {
            user(0, message);
        }
    }

    private static void user(int id, String message) {
        try {
            UserEvent e = new UserEvent();
            e.message = message;
            e.siteId = id;
            e.sequence = SEQUENCE.incrementAndGet();
            e.commit();
        } catch (Throwable t) {
            Dyper.hookFailed(id, t);
        }
    }
}
