package org.dyper.benchmarks.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Sites;
import org.dyper.runtime.Tracing;
import org.dyper.runtime.jfr.Telemetry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-call cost of TRACE_ENTER/TRACE_EXIT as generated advice makes them (guard, enter, exit when enter gave a
 * context) around a small method, against the same method unpatched: {@code state=off} (no recording has
 * {@code dyper.MethodTrace} on: the disabled case), {@code below} (a Dyper recording runs with a 1 s threshold: the event
 * is begun and ended, never committed), {@code on} (threshold 0: every call is committed to the recording, on disk).
 * {@code jdk-below} and {@code jdk-on} put JDK 25's {@code jdk.MethodTrace} on the same method instead (read
 * {@code noPatch} then). {@code -prof gc} gives bytes per call. Run: {@code benchmarks/run --only trace}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Ddyper.report=none"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class TraceCalls {
    /**
     * off, below, on: Dyper's trace as above; was-on: a Dyper recording traced calls, then the {@code method} kind was
     * switched off ({@code dyper ctl PID events method=off}): disabled again, but JFR has instrumented the event class,
     * so its {@code isEnabled()} is no longer the constant false of a type never enabled; jdk-below, jdk-on (JDK 25
     * only): no Dyper recording, JDK 25's own {@code jdk.MethodTrace} instruments {@link #work} through its
     * {@code filter} setting, with a 1 s threshold or 0, so {@code noPatch} then measures the JDK's method tracing of
     * the same method.
     */
    @Param({"off", "below", "on", "jdk-below", "jdk-on", "was-on"})
    public String state;

    private jdk.jfr.Recording jdkRecording;

    private int site;
    private int x = 7;
    private Path dir;

    @Setup(Level.Trial)
    public void start() throws Exception {
        site = Sites.register("METHOD", "org.dyper.benchmarks.Traced", "work", "int");
        Dyper.setEnabled(true);
        Telemetry.start();
        if (state.startsWith("jdk-")) {
            boolean known = jdk.jfr.FlightRecorder.getFlightRecorder().getEventTypes().stream()
                    .anyMatch(t -> t.getName().equals("jdk.MethodTrace"));
            if (!known) {
                throw new IllegalStateException("state=" + state + " needs JDK 25's jdk.MethodTrace (this is "
                        + System.getProperty("java.version") + ")");
            }
            java.util.Map<String, String> settings = new java.util.HashMap<>();
            settings.put("jdk.MethodTrace#enabled", "true");
            settings.put("jdk.MethodTrace#filter", TraceCalls.class.getName() + "::work");
            settings.put("jdk.MethodTrace#threshold", state.equals("jdk-below") ? "1 s" : "0 ns");
            settings.put("jdk.MethodTrace#stackTrace", "false");
            jdkRecording = new jdk.jfr.Recording(settings);
            jdkRecording.setToDisk(true);
            jdkRecording.start();
            return;
        }
        if (!state.equals("off")) {
            if (!Telemetry.available()) {
                throw new IllegalStateException("JFR is not usable: " + Telemetry.firstFailure());
            }
            Telemetry.set("method.threshold=" + (state.equals("below") ? "1s" : "0"));
            dir = Files.createTempDirectory("dyper-trace-bench");
            Telemetry.startRecording(dir.resolve("bench.jfr").toString(), null);
            if (state.equals("was-on")) {
                for (int i = 0; i < 1000; i++) {
                    Tracing.exit(site, Tracing.enter(site));
                }
                Telemetry.set("method=off");
            }
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        if (jdkRecording != null) {
            jdkRecording.stop();
            jdkRecording.close();
        }
        if (dir != null) {
            Telemetry.stopRecording();
            // the recording and what is left of its chunk folder (JFR removes its own folder at exit)
            try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
                all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    private static int work(int v) {
        return v * 31 + 1;
    }

    /** The method alone. */
    @Benchmark
    public int noPatch() {
        return work(x);
    }

    /** The method with TRACE_ENTER and TRACE_EXIT as the generated around advice runs them. */
    @Benchmark
    public int traced() {
        Object context = null;
        if (Dyper.on()) {
            try {
                context = Tracing.enter(site);
            } catch (Throwable t) {
                Dyper.hookFailed(site, t);
            }
        }
        try {
            return work(x);
        } finally {
            if (context != null && Dyper.on()) {
                try {
                    Tracing.exit(site, context);
                } catch (Throwable t) {
                    Dyper.hookFailed(site, t);
                }
            }
        }
    }

    /**
     * Only the {@code Dyper.on()} guard every mode's advice starts with, nothing of JFR: the floor of a disabled trace
     * (run with {@code state=off}).
     */
    @Benchmark
    public int guardOnly() {
        Object context = null;
        if (Dyper.on()) {
            context = x == Integer.MIN_VALUE ? this : null; // never: keeps the branch without a call
        }
        try {
            return work(x);
        } finally {
            if (context != null && Dyper.on()) {
                Tracing.exit(site, context);
            }
        }
    }
}
