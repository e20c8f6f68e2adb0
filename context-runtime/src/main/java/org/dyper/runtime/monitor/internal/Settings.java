package org.dyper.runtime.monitor.internal;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dyper.runtime.wire.Xml;

/**
 * The monitor's variables (SET / GET), each with a type, a range and a default; thread-safe. Every value is checked
 * against its range before any is taken, so a value the monitor accepts can always be applied (no overflow in the
 * sampler's or the flight recorder's arithmetic, no array the JVM cannot allocate).
 */
public final class Settings {
    /** A variable's kind: what SET accepts. */
    public enum Type { LONG, INT, BOOLEAN, FRACTION, CHOICE }

    /**
     * One variable: name, type, smallest and largest allowed value (LONG and INT; FRACTION is always 0 to 1),
     * default, meaning, allowed words (CHOICE).
     */
    public record Var(String name, Type type, long min, long max, String initial, String meaning,
            List<String> choices) {
        /** What the variable accepts, as error messages and docs/monitor.md say it. */
        public String range() {
            return switch (type) {
                case BOOLEAN -> "a boolean (true/false, t/f, 1/0)";
                case CHOICE -> "one of " + String.join(", ", choices);
                case FRACTION -> "a number from 0 to 1";
                default -> "a whole number from " + min + " to " + max;
            };
        }
    }

    /** A day in milliseconds: the longest period any *TIME variable takes. */
    static final long DAY_MS = 86_400_000L;

    public static final Map<String, Var> VARS = new LinkedHashMap<>();

    private static void var(String name, Type type, long min, long max, String initial, String meaning) {
        VARS.put(name, new Var(name, type, min, max, initial, meaning, List.of()));
    }

    private static void flag(String name, String initial, String meaning) {
        VARS.put(name, new Var(name, Type.BOOLEAN, 0, 1, initial, meaning, List.of()));
    }

    private static void fraction(String name, String initial, String meaning) {
        VARS.put(name, new Var(name, Type.FRACTION, 0, 1, initial, meaning, List.of()));
    }

    private static void choice(String name, String initial, String meaning, String... choices) {
        VARS.put(name, new Var(name, Type.CHOICE, 0, 0, initial, meaning, List.of(choices)));
    }

