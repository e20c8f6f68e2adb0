package org.dyper.runtime.monitor.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The monitor's variables (SET / GET), each with a type, a range and a default; thread-safe. */
public final class Settings {
    /** A variable's kind: what SET accepts. */
    public enum Type { LONG, INT, BOOLEAN, FRACTION, CHOICE }

    /** One variable: name, type, smallest allowed value (numbers), default, meaning, allowed words (CHOICE). */
    public record Var(String name, Type type, long min, String initial, String meaning, List<String> choices) {}

    public static final Map<String, Var> VARS = new LinkedHashMap<>();

    private static void var(String name, Type type, long min, String initial, String meaning) {
        VARS.put(name, new Var(name, type, min, initial, meaning, List.of()));
    }

    private static void choice(String name, String initial, String meaning, String... choices) {
        VARS.put(name, new Var(name, Type.CHOICE, 0, initial, meaning, List.of(choices)));
    }

    static {
        var("CHECKTIME", Type.LONG, 1, "10", "milliseconds between stack samples while monitoring");
        var("DISABLETIME", Type.LONG, 1, "1000", "milliseconds between checks while monitoring is off");
        var("REPORTTIME", Type.LONG, 0, "0", "milliseconds between pushed reports; 0: none");
        var("MONITOR", Type.BOOLEAN, 0, "true", "sampling on or off");
        var("SHOWSTACK", Type.BOOLEAN, 0, "false", "push a stack dump at every check");
        var("CONTENTION", Type.BOOLEAN, 0, "false", "JVM thread contention monitoring (blocked and waited times)");
        var("CPUTIME", Type.BOOLEAN, 0, "true", "per-thread CPU time from the JVM's thread CPU clock");
        var("MAXDEPTH", Type.INT, 1, "64", "stack frames considered per thread and sample");
        var("THREAD_DEFAULT", Type.BOOLEAN, 0, "true", "whether a thread not named by USETHREAD is sampled");
        var("FULLMONITORING", Type.BOOLEAN, 0, "false", "sample at CHECKTIME even while MONITOR is false");
        var("CLASS_DETAIL_MIN_TOTAL", Type.LONG, 0, "100", "samples in all before any class is detailed");
        var("CLASS_DETAIL_MINIMUM", Type.LONG, 0, "10", "samples a class needs before it is detailed");
        var("CLASS_DETAIL_THRESHOLD", Type.FRACTION, 0, "0.1", "share of all samples that starts detailing a class");
        var("CLASS_DETAIL_STOP_THRESHOLD", Type.FRACTION, 0, "0.05", "share below which a class stops being detailed");
        var("METHOD_DETAIL_MIN_TOTAL", Type.LONG, 0, "100", "samples in all before any method is detailed");
        var("METHOD_DETAIL_MINIMUM", Type.LONG, 0, "10", "samples a method needs before it is detailed");
        var("METHOD_DETAIL_THRESHOLD", Type.FRACTION, 0, "0.1", "share of all samples that starts detailing a method");
        var("METHOD_DETAIL_STOP_THRESHOLD", Type.FRACTION, 0, "0.05",
                "share below which a method stops being detailed");
        choice("SAMPLER", "AUTO", "where CPU samples come from: JFR where the JVM has it, else thread dumps", "AUTO",
                "JFR", "THREAD_DUMP");
        var("DUMPTIME", Type.LONG, 1, "100", "milliseconds between looks at the threads' states and CPU clocks while"
                + " JFR samples the CPU");
        var("WALL", Type.BOOLEAN, 0, "false", "all-thread dumps (a safepoint each) every DUMPTIME while JFR samples the"
                + " CPU, for the WALL view");
        var("LOCK_THRESHOLD_US", Type.LONG, 0, "1000", "microseconds a thread must block on a lock to be recorded"
                + " (JFR)");
        var("ALLOC_RATE", Type.LONG, 0, "150", "allocation samples per second (JFR); 0: none");
        var("MAXNODES", Type.INT, 1000, "100000", "stack tree nodes kept for all views together");
        var("MAXPATHS", Type.INT, 1, "1000", "paths a REPORT shows per stack view (a tenth of them per thread)");
        var("DETAIL", Type.BOOLEAN, 0, "false", "automatic detailing: patch detailed methods with exact timing in the"
                + " running JVM (docs/detailing.md)");
        var("DETAIL_MAX", Type.INT, 0, "8", "methods detailed (patched) at once at most");
        var("DETAIL_PERIOD", Type.LONG, 100, "1000", "milliseconds between detailing's checks of what to patch");
    }

    private final Map<String, Object> values = new LinkedHashMap<>();

    public Settings() {
        for (Var v : VARS.values()) {
            try {
                values.put(v.name(), parse(v, v.initial()));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The variable named {@code name} (any case); throws naming it when there is none. */
    public static Var lookup(String name) {
        Var v = name == null ? null : VARS.get(name.trim().toUpperCase(Locale.ROOT));
        if (v == null) {
            throw new IllegalArgumentException("unknown variable '" + name + "' (known: "
                    + String.join(", ", VARS.keySet()) + ")");
        }
        return v;
    }

    /** The typed value of {@code text} for {@code v}; throws a message naming the variable and its type. */
    public static Object parse(Var v, String text) {
        if (text == null) {
            throw new IllegalArgumentException(v.name() + " needs a VALUE");
        }
        String t = text.trim();
        switch (v.type()) {
            case BOOLEAN -> {
                Boolean b = Xml.flag(t);
                if (b == null) {
                    throw new IllegalArgumentException(v.name() + " is a boolean (true/false, t/f, 1/0), not '"
                            + text + "'");
                }
                return b;
            }
            case CHOICE -> {
                String word = t.toUpperCase(Locale.ROOT);
                if (!v.choices().contains(word)) {
                    throw new IllegalArgumentException(v.name() + " is one of " + String.join(", ", v.choices())
                            + ", not '" + text + "'");
                }
                return word;
            }
            case FRACTION -> {
                double d;
                try {
                    d = Double.parseDouble(t);
                } catch (NumberFormatException e) {
                    d = Double.NaN;
                }
                if (!(d >= 0 && d <= 1)) {
                    throw new IllegalArgumentException(v.name() + " is a fraction between 0 and 1, not '" + text
                            + "'");
                }
                return d;
            }
            default -> {
                long n;
                try {
                    n = Long.parseLong(t);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(v.name() + " is " + (v.type() == Type.INT ? "an int" : "a long")
                            + ", not '" + text + "'");
                }
                if (n < v.min() || v.type() == Type.INT && n > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException(v.name() + " must be at least " + v.min()
                            + (v.type() == Type.INT ? " and at most " + Integer.MAX_VALUE : "") + ", not " + n);
                }
                return v.type() == Type.INT ? (Object) (int) n : (Object) n;
            }
        }
    }

    /** Sets several variables at once: all are checked first, so a bad one changes nothing. */
    public synchronized void set(Map<String, String> assignments) {
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (Map.Entry<String, String> a : assignments.entrySet()) {
            Var v = lookup(a.getKey());
            parsed.put(v.name(), parse(v, a.getValue()));
        }
        values.putAll(parsed);
    }

    public synchronized String text(String name) {
        Object v = values.get(lookup(name).name());
        return String.valueOf(v);
    }

    public synchronized long longValue(String name) {
        return ((Number) values.get(name)).longValue();
    }

    public synchronized double fraction(String name) {
        return ((Number) values.get(name)).doubleValue();
    }

    public synchronized boolean bool(String name) {
        return (Boolean) values.get(name);
    }
}
