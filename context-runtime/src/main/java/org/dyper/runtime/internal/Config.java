package org.dyper.runtime.internal;

/** System properties of the runtime; those that shape the hot path are read once, at class initialisation. */
public final class Config {
    public static final String ENABLED = "dyper.enabled";
    public static final String REPORT = "dyper.report";
    public static final String REPORT_XML = "dyper.report.xml";
    public static final String REPORT_WIDTH = "dyper.report.width";
    /** Columns the text report's rows fit by default (names are shortened to fit). */
    public static final int DEFAULT_REPORT_WIDTH = 120;
    public static final String REPORT_HTML = "dyper.report.html";
    public static final String SAMPLE_EVERY_PROPERTY = "dyper.sample.every";
    public static final int DEFAULT_SAMPLE_EVERY = 64;
    public static final String LOCK_CONTENDED_PROPERTY = "dyper.lock.contended.ns";
    public static final long DEFAULT_LOCK_CONTENDED_NS = 20_000;

    /** One call in this many (per thread and site) is timed by {@code SampledTiming}; at least 1. */
    public static final int SAMPLE_EVERY = parseSampleEvery(property(SAMPLE_EVERY_PROPERTY));

    /** A lock acquisition that waited longer than this many ns counts as contended; at least 0. */
    public static final long LOCK_CONTENDED_NS = parseContendedNs(property(LOCK_CONTENDED_PROPERTY));

    private Config() {
    }

    /** Monitoring starts on unless {@code dyper.enabled} is {@code false} (any case). */
    public static boolean enabledInitially() {
        String value = property(ENABLED);
        return value == null || !value.trim().equalsIgnoreCase("false");
    }

    /** A missing, malformed or non-positive value means the default: the runtime must not print a warning here. */
    static int parseSampleEvery(String value) {
        if (value == null) {
            return DEFAULT_SAMPLE_EVERY;
        }
        try {
            int n = Integer.parseInt(value.trim());
            return n >= 1 ? n : DEFAULT_SAMPLE_EVERY;
        } catch (NumberFormatException e) {
            return DEFAULT_SAMPLE_EVERY;
        }
    }

    /** A missing, malformed or negative value means the default. */
    static long parseContendedNs(String value) {
        if (value == null) {
            return DEFAULT_LOCK_CONTENDED_NS;
        }
        try {
            long n = Long.parseLong(value.trim());
            return n >= 0 ? n : DEFAULT_LOCK_CONTENDED_NS;
        } catch (NumberFormatException e) {
            return DEFAULT_LOCK_CONTENDED_NS;
        }
    }

    /** {@code dyper.report.width}: columns the text report fits, 0 for whole names; malformed or negative: 120. */
    public static int reportWidth() {
        String value = property(REPORT_WIDTH);
        if (value == null) {
            return DEFAULT_REPORT_WIDTH;
        }
        try {
            int n = Integer.parseInt(value.trim());
            return n >= 0 ? n : DEFAULT_REPORT_WIDTH;
        } catch (NumberFormatException e) {
            return DEFAULT_REPORT_WIDTH;
        }
    }

    /** {@code System.getProperty} that never throws (a security manager may refuse). */
    public static String property(String name) {
        try {
            return System.getProperty(name);
        } catch (Throwable t) {
            return null;
        }
    }
}
