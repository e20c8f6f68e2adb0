package org.dyper.runtime.monitor.internal.sampling;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JDK Flight Recorder read in this JVM ({@link RecordingStream}): CPU samples ({@code jdk.CPUTimeSample} where
 * the JVM has it, JDK 25 on Linux, else {@code jdk.ExecutionSample} with {@code jdk.NativeMethodSample} for threads in
 * native code) at CHECKTIME, lock waits (monitor enter, and
 * parks on {@code java.util.concurrent} synchronizers), allocation samples, GC pauses and thread starts and ends.
 * Only this class touches {@code jdk.jfr}, so the monitor runs where that module is missing. Events arrive in
 * batches, about once a second.
 */
final class JfrSource {
    static final String CPU_TIME = "jdk.CPUTimeSample";
    static final String EXECUTION = "jdk.ExecutionSample";
    static final String NATIVE = "jdk.NativeMethodSample";
    private static final String MONITOR_ENTER = "jdk.JavaMonitorEnter";
    private static final String PARK = "jdk.ThreadPark";
    private static final String ALLOC = "jdk.ObjectAllocationSample";
    private static final String GC = "jdk.GarbageCollection";
    private static final String THREAD_START = "jdk.ThreadStart";
    private static final String THREAD_END = "jdk.ThreadEnd";

    private final Events sink;
    private final RecordingStream stream;
    private final String cpuEvent;
    /** Whether a recording ran before ours: then JFR's threads are not the monitor's cost. */
    final boolean othersRecording;
    private final Object flushes = new Object();
    private long flushCount;
    private boolean closed;
    private volatile long periodNs;
    private String applied = "";
    /** Runs before the first event is handled; set by {@link #run}. Only the stream's thread reads these two. */
    private Runnable started = () -> { };
    private boolean begun;

    private JfrSource(Events sink) {
        this.sink = sink;
        FlightRecorder recorder = FlightRecorder.getFlightRecorder();
        othersRecording = !recorder.getRecordings().isEmpty();
        boolean cpuTime = false;
        for (EventType t : recorder.getEventTypes()) {
            cpuTime |= t.getName().equals(CPU_TIME);
        }
        cpuEvent = cpuTime ? CPU_TIME : EXECUTION;
        stream = new RecordingStream();
        stream.setOrdered(false);
        stream.setReuse(true);
        stream.setMaxAge(Duration.ofSeconds(30));
        stream.setMaxSize(64L << 20);
        stream.onEvent(cpuEvent, e -> handle(e, this::cpu));
        if (cpuEvent.equals(EXECUTION)) {
            stream.onEvent(NATIVE, e -> handle(e, this::nativeSample));
        }
        stream.onEvent(MONITOR_ENTER, e -> handle(e, this::monitorEnter));
        stream.onEvent(PARK, e -> handle(e, this::park));
        stream.onEvent(ALLOC, e -> handle(e, this::alloc));
        stream.onEvent(GC, e -> handle(e, this::gc));
        stream.onEvent(THREAD_START, e -> handle(e, this::threadStart));
        stream.onEvent(THREAD_END, e -> handle(e, this::threadEnd));
        stream.onFlush(() -> {
            begin();
            try {
                sink.flushed();
            } catch (Throwable failure) {
                sink.failed("JFR flush", failure);
            }
            signal(false);
        });
        stream.onClose(() -> signal(true));
    }

    /** A stream on this JVM's recorder, not started yet; throws where JFR is missing or disabled. */
    static JfrSource open(Events sink) {
        if (!FlightRecorder.isAvailable()) {
            throw new IllegalStateException("the JVM's flight recorder is not available");
        }
        return new JfrSource(sink);
    }

    /** The CPU event in use. */
    String cpuEvent() {
        return cpuEvent;
    }

    /** Nanoseconds one CPU sample stands for (CHECKTIME as last applied). */
    long periodNs() {
        return periodNs;
    }

    /**
     * Runs the stream in the calling thread until {@link #close()} or the JVM's end; {@code started} runs once, in
     * the stream's thread, before the first events are handed over (or at the first flush).
     */
    void run(Runnable started) {
        this.started = started;
        stream.start();
    }

    /** The first batch of events is here: the sink takes the recorder's samples from now on. */
    private void begin() {
        if (!begun) {
            begun = true;
            started.run();
        }
    }

    void close() {
        stream.close();
    }

    /**
     * Enables the events with the monitor's settings: all off while MONITOR is false. Only what changed is sent to
     * the recorder.
     */
    synchronized void apply(boolean on, long checkMillis, long lockMicros, long allocPerSecond) {
        String key = on + "/" + checkMillis + "/" + lockMicros + "/" + allocPerSecond;
        if (key.equals(applied)) {
            return;
        }
        applied = key;
        periodNs = TimeUnit.MILLISECONDS.toNanos(checkMillis);
        if (!on) {
            for (String e : List.of(cpuEvent, NATIVE, MONITOR_ENTER, PARK, ALLOC, GC, THREAD_START, THREAD_END)) {
                stream.disable(e);
            }
            return;
        }
        if (cpuEvent.equals(CPU_TIME)) {
            stream.enable(CPU_TIME).with("throttle", checkMillis + "ms");
        } else {
            stream.enable(EXECUTION).withPeriod(Duration.ofMillis(checkMillis));
            // the execution sampler does not see threads in native code: their on-CPU time comes from these
            stream.enable(NATIVE).withPeriod(Duration.ofMillis(checkMillis));
        }
        Duration threshold = Duration.ofNanos(TimeUnit.MICROSECONDS.toNanos(lockMicros));
        stream.enable(MONITOR_ENTER).withThreshold(threshold).withStackTrace();
        stream.enable(PARK).withThreshold(threshold).withStackTrace();
        if (allocPerSecond > 0) {
            stream.enable(ALLOC).with("throttle", allocPerSecond + "/s").withStackTrace();
        } else {
            stream.disable(ALLOC);
        }
        stream.enable(GC);
        stream.enable(THREAD_START).withStackTrace();
        stream.enable(THREAD_END);
    }

