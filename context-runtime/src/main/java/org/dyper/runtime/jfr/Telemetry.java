package org.dyper.runtime.jfr;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.dyper.runtime.internal.Config;

/**
 * The telemetry stream's entry point that needs no {@code jdk.jfr}: whether JFR can be used here, starting the
 * recording {@code -Ddyper.jfr} asks for, the per-kind control, and the failures of all of it. A JVM without the
 * {@code jdk.jfr} module, or with the flight recorder disabled, runs on without Dyper's events: the reason is printed
 * once (when events were asked for) and counted, never thrown.
 */
public final class Telemetry {
    /** {@code -Ddyper.jfr=FILE}: record to FILE (dumped at exit). */
    public static final String JFR_PROPERTY = "dyper.jfr";
    /** {@code -Ddyper.jfr.settings=default,profile,my.jfc}: the JFR configurations of that recording. */
    public static final String SETTINGS_PROPERTY = "dyper.jfr.settings";
    /** {@code -Ddyper.jfr.repository=DIR}: where the recording's chunks go until it is written (default FILE.chunks). */
    public static final String REPOSITORY_PROPERTY = "dyper.jfr.repository";
    /** {@code -Ddyper.events=method.threshold=10ms,user=off}: kind settings from the start. */
    public static final String EVENTS_PROPERTY = "dyper.events";
    /** How often Dyper's recordings emit the figures unless told otherwise. */
    static final String DEFAULT_PERIOD = "10 s";

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static final AtomicLong FAILURES = new AtomicLong();
    private static volatile String firstFailure;
    /** Whether JFR and Dyper's types can be used in this JVM; decided once, by {@link #start}. */
    private static volatile boolean available;

    private Telemetry() {
    }

    /**
     * Makes Dyper's event types known to the flight recorder (once it is up) and starts the {@code -Ddyper.jfr}
     * recording. Called when the runtime loads and by the monitor agent; the first call does the work. Never throws.
     */
    public static void start() {
        if (!STARTED.compareAndSet(false, true)) {
            return;
        }
        String file = Config.property(JFR_PROPERTY);
        String events = Config.property(EVENTS_PROPERTY);
        boolean asked = file != null && !file.isBlank() || events != null && !events.isBlank();
        try {
            Class.forName("jdk.jfr.FlightRecorder", false, Telemetry.class.getClassLoader());
            Recorder.install();
            available = true;
        } catch (Throwable t) {
            failed("JFR is not usable here", t, asked);
            return;
        }
        if (events != null && !events.isBlank()) {
            try {
                for (String part : events.split(",")) {
                    if (!part.isBlank()) {
                        set(part.trim());
                    }
                }
            } catch (Throwable t) {
                failed(EVENTS_PROPERTY + "=" + events, t, true);
            }
        }
        if (file != null && !file.isBlank()) {
            try {
                String to = Recorder.start(Path.of(file.trim()), configurations(Config.property(SETTINGS_PROPERTY)));
                say("recording to " + to + "; until it is written its chunks are in " + Recorder.repository()
                        + " (after a crash: dyper events recover " + Recorder.repository() + " -o " + to + ")");
            } catch (Throwable t) {
                failed(JFR_PROPERTY + "=" + file + ": no recording", t, true);
            }
        }
    }

    /** Whether JFR could be used when the telemetry started (false before). */
    public static boolean available() {
        return available;
    }

    /** How many times the telemetry failed (JFR missing, a recording that could not start, a failing hook). */
    public static long failures() {
        return FAILURES.get();
    }

    /** The first failure, {@code what: class: message}, or null. */
    public static String firstFailure() {
        return firstFailure;
    }