    static {
        var("CHECKTIME", Type.LONG, 1, DAY_MS, "10", "milliseconds between stack samples while monitoring");
        var("DISABLETIME", Type.LONG, 1, DAY_MS, "1000", "milliseconds between checks while monitoring is off");
        var("REPORTTIME", Type.LONG, 0, DAY_MS, "0", "milliseconds between pushed reports; 0: none");
        flag("MONITOR", "true", "sampling on or off");
        flag("SHOWSTACK", "false", "push a stack dump at every check");
        flag("CONTENTION", "false", "JVM thread contention monitoring (blocked and waited times)");
        flag("CPUTIME", "true", "per-thread CPU time from the JVM's thread CPU clock");
        var("MAXDEPTH", Type.INT, 1, 65_536, "64", "stack frames considered per thread and sample");
        flag("THREAD_DEFAULT", "true", "whether a thread not named by USETHREAD is sampled");
        flag("FULLMONITORING", "false", "sample at CHECKTIME even while MONITOR is false");
        var("CLASS_DETAIL_MIN_TOTAL", Type.LONG, 0, Long.MAX_VALUE, "100",
                "samples in all before any class is detailed");
        var("CLASS_DETAIL_MINIMUM", Type.LONG, 0, Long.MAX_VALUE, "10", "samples a class needs before it is detailed");
        fraction("CLASS_DETAIL_THRESHOLD", "0.1", "share of all samples that starts detailing a class");
        fraction("CLASS_DETAIL_STOP_THRESHOLD", "0.05", "share below which a class stops being detailed");
        var("METHOD_DETAIL_MIN_TOTAL", Type.LONG, 0, Long.MAX_VALUE, "100",
                "samples in all before any method is detailed");
        var("METHOD_DETAIL_MINIMUM", Type.LONG, 0, Long.MAX_VALUE, "10",
                "samples a method needs before it is detailed");
        fraction("METHOD_DETAIL_THRESHOLD", "0.1", "share of all samples that starts detailing a method");
        fraction("METHOD_DETAIL_STOP_THRESHOLD", "0.05", "share below which a method stops being detailed");
        choice("SAMPLER", "AUTO", "where CPU samples come from: JFR where the JVM has it, else thread dumps", "AUTO",
                "JFR", "THREAD_DUMP");
        var("DUMPTIME", Type.LONG, 1, DAY_MS, "100", "milliseconds between looks at the threads' states and CPU clocks"
                + " while JFR samples the CPU");
        flag("WALL", "false", "all-thread dumps (a safepoint each) every DUMPTIME while JFR samples the CPU, for the"
                + " WALL view");
        var("LOCK_THRESHOLD_US", Type.LONG, 0, DAY_MS * 1000, "1000", "microseconds a thread must block on a lock to"
                + " be recorded (JFR)");
        var("ALLOC_RATE", Type.LONG, 0, 1_000_000, "150", "allocation samples per second (JFR); 0: none");
        var("MAXNODES", Type.INT, 1000, 100_000_000, "100000", "stack tree nodes kept for all views together");
        var("MAXPATHS", Type.INT, 1, 1_000_000, "1000", "paths a REPORT shows per stack view (a tenth of them per"
                + " thread)");
        flag("DETAIL", "false", "automatic detailing: patch detailed methods with exact timing in the running JVM"
                + " (docs/detailing.md)");
        var("DETAIL_MAX", Type.INT, 0, 10_000, "8", "methods detailed (patched) at once at most");
        var("DETAIL_PERIOD", Type.LONG, 100, DAY_MS, "1000", "milliseconds between detailing's checks of what to"
                + " patch");
        var("DETAIL_WINDOW", Type.LONG, 1000, DAY_MS, "5000", "milliseconds of recent samples the detailing"
                + " thresholds decide on");
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

    /**
     * The typed value of {@code text} for {@code v}; throws a message naming the variable, what it accepts and the
     * text given (never a value outside the range: not an overflowing number, NaN, an infinity, or a fraction too
     * close to 0 for a double).
     */
    public static Object parse(Var v, String text) {
        if (text == null) {
            throw new IllegalArgumentException(v.name() + " needs a VALUE (" + v.range() + ")");
        }
        String t = text.trim();
        switch (v.type()) {
            case BOOLEAN -> {
                Boolean b = Xml.flag(t);
                if (b == null) {
                    throw bad(v, text, "");
                }
                return b;
            }
            case CHOICE -> {
                String word = t.toUpperCase(Locale.ROOT);
                if (!v.choices().contains(word)) {
                    throw bad(v, text, "");
                }
                return word;
            }
            case FRACTION -> {
                BigDecimal d;
                try {
                    d = new BigDecimal(t);  // plain decimals only: no NaN, Infinity, hex or 'd'/'f' suffixes
                } catch (NumberFormatException | ArithmeticException e) {
                    throw bad(v, text, "");
                }
                if (d.signum() < 0 || d.compareTo(BigDecimal.ONE) > 0) {
                    throw bad(v, text, "");
                }
                double value = d.doubleValue();
                if (value == 0 && d.signum() != 0) {
                    throw bad(v, text, " (closer to 0 than a double holds: write 0)");
                }
                return value;
            }
            default -> {
                long n;
                try {
                    n = Long.parseLong(t);
                } catch (NumberFormatException e) {
                    throw bad(v, text, "");
                }
                if (n < v.min() || n > v.max()) {
                    throw bad(v, text, "");
                }
                return v.type() == Type.INT ? (Object) (int) n : (Object) n;
            }
        }
    }

    private static IllegalArgumentException bad(Var v, String text, String why) {
        return new IllegalArgumentException(v.name() + " must be " + v.range() + ", not '" + text + "'" + why);
    }

    /**
     * Sets several variables at once: all are checked first, so a bad one changes nothing. Returns the values they
     * had, for {@link #restore}.
     */
    public synchronized Map<String, Object> set(Map<String, String> assignments) {
        Map<String, Object> parsed = new LinkedHashMap<>();
        for (Map.Entry<String, String> a : assignments.entrySet()) {
            Var v = lookup(a.getKey());
            parsed.put(v.name(), parse(v, a.getValue()));
        }
        Map<String, Object> before = new LinkedHashMap<>();
        for (String name : parsed.keySet()) {
            before.put(name, values.get(name));
        }
        values.putAll(parsed);
        return before;
    }

    /** Puts back values {@link #set} returned. */
    public synchronized void restore(Map<String, Object> before) {
        values.putAll(before);
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
