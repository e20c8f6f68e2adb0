package org.dyper.runtime.jfr;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.EventSettings;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.dyper.runtime.internal.Figures;
import org.dyper.runtime.Sites;

/**
 * Everything of the telemetry stream that talks to the flight recorder besides the events themselves: registering
 * Dyper's types and periodic figures once JFR is up, Dyper's own recordings ({@code -Ddyper.jfr}, {@code jfr start}),
 * and the per-kind settings changed while the program runs. Reached only through {@link Telemetry}, which checks that
 * {@code jdk.jfr} is there first.
 */
final class Recorder {
    /** Kind settings given while the program runs, applied to every recording started later too. */
    private static final Map<String, KindSetting> OVERRIDES = new LinkedHashMap<>();
    private static Recording own;
    /** The JFR repository (chunk folder) of Dyper's recording: JFR's folder for this JVM, under Dyper's base. */
    private static String ownRepository;

    private Recorder() {
    }

    /** enabled (null: unchanged), threshold and period in ns (negative: unchanged). */
    record KindSetting(Boolean enabled, long thresholdNs, long periodNs) {
        KindSetting merge(KindSetting later) {
            return new KindSetting(later.enabled != null ? later.enabled : enabled,
                    later.thresholdNs >= 0 ? later.thresholdNs : thresholdNs,
                    later.periodNs >= 0 ? later.periodNs : periodNs);
        }
    }

