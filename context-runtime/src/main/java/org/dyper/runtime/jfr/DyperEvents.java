package org.dyper.runtime.jfr;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The central registry of Dyper's JFR event types (seed 003's relation): every {@code dyper.*} class, the version of
 * the set, and the coarse kinds that switch them on and off while the program runs. {@code docs/events.md} lists the
 * same, and a test keeps the two equal.
 */
public final class DyperEvents {
    /** The prefix of every Dyper event name. */
    public static final String PREFIX = "dyper.";

    /** Changes when a recording as a whole changes form (a reader must refuse a major it does not know). */
    public static final int MAJOR = 1;
    /** Changes when an existing type changes its fields or meaning (a reader must refuse a median it does not know). */
    public static final int MEDIAN = 0;
    /** Changes when a type is added (a reader may read a newer minor, skipping types it does not know). */
    public static final int MINOR = 2;
    /** {@code major.median.minor}. */
    public static final String VERSION = MAJOR + "." + MEDIAN + "." + MINOR;

    /**
     * Every event class, in the order of the table in docs/events.md. A method, not a constant: the CLI reads
     * {@link #KINDS} and the version on every command, and a list of class literals would load all the event
     * classes (and JFR's {@code Event}) each time.
     */
    public static List<Class<? extends jdk.jfr.Event>> types() {
        return List.of(VersionEvent.class, MethodTrace.class, CallTrace.class, AllocationTrace.class,
                FieldWriteTrace.class, ReferenceWriteTrace.class, UserEvent.class, TimingFigures.class,
                CountFigures.class, ValueFigures.class, LockFigures.class, AllocationFigures.class);
    }

    /**
     * The coarse kinds (seed 003's kinds) and the event types each switches; the version event belongs to none, it is
     * always on.
     */
    public static final Map<String, List<String>> KINDS;

    static {
        Map<String, List<String>> k = new LinkedHashMap<>();
        k.put("method", List.of(PREFIX + "MethodTrace"));
        k.put("call", List.of(PREFIX + "CallTrace"));
        k.put("allocation", List.of(PREFIX + "AllocationTrace"));
        k.put("field", List.of(PREFIX + "FieldWriteTrace", PREFIX + "ReferenceWriteTrace"));
        k.put("user", List.of(PREFIX + "UserEvent"));
        k.put("figures", List.of(PREFIX + "Timing", PREFIX + "Count", PREFIX + "Values", PREFIX + "Lock",
                PREFIX + "Allocation"));
        KINDS = java.util.Collections.unmodifiableMap(k);
    }

    private DyperEvents() {
    }
}
