package org.dyper.runtime.whatif;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread's what-if state: the delay it has paid, its nesting in the candidate, and where it last looked (time,
 * CPU time, global delay). Only the owning thread reads and writes it.
 *
 * <p><b>Crediting waiting threads.</b> Coz credits a thread that another thread woke up with the delay inserted while it
 * was blocked: the waker paid it already, and paying it again would count waiting twice. Dyper cannot see every
 * blocking call of a running JVM, so it approximates: at a delay point where the thread owes at least
 * {@link WhatIf#MIN_PARK_NS}, it compares the wall time since it last looked with its own CPU time over the same
 * stretch; the share of that stretch it spent off the CPU is the share of the delay accrued meanwhile it is credited
 * with. A thread blocked on a lock, a queue or a condition is credited, as in Coz; so is, unlike Coz, a thread that
 * slept on a timer or was preempted by the operating system (docs/whatif.md says what that does to a prediction).
 */
final class Slot {
    private static final ThreadLocal<Slot> SLOTS = ThreadLocal.withInitial(Slot::new);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean CPU_TIME = cpuTimeSupported();
    private static final StackWalker WALKER = StackWalker.getInstance();

    int epoch = Integer.MIN_VALUE;
    /** Delay paid (slept, credited, or added by this thread's own candidate calls), on the global delay's scale. */
    long paid;
    /** Calls of the candidate this thread is inside. */
    int depth;
    /** The start of this thread's latency unit on the virtual clock (a begin/end pair), 0: none. */
    long unitStart;
    private long lastTime;
    private long lastCpu;
    private long lastGlobal;

    static Slot current() {
        return SLOTS.get();
    }

    /** Starts experiment {@code e} on this thread, owing nothing. */
    void join(int e) {
        epoch = e;
        depth = 0;
        unitStart = 0;
        long g = WhatIf.GLOBAL.get();
        paid = g;
        look(g);
    }

    private void look(long global) {
        lastTime = System.nanoTime();
        lastCpu = cpuTime();
        lastGlobal = global;
    }

    /** A delay point: credits time off the CPU, then sleeps what is still owed; whether it slept. */
    boolean delayPoint() {
        long g = WhatIf.GLOBAL.get();
        long debt = g - paid;
        if (debt < WhatIf.MIN_PARK_NS) {
            return false;
        }
        long now = System.nanoTime();
        long cpu = cpuTime();
        long gap = now - lastTime;
        if (CPU_TIME && gap > 0) {
            long off = gap - (cpu - lastCpu);
            if (off > 0) {
                long credit = (long) ((double) (g - lastGlobal) * Math.min(off, gap) / gap);
                credit = Math.min(Math.max(credit, 0), debt);
                paid += credit;
                debt -= credit;
                WhatIf.CREDITED_NS.addAndGet(credit);
            }
        }
        lastTime = now;
        lastCpu = cpu;
        lastGlobal = g;
        if (debt < WhatIf.MIN_PARK_NS) {
            return false;
        }
        if (Thread.currentThread().isInterrupted()) {
            // park would return at once, every time; the program's interrupt is left as it is
            WhatIf.SKIPPED_INTERRUPTED.incrementAndGet();
            return false;
        }
        if (inClassInitialiser()) {
            WhatIf.SKIPPED_CLINIT.incrementAndGet();
            return false;
        }
        LockSupport.parkNanos(debt);
        long after = System.nanoTime();
        long slept = after - now;
        // an oversleep counts as paid: the thread is ahead and skips the next delay points until the others catch up
        paid += slept;
        WhatIf.PARKS.incrementAndGet();
        WhatIf.PARKED_NS.addAndGet(slept);
        // the sleep was payment, not waiting: the next look must not credit it
        lastTime = after;
        lastGlobal = WhatIf.GLOBAL.get();
        return true;
    }

    private static long cpuTime() {
        return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    private static boolean cpuTimeSupported() {
        try {
            return THREADS.isCurrentThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
        } catch (RuntimeException | Error e) {
            return false;
        }
    }

    /** Whether this thread runs a static initialiser now (a sleep there would hold every thread that needs the class). */
    private static boolean inClassInitialiser() {
        return WALKER.walk(s -> s.anyMatch(f -> f.getMethodName().equals("<clinit>")));
    }

    /** Whether crediting by CPU time works in this JVM. */
    static boolean crediting() {
        return CPU_TIME;
    }
}
