package org.dyper.runtime.whatif;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.dyper.runtime.Dyper;

/**
 * Causal ("what-if") profiling by virtual speed-up, as Coz does (Curtsinger and Berger, SOSP 2015): the hooks that
 * run-time-patched code calls, and the experiment switch that {@code dyper whatif} turns through the monitor.
 *
 * <p>While an experiment runs with candidate {@code c} and speed-up {@code s} %: a thread that returns from {@code c}
 * adds {@code s/100} of the call's time to one global delay and counts it as paid by itself; every thread, at its next
 * delay point (the entry of a patched method), sleeps for the delay it owes (global minus what it has paid). The
 * candidate then runs s % faster relative to everything else. As in Coz, a thread pays what it owes before it may
 * wake another ({@link #release}, {@link #block}: a lock release, a signal, a hand-off), and leaves the delay it has
 * paid on the object it released; a thread that was blocked on an object is credited, when it goes on
 * ({@link #woken}), with the delay that accrued while it was blocked as far as a thread releasing that object had
 * paid it, and pays the rest. Progress points count completed calls.
 *
 * <p>With no experiment running every hook is one volatile read. The hooks never throw (a failure is counted by
 * {@link Dyper#hookFailed}), allocate nothing per event (a thread's first event allocates its {@link Slot}), take no
 * lock, and sleep only at a delay point, which is the entry of a patched method of the program: never in Dyper's own
 * code (which is never patched, so never holds one of Dyper's locks there) and never while the thread runs a class
 * initialiser (checked before each sleep).
 */
public final class WhatIf {
    /** No candidate selected. */
    public static final int NONE = -1;
    /** Progress points are counted for site ids below this; higher ids are counted in {@link #PROGRESS_LOST}. */
    public static final int MAX_PROGRESS_ID = 1 << 16;
    /** A thread sleeps only when it owes at least this much (a shorter park would mostly be timer slack). */
    static final long MIN_PARK_NS = 100_000;

    /** Whether an experiment runs (speed-up 0 included): delay points and candidates do nothing otherwise. */
    private static volatile boolean running;
    /** The site id of the selected candidate, or {@link #NONE}. */
    private static volatile int selected = NONE;
    /** The virtual speed-up in per-mille of the candidate's time. */
    private static volatile int permille;
    /** The experiment's number: a thread that sees a new one starts afresh (owing nothing). */
    private static volatile int epoch;

    /** The delay every thread owes since the first experiment, in nanoseconds (never decreases). */
    static final AtomicLong GLOBAL = new AtomicLong();
    static final AtomicLongArray PROGRESS = new AtomicLongArray(MAX_PROGRESS_ID);
    static final AtomicLong PROGRESS_LOST = new AtomicLong();
    /** Sleeps taken at delay points, their total time, and the delay credited to threads that were off the CPU. */
    static final AtomicLong PARKS = new AtomicLong();
    static final AtomicLong PARKED_NS = new AtomicLong();
    static final AtomicLong CREDITED_NS = new AtomicLong();
    /** Sleeps skipped because the thread was in a class initialiser, or interrupted. */
    static final AtomicLong SKIPPED_CLINIT = new AtomicLong();
    static final AtomicLong SKIPPED_INTERRUPTED = new AtomicLong();
    /** Delay added by candidates (the sum over experiments; {@link #GLOBAL} is the same figure). */
    static final AtomicLong CANDIDATE_CALLS = new AtomicLong();
    /** Latency progress points: the units' durations on the virtual clock (ns), and how many, by site id. */
    static final AtomicLongArray LATENCY_NS = new AtomicLongArray(MAX_PROGRESS_ID);
    static final AtomicLongArray LATENCY_COUNT = new AtomicLongArray(MAX_PROGRESS_ID);
    /** Sleeps taken at loop heads (a subset of {@link #PARKS}). */
    static final AtomicLong LOOP_PARKS = new AtomicLong();
    /** Buckets of {@link #RELEASED} (a power of two); objects share a bucket by their identity hash. */
    static final int RELEASE_BUCKETS = 1 << 10;
    /**
     * Per bucket of released objects (locks, monitors, queues, conditions, ...), the most delay a thread had paid when
     * it released or handed over through one of them (on the global delay's scale, so it never needs resetting).
     */
    static final AtomicLongArray RELEASED = new AtomicLongArray(RELEASE_BUCKETS);
    /** Blocks seen (a thread went on after a blocking call or a monitor entry) during experiments. */
    static final AtomicLong WAKEUPS = new AtomicLong();
    /** The origin of the flow's virtual times below (the sums stay small; their differences are what counts). */
    static final long BASE = System.nanoTime();
    /**
     * The flow through a latency pair, for Little's law when begin and end happen on different threads: the begins
     * (arrivals) and ends (departures) and the sums of their times on the virtual clock (less {@link #BASE}), the
     * units in flight and their minimum since the last experiment started; counted between experiments too, so that
     * the number in flight stays exact. {@link #WRITERS}: hooks updating them now (for a consistent {@link #flow}).
     */
    static final AtomicLong ARRIVALS = new AtomicLong();
    static final AtomicLong ARRIVAL_NS = new AtomicLong();
    static final AtomicLong DEPARTURES = new AtomicLong();
    static final AtomicLong DEPARTURE_NS = new AtomicLong();
    static final AtomicLong IN_FLIGHT = new AtomicLong();
    static final AtomicLong MIN_IN_FLIGHT = new AtomicLong();
    private static final AtomicLong WRITERS = new AtomicLong();