    static void guard(String what, Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            failed(what, t, true);
        }
    }

    /** A failure that is not an exception: counted and said once on stderr. */
    static void failed(String what, String why) {
        FAILURES.incrementAndGet();
        String line = what + ": " + why;
        if (firstFailure == null) {
            firstFailure = line;
        }
        say(line);
    }

    private static void say(String line) {
        try {
            System.err.println("dyper: telemetry: " + line);
        } catch (Throwable ignored) {
            // saying it must not throw either
        }
    }

    private static void failed(String what, Throwable t, boolean say) {
        try {
            FAILURES.incrementAndGet();
            String line = what + ": " + t.getClass().getName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
            if (firstFailure == null) {
                firstFailure = line;
            }
            if (say) {
                PrintStream err = System.err;
                err.println("dyper: telemetry: " + line);
            }
        } catch (Throwable ignored) {
            // the failure path must not throw either
        }
    }

    /** {@code default} unless the property names configurations (comma-separated names or .jfc files). */
    static List<String> configurations(String property) {
        List<String> names = new ArrayList<>();
        if (property != null) {
            for (String n : property.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim());
                }
            }
        }
        return names.isEmpty() ? List.of("default") : names;
    }

    // ---- control (the monitor's EVENTS and JFR commands) ----

    private static void needJfr() {
        if (!available) {
            throw new IllegalStateException("JFR is not usable in this JVM"
                    + (firstFailure == null ? "" : " (" + firstFailure + ")"));
        }
    }

    /**
     * Applies one kind setting, {@code KIND=on|off}, {@code KIND.threshold=DURATION} or {@code KIND.period=DURATION}
     * (durations as {@code 10ms}, {@code 10 ms}, {@code 5s}, {@code 0}), to every running recording and to Dyper's
     * recordings started later.
     *
     * @throws IllegalArgumentException naming the part and the kinds when it is not one of those
     * @throws IllegalStateException when JFR is not usable here
     */
    public static void set(String part) {
        Recorder.KindSetting s = parse(part);
        needJfr();
        Recorder.set(kindOf(part), s);
    }

    /** Checks a kind setting as {@link #set} would, applying nothing. */
    public static void check(String part) {
        parse(part);
    }

    private static String kindOf(String part) {
        String key = part.substring(0, part.indexOf('=')).trim().toLowerCase(Locale.ROOT);
        int dot = key.indexOf('.');
        return dot < 0 ? key : key.substring(0, dot);
    }

    private static Recorder.KindSetting parse(String part) {
        int eq = part.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("'" + part + "': expected KIND=on|off, KIND.threshold=DURATION or "
                    + "KIND.period=DURATION");
        }
        String key = part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
        String value = part.substring(eq + 1).trim();
        int dot = key.indexOf('.');
        String kind = dot < 0 ? key : key.substring(0, dot);
        String what = dot < 0 ? "enabled" : key.substring(dot + 1);
        if (!DyperEvents.KINDS.containsKey(kind)) {
            throw new IllegalArgumentException("'" + part + "': unknown kind '" + kind + "'; kinds: "
                    + String.join(", ", DyperEvents.KINDS.keySet()));
        }
        Recorder.KindSetting s;
        switch (what) {
            case "enabled" -> {
                Boolean on = switch (value.toLowerCase(Locale.ROOT)) {
                    case "on", "true", "1" -> Boolean.TRUE;
                    case "off", "false", "0" -> Boolean.FALSE;
                    default -> null;
                };
                if (on == null) {
                    throw new IllegalArgumentException("'" + part + "': " + kind + " is on or off, not '" + value
                            + "'");
                }
                s = new Recorder.KindSetting(on, -1, -1);
            }
            case "threshold" -> s = new Recorder.KindSetting(null, nanos(part, value), -1);
            case "period" -> s = new Recorder.KindSetting(null, -1, nanos(part, value));
            default -> throw new IllegalArgumentException("'" + part + "': unknown setting '" + what
                    + "'; settings: threshold, period");
        }
        return s;
    }

    /** A duration as ns: digits, then ns, us, ms, s, m or h (spaces allowed); a plain 0 is 0. */
    static long nanos(String part, String value) {
        String v = value.replace(" ", "").toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < v.length() && Character.isDigit(v.charAt(i))) {
            i++;
        }
        String unit = v.substring(i);
        long unitNs = switch (unit) {
            case "ns" -> 1L;
            case "us" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            case "" -> v.equals("0") ? 1L : -1L;
            default -> -1L;
        };
        if (i == 0 || unitNs < 0 || i > 12) {
            throw new IllegalArgumentException("'" + part + "': '" + value + "' is not a duration (e.g. 10ms, 5s, 0)");
        }
        return Long.parseLong(v.substring(0, i)) * unitNs;
    }

    /** Each kind: {@code {name, event types, enabled, threshold, period}} as the recordings have them now. */
    public static List<String[]> kinds() {
        needJfr();
        return Recorder.kinds();
    }

    /** Starts Dyper's recording to {@code file} with {@code settings} (null: default); returns the absolute path. */
    public static String startRecording(String file, String settings) throws Exception {
        needJfr();
        return Recorder.start(Path.of(file), configurations(settings));
    }

    /** Writes Dyper's running recording so far to {@code file}; returns the absolute path. */
    public static String dumpRecording(String file) throws Exception {
        needJfr();
        return Recorder.dump(Path.of(file));
    }

    /** Stops Dyper's recording (written to its file); returns the file. */
    public static String stopRecording() {
        needJfr();
        return Recorder.stop();
    }

    /** The folder of the chunks of Dyper's running recording (for {@code dyper events recover}), or null. */
    public static String repository() {
        return available ? Recorder.repository() : null;
    }

    /** The file Dyper's running recording goes to, or null. */
    public static String recordingFile() {
        return available ? Recorder.recordingFile() : null;
    }
}