    /** Registers Dyper's types once the recorder is up (at once if it is); never initialises JFR itself. */
    static void install() {
        if (!FlightRecorder.isAvailable()) {
            throw new IllegalStateException("the flight recorder is not available in this JVM (-XX:-FlightRecorder?)");
        }
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(FlightRecorder recorder) {
                Telemetry.guard("registering the dyper.* event types", Recorder::register);
            }
        });
    }

    private static void register() {
        for (Class<? extends jdk.jfr.Event> type : DyperEvents.types()) {
            FlightRecorder.register(type);
        }
        // the version hook also emits the figures, so they are in every chunk's end even when their own period is
        // a duration (JFR then calls their hook on that period only)
        FlightRecorder.addPeriodicEvent(VersionEvent.class, () -> {
            VersionEvent v = new VersionEvent();
            v.version = DyperEvents.VERSION;
            v.major = DyperEvents.MAJOR;
            v.median = DyperEvents.MEDIAN;
            v.minor = DyperEvents.MINOR;
            v.commit();
            figures();
        });
        FlightRecorder.addPeriodicEvent(TimingFigures.class, Recorder::figures);
    }

    /**
     * One instance of each figure type, to ask whether it is on. In a class of its own, initialised by the first
     * {@link #figures} (a recording is running then): a new event object makes the JVM load the flight recorder's
     * metadata and instrumentation (about 300 classes and 100 ms on JDK 17), which {@link #install} must not do.
     */
    private static final class Enabled {
        static final TimingFigures TIMING = new TimingFigures();
        static final CountFigures COUNT = new CountFigures();
        static final ValueFigures VALUES = new ValueFigures();
        static final LockFigures LOCKS = new LockFigures();
        static final AllocationFigures ALLOCATIONS = new AllocationFigures();
    }

    /** One event per row of the report's exact figures, for the figure types that are on. */
    static void figures() {
        boolean timing = Enabled.TIMING.isEnabled();
        boolean counts = Enabled.COUNT.isEnabled();
        boolean values = Enabled.VALUES.isEnabled();
        boolean locks = Enabled.LOCKS.isEnabled();
        boolean allocations = Enabled.ALLOCATIONS.isEnabled();
        if (locks || allocations) {
            Figures.locksAndAllocations(l -> {
                if (locks) {
                    LockFigures e = new LockFigures();
                    e.name = l.name();
                    e.siteId = l.id();
                    e.section = l.id() == 0 ? "LOCK_CLASS" : "SITE";
                    e.acquisitions = l.acquisitions();
                    e.contended = l.contended();
                    e.waitTotal = l.waitNs();
                    e.maximumWait = l.maxWaitNs();
                    e.holdTotal = l.holdNs();
                    e.maximumHold = l.maxHoldNs();
                    e.commit();
                }
            }, a -> {
                if (allocations) {
                    AllocationFigures e = new AllocationFigures();
                    e.name = Sites.name(a.id());
                    e.siteId = a.id();
                    e.section = a.type() ? "TYPE" : "SITE";
                    e.count = a.count();
                    e.arrays = a.arrays();
                    e.totalLength = a.totalLength();
                    e.maximumLength = a.maxLength();
                    e.commit();
                }
            });
        }
        if (!timing && !counts && !values) {
            return;
        }
        Figures.each(t -> {
            if (timing) {
                TimingFigures e = new TimingFigures();
                e.method = Sites.name(t.id());
                e.siteId = t.id();
                e.invocations = t.count();
                e.total = t.total();
                e.minimum = t.min();
                e.maximum = t.max();
                e.average = Math.round((double) t.total() / t.count());
                StringBuilder h = new StringBuilder();
                for (int b = 0; b < t.buckets().length; b++) {
                    if (t.buckets()[b] > 0) {
                        h.append(h.length() == 0 ? "" : " ").append(Figures.bucketUpper(b)).append(':')
                                .append(t.buckets()[b]);
                    }
                }
                e.histogram = h.toString();
                e.commit();
            }
        }, c -> {
            if (counts) {
                CountFigures e = new CountFigures();
                e.site = Sites.name(c.id());
                e.siteId = c.id();
                e.section = c.call() ? "CALLS" : "COUNTS";
                e.count = c.count();
                e.commit();
            }
        }, v -> {
            if (values) {
                ValueFigures e = new ValueFigures();
                e.site = Sites.name(v.id());
                e.siteId = v.id();
                e.count = v.count();
                e.sum = v.sum();
                e.minimum = v.min();
                e.maximum = v.max();
                e.nulls = v.nulls();
                e.nonNulls = v.nonNulls();
                e.commit();
            }
        });
    }

    /**
     * The settings of a Dyper recording: the named JFR configurations ({@code default}, {@code profile}) or .jfc files,
     * in order, every Dyper type on (figures every {@link Telemetry#DEFAULT_PERIOD}), then the kind settings given so
     * far.
     */
    static Map<String, String> settings(List<String> configurations) throws IOException, java.text.ParseException {
        Map<String, String> s = new LinkedHashMap<>();
        for (String name : configurations) {
            Configuration c = name.endsWith(".jfc") || name.contains("/") ? Configuration.create(Path.of(name))
                    : Configuration.getConfiguration(name);
            s.putAll(c.getSettings());
        }
        for (Map.Entry<String, List<String>> kind : DyperEvents.KINDS.entrySet()) {
            for (String event : kind.getValue()) {
                s.putIfAbsent(event + "#enabled", "true");
                if (kind.getKey().equals("figures")) {
                    s.putIfAbsent(event + "#period", Telemetry.DEFAULT_PERIOD);
                }
            }
        }
        synchronized (OVERRIDES) {
            OVERRIDES.forEach((kind, setting) -> {
                for (String event : DyperEvents.KINDS.get(kind)) {
                    if (setting.enabled != null) {
                        s.put(event + "#enabled", setting.enabled.toString());
                    }
                    if (setting.thresholdNs >= 0) {
                        s.put(event + "#threshold", setting.thresholdNs + " ns");
                    }
                    if (setting.periodNs >= 0) {
                        s.put(event + "#period", setting.periodNs + " ns");
                    }
                }
            });
        }
        return s;
    }

    /** Starts Dyper's recording to {@code file} (dumped there at exit); one at a time. */
    static synchronized String start(Path file, List<String> configurations) throws Exception {
        if (own != null && own.getState() == RecordingState.RUNNING) {
            throw new IllegalStateException("a Dyper recording is already running (to " + own.getDestination()
                    + "); stop it first");
        }
        Path target = file.toAbsolutePath();
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
        Map<String, String> settings = settings(configurations);
        Path base = repositoryBase(target);
        String unmoved = null;
        try {
            configureRepository(base);
        } catch (Exception e) {
            unmoved = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        Recording r = new Recording(settings);
        r.setName("dyper");
        r.setToDisk(true);
        r.setDumpOnExit(true);
        r.setDestination(target);
        r.start();
        own = r;
        ownRepository = System.getProperty("jdk.jfr.repository");
        if (unmoved != null) {
            Telemetry.failed("the recording's chunks stay in JFR's repository " + ownRepository
                    + ", not in " + base, unmoved);
        }
        return target.toString();
    }

    /**
     * Where the chunks of Dyper's recording to {@code target} go until it is written: {@code -Ddyper.jfr.repository},
     * else {@code TARGET.chunks} next to the file. Created (or narrowed) to owner-only, so that nothing the recording
     * holds is readable by others; JFR makes one folder per JVM in it and removes that at a normal exit, and the base
     * is deleted at exit when it is empty again.
     */
    static Path repositoryBase(Path target) throws IOException {
        String given = org.dyper.runtime.internal.Config.property(Telemetry.REPOSITORY_PROPERTY);
        Path base = (given != null && !given.isBlank() ? Path.of(given.trim())
                : target.resolveSibling(target.getFileName() + ".chunks")).toAbsolutePath();
        boolean posix = base.getFileSystem().supportedFileAttributeViews().contains("posix");
        java.util.Set<java.nio.file.attribute.PosixFilePermission> owner =
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
        if (!Files.exists(base)) {
            if (posix) {
                Files.createDirectories(base, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(owner));
            } else {
                Files.createDirectories(base);
            }
            base.toFile().deleteOnExit(); // after the shutdown hooks, JFR's clean-up included; only when empty
        } else if (!Files.isDirectory(base)) {
            throw new IOException(base + " (the recording's chunk folder) is not a directory");
        }
        if (posix && !Files.getPosixFilePermissions(base).equals(owner)) {
            Files.setPosixFilePermissions(base, owner);
        }
        return base;
    }

    /** Moves the JVM's JFR repository under {@code base} (JFR.configure repositorypath=, through JMX). */
    private static void configureRepository(Path base) throws Exception {
        javax.management.MBeanServer server = java.lang.management.ManagementFactory.getPlatformMBeanServer();
        server.invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "jfrConfigure",
                new Object[] {new String[] {"repositorypath=" + base}}, new String[] {String[].class.getName()});
    }

    /** The folder of the chunks of Dyper's running recording, or null. */
    static synchronized String repository() {
        return own != null && own.getState() == RecordingState.RUNNING ? ownRepository : null;
    }

    /** Writes what Dyper's recording holds so far to {@code file}; it runs on. */
    static synchronized String dump(Path file) throws IOException {
        Recording r = running();
        Path target = file.toAbsolutePath();
        r.dump(target);
        return target.toString();
    }

    /** Stops Dyper's recording, which writes it to its file; returns the file. */
    static synchronized String stop() {
        Recording r = running();
        Path to = r.getDestination();
        r.stop();
        r.close();
        own = null;
        return String.valueOf(to);
    }

    private static Recording running() {
        if (own == null || own.getState() != RecordingState.RUNNING) {
            throw new IllegalStateException("no Dyper recording is running (start one with jfr start FILE, or "
                    + "-Ddyper.jfr=FILE)");
        }
        return own;
    }

    /** Where Dyper's recording writes, or null when none runs. */
    static synchronized String recordingFile() {
        return own != null && own.getState() == RecordingState.RUNNING ? String.valueOf(own.getDestination()) : null;
    }

    /**
     * Applies a kind setting to every recording of this JVM (so the type's effective setting changes at once) and to
     * Dyper's recordings started later.
     */
    static void set(String kind, KindSetting setting) {
        synchronized (OVERRIDES) {
            OVERRIDES.merge(kind, setting, KindSetting::merge);
        }
        for (Recording r : FlightRecorder.isInitialized() ? FlightRecorder.getFlightRecorder().getRecordings()
                : List.<Recording>of()) {
            if (r.getState() == RecordingState.CLOSED || r.getState() == RecordingState.STOPPED) {
                continue;
            }
            for (String event : DyperEvents.KINDS.get(kind)) {
                boolean on = setting.enabled != null ? setting.enabled
                        : "true".equals(r.getSettings().get(event + "#enabled"));
                EventSettings e = on ? r.enable(event) : r.disable(event);
                if (setting.thresholdNs >= 0) {
                    e.withThreshold(Duration.ofNanos(setting.thresholdNs));
                }
                if (setting.periodNs >= 0) {
                    e.withPeriod(Duration.ofNanos(setting.periodNs));
                }
            }
        }
    }

    /** Every kind with the effective settings of its first type across the running recordings. */
    static List<String[]> kinds() {
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, List<String>> kind : DyperEvents.KINDS.entrySet()) {
            String event = kind.getValue().get(0);
            String enabled = "false";
            String threshold = "";
            String period = "";
            if (FlightRecorder.isInitialized()) {
                for (jdk.jfr.EventType t : FlightRecorder.getFlightRecorder().getEventTypes()) {
                    if (t.getName().equals(event)) {
                        enabled = Boolean.toString(t.isEnabled());
                    }
                }
                for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                    if (r.getState() == RecordingState.RUNNING) {
                        Map<String, String> s = r.getSettings();
                        threshold = s.getOrDefault(event + "#threshold", threshold);
                        period = s.getOrDefault(event + "#period", period);
                    }
                }
            }
            rows.add(new String[] {kind.getKey(), String.join(",", kind.getValue()), enabled, threshold, period});
        }
        return rows;
    }
}