    private WhatIf() {
    }

    /**
     * The ENTER hook of every patched method (WHATIF_ENTER): a delay point, and the start of the candidate's time when
     * {@code id} is the selected candidate. Returns the context for {@link #exit}: 0 (not timed), 1 (a nested call
     * of the candidate) or the start time. Never throws.
     */
    public static long enter(int id) {
        if (!running) {
            return 0;
        }
        try {
            Slot t = joined();
            t.delayPoint();
            if (id == selected) {
                return t.depth++ == 0 ? Math.max(2, System.nanoTime()) : 1;
            }
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
        return 0;
    }

    /** This thread's slot, in the current experiment (a thread joins a new one owing nothing). */
    private static Slot joined() {
        Slot t = Slot.current();
        int e = epoch;
        if (t.epoch != e) {
            t.join(e);
        }
        return t;
    }

    /** The EXIT hook (WHATIF_EXIT): ends the candidate's time begun by {@link #enter}. Never throws. */
    public static void exit(int id, long context) {
        if (context == 0) {
            return;
        }
        try {
            Slot t = Slot.current();
            if (t.epoch != epoch || t.depth == 0) {
                return; // the experiment changed during the call: its time belongs to none
            }
            t.depth--;
            if (context != 1) {
                long elapsed = System.nanoTime() - context;
                if (elapsed > 0) {
                    long delay = elapsed * permille / 1000;
                    GLOBAL.addAndGet(delay);
                    t.paid += delay;
                    CANDIDATE_CALLS.incrementAndGet();
                }
            }
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /**
     * A release (WHATIF_RELEASE at a call that may wake another thread, WHATIF_RELEASE_MONITOR at a lock release): a
     * delay point, then the delay this thread has paid is left on {@code object}, the lock or queue it releases or
     * signals through, for the thread it wakes ({@link #woken}). Never throws.
     */
    public static void release(int id, Object object) {
        blockOn(id, object, true);
    }

    /**
     * Before a call that may block (WHATIF_BLOCK: a {@code take}, {@code await}, {@code lock}, ...): a release too
     * (many of these calls also wake a thread: a {@code put} a taker, a {@code take} a putter, a barrier's last
     * {@code await} the others), then the global delay as the block's start. Returns the context for {@link #woken}
     * (0: no experiment runs). Never throws.
     */
    public static long block(int id, Object object) {
        return blockOn(id, object, true);
    }

    /**
     * Before a monitor entry (WHATIF_BLOCK_MONITOR, SYNC_TEST): as {@link #block}, but not a release: asking for a
     * monitor wakes nobody, and leaving this thread's paid delay on the monitor would credit the thread already waiting
     * for it with this thread's own delay. Never throws.
     */
    public static long request(int id, Object monitor) {
        return blockOn(id, monitor, false);
    }

    private static long blockOn(int id, Object object, boolean releases) {
        if (!running) {
            return 0;
        }
        try {
            Slot t = joined();
            t.delayPoint();
            long g = GLOBAL.get();
            if (releases) {
                released(object, Math.min(t.paid, g));
            }
            return g + 1;
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
            return 0;
        }
    }

    /**
     * After the call that may have blocked (WHATIF_WOKEN) or once the monitor is held (WHATIF_WOKEN_MONITOR,
     * SYNC_ENTER): Coz's rule. The thread is credited with the delay that accrued since {@link #block} (or since it
     * joined the experiment, if later) up to what a thread releasing {@code object} had paid: that thread paid it
     * before waking this one, so this one's wait already holds it up by as much. What no releaser had paid (a timer
     * ran out, nobody released, or the waker released where Dyper does not see it) is still owed and paid at the next
     * delay point. Never throws.
     */
    public static void woken(int id, Object object, long context) {
        try {
            Slot t = Slot.current();
            if (!running || t.epoch != epoch) {
                return; // a thread that joins a new experiment owes nothing anyway
            }
            long g = GLOBAL.get();
            long from = Math.max(context - 1, t.joinedAt);
            long upTo = Math.min(g, RELEASED.get(bucket(object)));
            long credit = Math.min(upTo - from, g - t.paid);
            WAKEUPS.incrementAndGet();
            if (credit > 0) {
                t.paid += credit;
                CREDITED_NS.addAndGet(credit);
            }
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /** Leaves {@code paid} (what the releasing thread has paid of the global delay so far) on {@code object}. */
    private static void released(Object object, long paid) {
        int b = bucket(object);
        long seen;
        while ((seen = RELEASED.get(b)) < paid && !RELEASED.compareAndSet(b, seen, paid)) {
            // another thread raised it meanwhile: look again
        }
    }

    /** The bucket of {@code object} (null, a static call's target: bucket 0). */
    static int bucket(Object object) {
        return System.identityHashCode(object) & (RELEASE_BUCKETS - 1);
    }

    /** The progress hook (WHATIF_PROGRESS, at EXIT): one more completed unit of work at {@code id}. Never throws. */
    public static void progress(int id) {
        try {
            if (id >= 0 && id < MAX_PROGRESS_ID) {
                PROGRESS.incrementAndGet(id);
            } else {
                PROGRESS_LOST.incrementAndGet();
            }
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /**
     * The latency hook at the ENTER of a latency point (WHATIF_BEGIN): a delay point (what the thread owes from before
     * is paid before the unit starts), then the unit's start on the virtual clock, which is {@code System.nanoTime()}
     * less the global delay. Returns the context for {@link #end} (0: not measured, no experiment runs). Never throws.
     */
    public static long begin(int id) {
        if (!running) {
            return 0;
        }
        try {
            joined().delayPoint();
            long v = virtualNow();
            return v == 0 ? 1 : v;
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
            return 0;
        }
    }

    /**
     * The latency hook at the EXIT of a latency point (WHATIF_END): one unit whose duration is the virtual time since
     * {@link #begin}, i.e. its wall time less the delay inserted meanwhile (every thread was held up by that much).
     * Never throws.
     */
    public static void end(int id, long context) {
        if (context == 0) {
            return;
        }
        try {
            latency(id, virtualNow() - context);
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /**
     * The begin of a latency pair (WHATIF_PAIR_BEGIN, at the ENTER of the begin method): as {@link #begin}, the start
     * kept in the thread's state until {@link #pairEnd} on the same thread (a second begin restarts it). Never throws.
     */
    public static void pairBegin(int id) {
        try {
            if (running) {
                Slot t = joined();
                t.delayPoint();
                long v = virtualNow();
                t.unitStart = v == 0 ? 1 : v;
            }
            arrival();
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /** The end of a latency pair (WHATIF_PAIR_END, at the EXIT of the end method), counted at {@code id}. */
    public static void pairEnd(int id) {
        try {
            departure();
            if (!running) {
                return;
            }
            Slot t = Slot.current();
            long start = t.unitStart;
            if (start != 0) {
                t.unitStart = 0;
                latency(id, virtualNow() - start);
            }
        } catch (Throwable x) {
            Dyper.hookFailed(id, x);
        }
    }

    /** One unit begins (its begin on any thread), for Little's law. */
    private static void arrival() {
        WRITERS.incrementAndGet();
        ARRIVAL_NS.addAndGet(virtualNow() - BASE);
        ARRIVALS.incrementAndGet();
        IN_FLIGHT.incrementAndGet();
        WRITERS.decrementAndGet();
    }

    /** One unit ends (on any thread), for Little's law. */
    private static void departure() {
        WRITERS.incrementAndGet();
        DEPARTURE_NS.addAndGet(virtualNow() - BASE);
        DEPARTURES.incrementAndGet();
        long n = IN_FLIGHT.decrementAndGet();
        WRITERS.decrementAndGet();
        long min;
        while (n < (min = MIN_IN_FLIGHT.get()) && !MIN_IN_FLIGHT.compareAndSet(min, n)) {
            // another end lowered it meanwhile: look again
        }
    }

    /**
     * The flow through the latency pair now, consistent (no hook half-way through its update): arrivals, their summed
     * virtual times, departures, theirs, units in flight, the minimum in flight since the last {@link #start}, and the
     * virtual time now (times less {@link #BASE}). For the monitor's WHATIF reply.
     */
    static long[] flow() {
        for (int tries = 0;; tries++) {
            long busy = WRITERS.get();
            long a = ARRIVALS.get();
            long an = ARRIVAL_NS.get();
            long d = DEPARTURES.get();
            long dn = DEPARTURE_NS.get();
            long n = IN_FLIGHT.get();
            long min = MIN_IN_FLIGHT.get();
            long v = virtualNow() - BASE;
            // a hook that updated meanwhile changed a count, or was still busy at one of the two looks
            if (busy == 0 && WRITERS.get() == 0 && a == ARRIVALS.get() && d == DEPARTURES.get() || tries >= 10_000) {
                return new long[] {a, an, d, dn, n, Math.min(min, n), v};
            }
            Thread.onSpinWait();
        }
    }

    private static long virtualNow() {
        return System.nanoTime() - GLOBAL.get();
    }

    private static void latency(int id, long nanos) {
        if (id >= 0 && id < MAX_PROGRESS_ID) {
            LATENCY_NS.addAndGet(id, Math.max(nanos, 0));
            LATENCY_COUNT.incrementAndGet(id);
        } else {
            PROGRESS_LOST.incrementAndGet();
        }
    }

    /**
     * A loop head (inserted by {@code dyper whatif} with ASM at the back-edges of the delay-point methods): a delay
     * point for a thread that runs one long loop and enters no method. Without an experiment one volatile read; during
     * one, the global delay against the thread's own paid delay, no allocation. Never throws.
     */
    public static void loop() {
        if (!running) {
            return;
        }
        try {
            Slot t = Slot.current();
            if (t.epoch == epoch && GLOBAL.get() - t.paid < MIN_PARK_NS) {
                return;
            }
            if (t.epoch != epoch) {
                t.join(epoch);
            }
            if (t.delayPoint()) {
                LOOP_PARKS.incrementAndGet();
            }
        } catch (Throwable x) {
            Dyper.hookFailed(NONE, x);
        }
    }

    /** Units measured at latency point {@code id} so far, and their summed virtual duration in ns. */
    public static long latencyCount(int id) {
        return id >= 0 && id < MAX_PROGRESS_ID ? LATENCY_COUNT.get(id) : 0;
    }

    public static long latencyNanos(int id) {
        return id >= 0 && id < MAX_PROGRESS_ID ? LATENCY_NS.get(id) : 0;
    }

    /** Completed calls counted at progress point {@code id} so far. */
    public static long progressCount(int id) {
        return id >= 0 && id < MAX_PROGRESS_ID ? PROGRESS.get(id) : 0;
    }

    /** The global delay so far, in nanoseconds. */
    public static long globalDelay() {
        return GLOBAL.get();
    }

    /**
     * Starts an experiment: {@code candidate} (a site id, or {@link #NONE}) runs {@code speedupPercent} % faster,
     * virtually, from now on. Threads start it owing nothing.
     */
    public static synchronized void start(int candidate, int speedupPercent) {
        if (speedupPercent < 0 || speedupPercent > 100) {
            throw new IllegalArgumentException("a speed-up is 0 to 100 %, not " + speedupPercent);
        }
        running = false;
        selected = candidate;
        permille = speedupPercent * 10;
        epoch = epoch + 1;
        MIN_IN_FLIGHT.set(IN_FLIGHT.get());
        running = true;
    }

    /** Ends any experiment: the hooks do nothing again (a thread asleep at a delay point finishes its sleep). */
    public static synchronized void stop() {
        running = false;
        selected = NONE;
        permille = 0;
        epoch = epoch + 1;
    }

    /** Whether an experiment runs now. */
    public static boolean running() {
        return running;
    }

    /** The selected candidate's site id, or {@link #NONE}. */
    public static int selected() {
        return selected;
    }

    /** The speed-up of the running experiment in per-mille. */
    public static int permille() {
        return permille;
    }

    /** The experiment's number (every start and stop counts). */
    public static int epoch() {
        return epoch;
    }
}
