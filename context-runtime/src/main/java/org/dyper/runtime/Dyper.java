package org.dyper.runtime;

import org.dyper.runtime.internal.Config;
import org.dyper.runtime.internal.Failures;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.ReportHook;
import org.dyper.runtime.internal.Reports;

/**
 * The collection context: the monitoring switch generated advice tests first, the sink for hook failures, and the
 * reports. Loading this class installs a shutdown hook (thread {@code dyper-report}) that writes the report at JVM
 * exit. It loads JDK classes only and prints nothing but the report, one line per failing site, and one line if
 * writing a report fails.
 */
public final class Dyper {
    /** Bit 0: monitoring on; the other bits count the switches, so a state names one stretch of on or off. */
    private static volatile int state = Config.enabledInitially() ? 1 : 0;

    static {
        ReportHook.install();
    }

    private Dyper() {
    }

    /** Whether monitoring is on: one volatile read. Starts as {@code dyper.enabled} (default {@code true}). */
    public static boolean on() {
        return (state & 1) != 0;
    }

    /**
     * The monitoring state: on when bit 0 is set; every switch gives a new value, so generated before and after
     * advice can tell whether they ran in the same stretch of monitoring (see {@link ContextStack}).
     */
    public static int state() {
        return state;
    }

    /** Turns monitoring on or off for all threads; data already recorded is kept. */
    public static synchronized void setEnabled(boolean on) {
        int s = state;
        if (((s & 1) != 0) != on) {
            state = ((s >>> 1) + 1) << 1 | (on ? 1 : 0);
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
        } catch (Throwable ignored) {
            // a failure while recording a failure (e.g. out of memory) must not reach the application either
        }
    }

    /**
     * Writes the report now: text to {@code dyper.report} ({@code stderr} by default, {@code stdout}, {@code none} or
     * a file path) and XML to the file {@code dyper.report.xml} when set. Both properties are read at each call.
     * Never throws; a failure prints one line to stderr.
     */
    public static void report() {
        ReportHook.write();
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
