package org.dyper.runtime;

import org.dyper.runtime.jfr.Telemetry;
import org.dyper.runtime.jfr.Traces;

/**
 * The trace modes' runtime (TRACE_ENTER/TRACE_EXIT, EVENT): one JFR event per call slower than the
 * {@code dyper.MethodTrace} threshold, and user events. The context of a traced call is its event, typed
 * {@code Object} so that woven code never names a {@code jdk.jfr} type. Where JFR cannot be used ({@code jdk.jfr}
 * missing, the recorder disabled) every method returns at once and the program runs on untraced; the reason is counted
 * ({@link Telemetry#failures()}). Never throws.
 */
public final class Tracing {
    /** Constant after class initialisation, so the JIT folds the test away where JFR is there. */
    private static final boolean JFR = jfr();

    private Tracing() {
    }

    private static boolean jfr() {
        try {
            Telemetry.start();
            if (!Telemetry.available()) {
                return false;
            }
            Class.forName("org.dyper.runtime.jfr.Traces", true, Tracing.class.getClassLoader());
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    /**
     * Begins tracing a call at site {@code id}; returns the context {@link #exit} needs, or null when
     * {@code dyper.MethodTrace} is off (one test, nothing allocated).
     */
    public static Object enter(int id) {
        return JFR ? Traces.enter(id) : null;
    }

    /** As {@link #enter(int)}, keeping {@code argument} (an integral first argument, widened) in the event. */
    public static Object enterArg(int id, long argument) {
        return JFR ? Traces.enter(id, argument) : null;
    }

    /** Ends the call {@code context} began; commits its event if the call took at least the threshold. */
    public static void exit(int id, Object context) {
        if (JFR && context != null) {
            Traces.exit(id, context);
        }
    }

    /** As {@link #exit(int, Object)}, keeping {@code returned} (an integral return value, widened) in the event. */
    public static void exitReturn(int id, Object context, long returned) {
        if (JFR && context != null) {
            Traces.exit(id, context, returned);
        }
    }

    /**
     * Begins tracing a call made at site {@code id} to {@code callee} (TRACE_CALL); returns the context
     * {@link #callEnd} needs, or null when {@code dyper.CallTrace} is off.
     */
    public static Object call(int id, int callee) {
        return JFR ? Traces.call(id, callee) : null;
    }

    /** Ends the call {@code context} began (TRACE_CALL_END); commits its event if it took at least the threshold. */
    public static void callEnd(int id, Object context) {
        if (JFR && context != null) {
            Traces.callEnd(id, context);
        }
    }

    /** Records a {@code dyper.AllocationTrace} of an object of class {@code classId} (TRACE_ALLOC). */
    public static void allocation(int id, int classId) {
        if (JFR) {
            Traces.allocation(id, classId, -1);
        }
    }

    /** Records a {@code dyper.AllocationTrace} of an array of type {@code classId} (TRACE_ALLOC_ARRAY). */
    public static void arrayAllocation(int id, int classId, int length) {
        if (JFR) {
            Traces.allocation(id, classId, length);
        }
    }

    /** Records a {@code dyper.FieldWriteTrace} of numeric field {@code fieldId} (TRACE_FIELD_WRITE). */
    public static void fieldWrite(int id, int fieldId, Object owner, long oldValue, long newValue) {
        if (JFR) {
            Traces.fieldWrite(id, fieldId, owner, oldValue, newValue);
        }
    }

    /**
     * Records a {@code dyper.ReferenceWriteTrace} of reference field {@code fieldId} (TRACE_FIELD_WRITE_REF): the
     * owner and both values by class and identity hash, without calling any of their methods.
     */
    public static void referenceWrite(int id, int fieldId, Object owner, Object oldValue, Object newValue) {
        if (JFR) {
            Traces.referenceWrite(id, fieldId, owner, oldValue, newValue);
        }
    }

    /** Records a {@code dyper.UserEvent} whose message is the site's name (the EVENT mode). */
    public static void event(int id) {
        if (JFR) {
            Traces.event(id);
        }
    }

    /** Records a {@code dyper.UserEvent} with {@code message} (null is recorded as null). */
    public static void userEvent(String message) {
        if (JFR) {
            Traces.userEvent(message);
        }
    }
}
