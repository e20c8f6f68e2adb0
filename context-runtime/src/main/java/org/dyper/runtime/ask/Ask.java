package org.dyper.runtime.ask;

import org.dyper.runtime.Dyper;

/**
 * The hot path of questions ({@code dyper run --ask}, docs/questions.md): what the advice the question compiler
 * generates calls. Each call names its question by a constant index {@code q} and its site by the generator's
 * constant METHODID; {@code a}, {@code b}, {@code c} are the values the question needs there (arguments or the
 * return value, widened to long; 0 where unused), in the slots the compiler chose. {@code receiver} is the object
 * a question groups by, or, for a question about how calls end, the exception that ended one (null: a normal
 * return). A question's conditions, its grouping and its measure are read from the question table
 * ({@link Questions}), decided when it was compiled.
 *
 * <p>Nothing here allocates per event except where a new group is first seen (docs/questions.md, "Cost"); nothing
 * throws into the program: a failure is counted with {@link Dyper#hookFailed}.
 */
public final class Ask {
    private Ask() {
    }

    /**
     * One event that is measured where it happens (a count, an argument or a returned value): every condition is
     * tested, then it is recorded in its group.
     */
    public static void point(int q, int site, Object receiver, long a, long b, long c) {
        try {
            Question x = Questions.get(q);
            if (x != null && x.checked() && x.before(a, b, c) && x.after(a, b, c) && x.exitAllowed(receiver)) {
                x.record(site, receiver, a, b, c, x.value(a, b, c));
            }
        } catch (Throwable t) {
            Dyper.hookFailed(site, t);
        }
    }

    /**
     * The start of an interval (a call timed, a lock waited for, or an event whose conditions need data of its end):
     * the conditions whose data exists here are tested now. Returns 0 when they fail (the end is then skipped, its
     * advice testing the context), else the start time (never 0).
     */
    public static long begin(int q, int site, Object receiver, long a, long b, long c) {
        try {
            Question x = Questions.get(q);
            if (x == null || !x.checked() || !x.before(a, b, c)) {
                return 0;
            }
            long now = System.nanoTime();
            return now == 0 ? 1 : now;
        } catch (Throwable t) {
            Dyper.hookFailed(site, t);
            return 0;
        }
    }

    /**
     * The end of an interval begun with {@link #begin} ({@code start} its result, never 0 here): the remaining
     * conditions are tested, then the duration (or the value the question measures) is recorded.
     */
    public static void end(int q, long start, int site, Object receiver, long a, long b, long c) {
        long now = System.nanoTime();
        try {
            Question x = Questions.get(q);
            if (x != null && x.after(a, b, c) && x.exitAllowed(receiver)) {
                x.record(site, receiver, a, b, c, x.timed() ? Math.max(0, now - start) : x.value(a, b, c));
            }
        } catch (Throwable t) {
            Dyper.hookFailed(site, t);
        }
    }

    /**
     * A monitor taken ({@code SYNC_ENTER}) for a question about how long locks are held: the conditions are tested and
     * the time (or 0 when they fail) is pushed on this thread's stack of held monitors for question {@code q}, which
     * {@link #released} pops. Java's monitors are released in the reverse order they were taken, and every release
     * is seen (also when an exception leaves the block), so the stack pairs each release with its acquisition.
     */
    public static void acquired(int q, int site, Object receiver, long a, long b, long c) {
        try {
            Question x = Questions.get(q);
            if (x != null) {
                Held.push(q, x.checked() && x.before(a, b, c) ? Math.max(1, System.nanoTime()) : 0);
            }
        } catch (Throwable t) {
            Dyper.hookFailed(site, t);
        }
    }

    /**
     * A monitor about to be released ({@code SYNC_EXIT}): the time since its {@link #acquired} is recorded. A release
     * whose acquisition was not seen (the question came in while the monitor was held) records nothing.
     */
    public static void released(int q, int site, Object receiver, long a, long b, long c) {
        long now = System.nanoTime();
        try {
            long start = Held.pop(q);
            Question x = start == 0 ? null : Questions.get(q);
            if (x != null && x.after(a, b, c)) {
                x.record(site, receiver, a, b, c, Math.max(0, now - start));
            }
        } catch (Throwable t) {
            Dyper.hookFailed(site, t);
        }
    }

    /** Entry of a method some question asks about {@code during}: flag {@code f} goes up on this thread. */
    public static void enterDuring(int f) {
        try {
            During.enter(f);
        } catch (Throwable t) {
            Dyper.hookFailed(-1, t);
        }
    }

    /** Every exit (exceptional ones included) of that method: flag {@code f} goes down on this thread. */
    public static void exitDuring(int f) {
        try {
            During.exit(f);
        } catch (Throwable t) {
            Dyper.hookFailed(-1, t);
        }
    }
}