    private void signal(boolean end) {
        synchronized (flushes) {
            flushCount++;
            closed |= end;
            flushes.notifyAll();
        }
    }

    /**
     * Waits (at most {@code millis}) until the recorder has handed over what it held when this was called: the next
     * flush, or the end of the stream at the JVM's exit.
     */
    void awaitFlush(long millis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        synchronized (flushes) {
            long target = flushCount + 2;
            try {
                while (!closed && flushCount < target) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    TimeUnit.NANOSECONDS.timedWait(flushes, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private interface Handler {
        void handle(RecordedEvent e, long threadId, String name);
    }

    /** Finds the event's thread, skips the ones the monitor does not report on, and never lets a failure out. */
    private void handle(RecordedEvent e, Handler h) {
        try {
            begin();
            if (!sink.recording()) {
                return;
            }
            String type = e.getEventType().getName();
            RecordedThread t = type.equals(EXECUTION) || type.equals(NATIVE) ? e.getThread("sampledThread")
                    : type.equals(THREAD_START) || type.equals(THREAD_END) ? e.getThread("thread")
                    : type.equals(GC) ? null : e.getThread();
            if (type.equals(GC)) {
                h.handle(e, -1, null);
                return;
            }
            if (t == null || t.getJavaThreadId() <= 0) {
                return;
            }
            long id = t.getJavaThreadId();
            String name = t.getJavaName() == null ? "" : t.getJavaName();
            if (type.equals(NATIVE) && !sink.use(id, name)) {
                return;
            }
            if (type.equals(cpuEvent) && !sink.use(id, name)) {
                sink.own(id, name, weightNs(e));
                return;
            }
            if (sink.use(id, name)) {
                h.handle(e, id, name);
            }
        } catch (Throwable failure) {
            sink.failed("JFR " + e.getEventType().getName(), failure);
        }
    }

    private long weightNs(RecordedEvent e) {
        if (e.hasField("samplingPeriod")) {
            long ns = e.getDuration("samplingPeriod").toNanos();
            if (ns > 0) {
                return ns;
            }
        }
        return periodNs;
    }

    private void cpu(RecordedEvent e, long id, String name) {
        if (cpuEvent.equals(EXECUTION)) {
            sink.executionSample(id, name, frames(e), epochNanos(e.getStartTime()), weightNs(e));
        } else {
            sink.cpu(id, name, frames(e), weightNs(e));
        }
    }

    private static long epochNanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    private void nativeSample(RecordedEvent e, long id, String name) {
        sink.nativeSample(id, name, () -> frames(e), epochNanos(e.getStartTime()));
    }

    private void monitorEnter(RecordedEvent e, long id, String name) {
        RecordedClass c = e.getClass("monitorClass");
        sink.lock(id, name, frames(e), c == null ? "?" : c.getName(), e.getDuration().toNanos());
    }

    private void park(RecordedEvent e, long id, String name) {
        RecordedClass c = e.getClass("parkedClass");
        if (c != null && LockKinds.isLock(c.getName())) {
            sink.lock(id, name, frames(e), c.getName(), e.getDuration().toNanos());
        }
    }

    private void alloc(RecordedEvent e, long id, String name) {
        RecordedClass c = e.getClass("objectClass");
        long bytes = e.getLong("weight");
        if (c != null && bytes > 0) {
            sink.alloc(id, name, frames(e), FrameNames.typeName(c.getName()), bytes);
        }
    }

    private void gc(RecordedEvent e, long id, String name) {
        sink.gc(e.getString("name"), e.getString("cause"), e.getDuration("sumOfPauses").toNanos(),
                e.getDuration("longestPause").toNanos(), e.getStartTime().toEpochMilli());
    }

    private void threadStart(RecordedEvent e, long id, String name) {
        RecordedThread parent = e.getThread("parentThread");
        sink.threadStart(id, name, parent == null ? "" : String.valueOf(parent.getJavaName()), frames(e),
                e.getStartTime().toEpochMilli());
    }

    private void threadEnd(RecordedEvent e, long id, String name) {
        sink.threadEnd(id, name, e.getStartTime().toEpochMilli());
    }

    private static List<Frame> frames(RecordedEvent e) {
        RecordedStackTrace s = e.getStackTrace();
        if (s == null) {
            return List.of();
        }
        List<RecordedFrame> frames = s.getFrames();
        List<Frame> out = new ArrayList<>(frames.size());
        for (RecordedFrame f : frames) {
            RecordedMethod m = f.getMethod();
            if (m == null || !f.isJavaFrame()) {
                continue;
            }
            out.add(new Frame(m.getType().getName(), m.getName(), f.getLineNumber(), "Native".equals(f.getType())));
        }
        return out;
    }
}
