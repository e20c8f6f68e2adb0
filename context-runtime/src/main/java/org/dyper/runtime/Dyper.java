package org.dyper.runtime;

import org.dyper.runtime.internal.Config;
import org.dyper.runtime.internal.Failures;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.ReportHook;
import org.dyper.runtime.internal.Reports;
import org.dyper.runtime.internal.ThreadData;

/**
 * The collection context: the monitoring switch generated advice tests first, the sink for hook failures, and the
 * reports. Loading this class installs a shutdown hook (thread {@code dyper-report}) that writes the report at JVM
 * exit. It loads JDK classes only and prints nothing but the report, one line per failing site, and one line if
 * writing a report fails.
 */
public final class Dyper {
    /**
     * Bit 0: monitoring on. Bit 1: a hook of the user's own has run in this JVM, so {@link #on()} also asks whether the
     * calling thread is inside one (until then the guard is a single test). The other bits count the switches, so a
     * state names one stretch of on or off.
     */
    private static volatile int state = Config.enabledInitially() ? 1 : 0;

    static {
        ReportHook.install();
        // resolve the fields hookFailed's last-resort handler reads and writes now, so that handler needs no class
        // loading or linking when it runs with no stack left
        Failures.unrecordedId = Failures.unrecordedId;
        Failures.unrecordedFailure = Failures.unrecordedFailure;
        Failures.unrecorded = Failures.unrecorded;
        if (Config.property(org.dyper.runtime.jfr.Telemetry.JFR_PROPERTY) != null
                || Config.property(org.dyper.runtime.jfr.Telemetry.EVENTS_PROPERTY) != null) {
            org.dyper.runtime.jfr.Telemetry.start();
        }
    }

    private Dyper() {
    }

    /**
     * Whether monitoring is on for the calling thread: one volatile read and one test, and once a hook of the user's
     * own has run ({@link #enterHook}), also whether this thread is inside one (then it is off: code a hook reaches is
     * not measured). Starts as {@code dyper.enabled} (default {@code true}).
     */
    public static boolean on() {
        int s = state;
        return (s & 3) == 1 || (s & 3) == 3 && !ThreadData.insideHook();
    }

    /**
     * The monitoring state for the calling thread: on when bit 0 is set (off inside a hook of the user's own); every
     * switch gives a new value, so generated before and after advice can tell whether they ran in the same stretch of
     * monitoring (see {@link ContextStack}).
     */
    public static int state() {
        int s = state;
        if ((s & 3) == 3 && ThreadData.insideHook()) {
            return s & ~3;
        }
        return s & ~2;
    }

    /** Turns monitoring on or off for all threads; data already recorded is kept. */
    public static synchronized void setEnabled(boolean on) {
        int s = state;
        if (((s & 1) != 0) != on) {
            state = ((s >>> 2) + 1) << 2 | (s & 2) | (on ? 1 : 0);
        }
    }

    /**
     * Generated code calls this before a mode of the user's own (any mode method outside {@code org.dyper.runtime}),
     * inside the hook's try block, and {@link #exitHook} in its finally block: until then {@link #on()} is false on
     * this thread, so patched code the hook calls (directly or not) is not measured and cannot recurse into hooks.
     */
    public static void enterHook() {
        if ((state & 2) == 0) {
            userHooks();
        }
        ThreadData.enterHook();
    }

    private static synchronized void userHooks() {
        state |= 2;
    }

    /** The end of a hook {@link #enterHook} began. Never throws. */
    public static void exitHook() {
        try {
            ThreadData.exitHook();
        } catch (Throwable ignored) {
            // the matching enterHook failed too, and was reported as the hook's failure
        }
    }

    /**
     * Records that the hook at site {@code id} threw {@code t} (which may be null). Counts failures per id, keeps the
     * first failure's {@code class: message}, and prints one line to stderr the first time an id fails. Never
     * throws, even if {@code t}'s own methods do.
     */
    public static void hookFailed(int id, Throwable t) {
        try {
            Failures.record(id, t);
        } catch (Throwable secondary) {
            // recording failed in turn (the stack overflowed, memory ran out): it must not reach the application, and
            // it still leaves a trace, kept without a call or an allocation; reports add it to the site's failures
            Failures.unrecordedId = id;
            Failures.unrecordedFailure = t;
            Failures.unrecorded++;
        }
    }

    /**
     * Throws {@code t} on unchanged, as the program threw it: the generated around advice that reads the exception
     * ending a join point (ARG TYPE='EXCEPTION') catches it and throws it on with {@code throw
     * Dyper.<RuntimeException>rethrow(t)}, which the compiler takes as unchecked (AspectJ's proceed declares none).
     */
    @SuppressWarnings("unchecked")
    public static <T extends Throwable> RuntimeException rethrow(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * Writes the report now: text to {@code dyper.report} ({@code stderr} by default, {@code stdout}, {@code none} or
     * a file path) and XML to the file {@code dyper.report.xml} when set. Both properties are read at each call.
     * Never throws; a failure prints one line to stderr.
     */
    public static void report() {
        ReportHook.write();
    }

    /**
     * Records a {@code dyper.UserEvent} with {@code message} in the JFR recordings that have the {@code user} kind on
     * (docs/events.md); nothing when none has, or where JFR cannot be used. Never throws; allocates only when on.
     */
    public static void userEvent(String message) {
        Tracing.userEvent(message);
    }

    /** Clears all agents' data and the failure counts, for all threads (including threads that have ended). */
    public static void reset() {
        Registry.reset();
        Failures.reset();
    }

    /** The text report as it would be written now. */
    public static String textReport() {
        return Reports.text(Reports.Data.now());
    }

    /** The XML report (format in {@code docs/runtime-contract.md}) as it would be written now. */
    public static String xmlReport() {
        return Reports.xml(Reports.Data.now());
    }
}
