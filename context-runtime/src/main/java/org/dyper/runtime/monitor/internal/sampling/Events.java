package org.dyper.runtime.monitor.internal.sampling;

import java.util.List;
import java.util.function.Supplier;

/**
 * Where a sampler hands what it saw: CPU samples, lock waits, allocation samples, GC pauses and thread starts and
 * ends, each with the thread and the frames (top first, as taken). Implementations never throw.
 */
interface Events {
    /**
     * Whether events are recorded now (MONITOR): the recorder hands them over up to a second late, and none taken
     * before MONITOR became false may arrive after it.
     */
    boolean recording();

    /** Whether the thread is one the monitor reports on: not one of its own, not ignored by USETHREAD. */
    boolean use(long threadId, String name);

    /** A CPU sample of a thread of the monitor's own (or of the recorder it started): what measuring costs. */
    void own(long threadId, String name, long ns);

    void cpu(long threadId, String name, List<Frame> topFirst, long ns);

    /**
     * A thread seen in native code at {@code epochNs} (the recorder's {@code jdk.NativeMethodSample}, one thread in
     * native code per period): CPU time only as far as its CPU clock moved then. The frames are read only then.
     */
    void nativeSample(long threadId, String name, Supplier<List<Frame>> topFirst, long epochNs);

    /**
     * The recorder's execution sample of a thread in Java code at {@code epochNs}, taken every {@code periodNs}: its
     * weight comes from the thread's CPU clock at the next {@link #flushed}.
     */
    void executionSample(long threadId, String name, List<Frame> topFirst, long epochNs, long periodNs);

    /** The recorder handed over a batch of events. */
    void flushed();

    /** A thread blocked {@code ns} on a lock of class {@code lockClass}. */
    void lock(long threadId, String name, List<Frame> topFirst, String lockClass, long ns);

    /** An allocation sample standing for {@code bytes} bytes of {@code type}. */
    void alloc(long threadId, String name, List<Frame> topFirst, String type, long bytes);

    /** A garbage collection: its collector, cause, the sum of its pauses and the longest one. */
    void gc(String collector, String cause, long pauseNs, long longestPauseNs, long startMillis);

    /** A thread started, where {@code topFirst} is the stack that started it (may be empty). */
    void threadStart(long threadId, String name, String parent, List<Frame> topFirst, long startMillis);

    void threadEnd(long threadId, String name, long endMillis);

    /** A sampler failed on one event; the rest goes on. */
    void failed(String where, Throwable t);
}
