package org.dyper.runtime.instrument.internal;

import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Where one insert's time goes, phase by phase, when the JVM runs with {@code -Ddyper.instrument.phases=true}
 * (docs/runtime-patching.md, "Cost"): per phase its wall time, the patching thread's CPU time and how many classes
 * the JVM loaded meanwhile (all threads; hidden classes such as lambda forms included). Off by default: then
 * {@link #mark} returns at once and {@link #text} is null.
 */
final class Phases {
    /** Read once: whether inserts measure their phases. */
    static final boolean ON = Boolean.getBoolean("dyper.instrument.phases");

    private final StringBuilder text;
    private final ThreadMXBean threads;
    private final ClassLoadingMXBean classes;
    private long wall;
    private long cpu;
    private long loaded;

    private Phases(boolean on) {
        if (!on) {
            text = null;
            threads = null;
            classes = null;
            return;
        }
        text = new StringBuilder();
        threads = ManagementFactory.getThreadMXBean();
        classes = ManagementFactory.getClassLoadingMXBean();
        wall = System.nanoTime();
        cpu = cpu();
        loaded = classes.getTotalLoadedClassCount();
    }

    /** Starts measuring, from now, when {@link #ON}. */
    static Phases start() {
        return new Phases(ON);
    }

    /** Measuring regardless of the property (tests, and the warm-up's own check). */
    static Phases always() {
        return new Phases(true);
    }

    private long cpu() {
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
    }

    /** Ends the phase {@code name}, which ran since the last mark (or the start). */
    void mark(String name) {
        if (text == null) {
            return;
        }
        long w = System.nanoTime();
        long c = cpu();
        long l = classes.getTotalLoadedClassCount();
        if (text.length() > 0) {
            text.append(' ');
        }
        // name=wall µs/CPU µs/classes loaded
        text.append(name).append('=').append((w - wall) / 1000).append('/').append((c - cpu) / 1000).append('/')
                .append(l - loaded);
        wall = w;
        cpu = c;
        loaded = l;
    }

    /** {@code name=wallMicros/cpuMicros/classes ...} in order, or null when not measured. */
    String text() {
        return text == null ? null : text.toString();
    }
}
