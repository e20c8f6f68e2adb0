package org.dyper.runtime.whatif;

import java.util.concurrent.locks.LockSupport;

/**
 * One thread's what-if state: the delay it has paid, its nesting in the candidate, and the global delay when it joined
 * the experiment. Only the owning thread reads and writes it.
 *
 * <p>A delay point pays what the thread owes by sleeping. Crediting a thread that was blocked (it is not made to pay
 * for the delay another thread paid on its behalf before waking it) happens where the block is seen, in
 * {@link WhatIf#woken}; docs/whatif.md gives the rule.
 */
final class Slot {
    private static final ThreadLocal<Slot> SLOTS = ThreadLocal.withInitial(Slot::new);
    private static final StackWalker WALKER = StackWalker.getInstance();

    int epoch = Integer.MIN_VALUE;
    /** Delay paid (slept, credited, or added by this thread's own candidate calls), on the global delay's scale. */
    long paid;
    /** The global delay when this thread joined the experiment: a block that began before counts from here. */
    long joinedAt;
    /** Calls of the candidate this thread is inside. */
    int depth;
    /** The start of this thread's latency unit on the virtual clock (a begin/end pair), 0: none. */
    long unitStart;

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
        joinedAt = g;
    }

    /** A delay point: sleeps what the thread owes, if at least {@link WhatIf#MIN_PARK_NS}; whether it slept. */
    boolean delayPoint() {
        long debt = WhatIf.GLOBAL.get() - paid;
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
        long now = System.nanoTime();
        LockSupport.parkNanos(debt);
        long slept = System.nanoTime() - now;
        // an oversleep counts as paid: the thread is ahead and skips the next delay points until the others catch up
        paid += slept;
        WhatIf.PARKS.incrementAndGet();
        WhatIf.PARKED_NS.addAndGet(slept);
        return true;
    }

    /** Whether this thread runs a static initialiser now (a sleep there would hold every thread that needs the class). */
    private static boolean inClassInitialiser() {
        return WALKER.walk(s -> s.anyMatch(f -> f.getMethodName().equals("<clinit>")));
    }
}
