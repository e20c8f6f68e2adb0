package org.dyper.benchmarks.jmh;

import java.util.concurrent.TimeUnit;
import org.dyper.runtime.Allocations;
import org.dyper.runtime.Counting;
import org.dyper.runtime.Dyper;
import org.dyper.runtime.Locks;
import org.dyper.runtime.SampledTiming;
import org.dyper.runtime.Sites;
import org.dyper.runtime.Timing;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The runtime's reporting calls as generated advice makes them, with constant ids. Run single-threaded and on 2
 * threads ({@code -t 2}): the threads share the site ids and, for the lock calls, the lock object (so the holder
 * table's slot is written by both), which is the contended case. {@code -prof gc} gives bytes per operation.
 * {@link #nanoTime} is the clock floor every timing figure is compared with.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Ddyper.report=none"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ReportingCalls {
    static final int SITE = 1;
    static final int TYPE = 2;

    private final Object lock = new Object();

    @Setup
    public void define() {
        Sites.define("1\tMETHOD\torg.dyper.benchmarks.X\tm\tint\n2\tCLASS\torg.dyper.benchmarks.Y\n");
        Dyper.setEnabled(true);
    }

    /** One {@code System.nanoTime()}: the clock every exact timing pays twice. */
    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    /** The guard generated advice tests first. */
    @Benchmark
    public boolean guard() {
        return Dyper.on();
    }

    @Benchmark
    public void count() {
        Counting.count(SITE);
    }

    /** COUNT as generated advice runs it: the guard, then the call. */
    @Benchmark
    public void guardedCount() {
        if (Dyper.on()) {
            Counting.count(SITE);
        }
    }

    /**
     * The JVM once a hook of the user's own has run (JMH runs each benchmark in a JVM of its own): the guard then also
     * asks whether this thread is inside such a hook.
     */
    @State(Scope.Benchmark)
    public static class UserHooks {
        @Setup
        public void aUserHookRan() {
            Dyper.enterHook();
            Dyper.exitHook();
        }
    }

    /** {@link #guardedCount} once a hook of the user's own has run in the JVM. */
    @Benchmark
    public void guardedCountWithUserHooks(UserHooks hooks) {
        if (Dyper.on()) {
            Counting.count(SITE);
        }
    }

    /** What generated code adds around a mode of the user's own (here an empty one): enterHook and exitHook. */
    @Benchmark
    public void userHookBrackets(UserHooks hooks) {
        if (Dyper.on()) {
            try {
                Dyper.enterHook();
            } catch (Throwable t) {
                Dyper.hookFailed(SITE, t);
            } finally {
                Dyper.exitHook();
            }
        }
    }

    /** TIME_ENTER + TIME_EXIT: two clock reads, count, total, min, max, histogram. */
    @Benchmark
    public void timing() {
        Timing.exit(SITE, Timing.enter(SITE));
    }

    /** SAMPLE_ENTER + SAMPLE_EXIT as generated (exit only when enter returned a start time), N = 64. */
    @Benchmark
    public void sampledTiming() {
        long start = SampledTiming.enter(SITE);
        if (start != 0L) {
            SampledTiming.exit(SITE, start);
        }
    }

    @Benchmark
    public void allocationObject() {
        Allocations.object(SITE, TYPE);
    }

    /**
     * Questions (docs/questions.md) as their generated advice calls {@code org.dyper.runtime.ask.Ask}: question 0 is
     * {@code count of M by caller}, 1 {@code time of M by caller}, 2 {@code time of M by thread}, 3 {@code count of M
     * where arg1 > 1000} (the argument passed is 5000: it passes), 4 {@code count of M by arg1} over 8 values, 5
     * {@code count of M by caller last 60 seconds} (a window), 6 {@code count of M by exception} (a normal exit).
     */
    @State(Scope.Benchmark)
    public static class AskTable {
        @Setup
        public void define() {
            org.dyper.runtime.ask.Questions.define(
                    "id=0\tmeasure=COUNT\tstat=COUNT\tgroup=SITE\tgroupTitle=caller\ttext=count of M by caller\n"
                    + "id=1\tmeasure=TIME\tstat=TOTAL\tgroup=SITE\tgroupTitle=caller\ttext=time of M by caller\n"
                    + "id=2\tmeasure=TIME\tstat=TOTAL\tgroup=THREAD\tgroupTitle=thread\ttext=time of M by thread\n"
                    + "id=3\tmeasure=COUNT\tstat=COUNT\tbefore=0:GT:1000\ttext=count of M where arg1 > 1000\n"
                    + "id=4\tmeasure=COUNT\tstat=COUNT\tgroup=SLOT\tgroupSlot=0\tgroupTitle=arg1\t"
                    + "text=count of M by arg1\n"
                    + "id=5\tmeasure=COUNT\tstat=COUNT\tgroup=SITE\tgroupTitle=caller\twindow=60\t"
                    + "text=count of M by caller last 60 seconds\n"
                    + "id=6\tmeasure=COUNT\tstat=COUNT\tgroup=EXCEPTION\tgroupTitle=exception\t"
                    + "text=count of M by exception\n");
        }
    }

    /** {@code count of M by caller}: the guard, then Ask.point (the hand-written equivalent is guardedCount). */
    @Benchmark
    public void askCountByCaller(AskTable t) {
        if (Dyper.on()) {
            org.dyper.runtime.ask.Ask.point(0, SITE, null, 0, 0, 0);
        }
    }

    /** {@code time of M by caller} at a call site: begin, end when begin returned a start (against timing). */
    @Benchmark
    public void askTimeByCaller(AskTable t) {
        if (Dyper.on()) {
            long start = org.dyper.runtime.ask.Ask.begin(1, SITE, null, 0, 0, 0);
            if (start != 0L) {
                org.dyper.runtime.ask.Ask.end(1, start, SITE, null, 0, 0, 0);
            }
        }
    }

    /** {@code time of M by thread}: as askTimeByCaller, grouped by the current thread. */
    @Benchmark
    public void askTimeByThread(AskTable t) {
        if (Dyper.on()) {
            long start = org.dyper.runtime.ask.Ask.begin(2, SITE, null, 0, 0, 0);
            if (start != 0L) {
                org.dyper.runtime.ask.Ask.end(2, start, SITE, null, 0, 0, 0);
            }
        }
    }

    /** {@code count of M where arg1 > 1000}, the condition passing. */
    @Benchmark
    public void askCountWhereArg(AskTable t) {
        if (Dyper.on()) {
            org.dyper.runtime.ask.Ask.point(3, SITE, null, 5000, 0, 0);
        }
    }

    /** Each thread's own run of argument values. */
    @State(Scope.Thread)
    public static class Arguments {
        long next;
    }

    /** {@code count of M by arg1} over 8 distinct values: a hash probe per event. */
    @Benchmark
    public void askCountByArg(AskTable t, Arguments a) {
        if (Dyper.on()) {
            org.dyper.runtime.ask.Ask.point(4, SITE, null, a.next++ & 7, 0, 0);
        }
    }

    /** {@code count of M by caller last 60 seconds}: as askCountByCaller, plus the clock and the slot of a window. */
    @Benchmark
    public void askCountByCallerWindow(AskTable t) {
        if (Dyper.on()) {
            org.dyper.runtime.ask.Ask.point(5, SITE, null, 0, 0, 0);
        }
    }

    /** {@code count of M by exception}, each call returning normally (the exception passed is null). */
    @Benchmark
    public void askCountByException(AskTable t) {
        if (Dyper.on()) {
            org.dyper.runtime.ask.Ask.point(6, SITE, null, 0, 0, 0);
        }
    }

    /** SYNC_TEST, SYNC_ENTER and SYNC_EXIT of one (uncontended) acquisition; the monitor itself is not taken. */
    @Benchmark
    public void lockCycle() {
        long t = Locks.request(SITE, lock);
        Locks.acquired(SITE, lock, t);
        Locks.released(SITE, lock);
    }
}
