package org.dyper.runtime.internal;

/**
 * Per thread, how many hooks of the user's own modes are running (Dyper's own code is never measured, and a mode is
 * part of it while it runs): while one is, patched code that the hook reaches is not measured. Found like
 * {@code ContextStack}: one array read and a compare on the hot path, the ThreadLocal only when the slot holds
 * another thread's.
 */
public final class Reentry {
    private static final ThreadLocal<Reentry> CURRENT = ThreadLocal.withInitial(Reentry::new);
    /** The depths of recently active threads by the low bits of their ids, checked against {@link #owner}. */
    private static final Reentry[] FAST = new Reentry[1024];

    private final Thread owner = Thread.currentThread();
    private int depth;

    private Reentry() {
    }

    @SuppressWarnings("deprecation")
    private static Reentry current() {
        Thread t = Thread.currentThread();
        int slot = (int) t.getId() & (FAST.length - 1);
        Reentry r = FAST[slot];
        if (r == null || r.owner != t) {
            r = CURRENT.get();
            FAST[slot] = r;
        }
        return r;
    }

    /** Whether this thread is inside a hook of the user's own. */
    public static boolean inside() {
        return current().depth > 0;
    }

    public static void enter() {
        current().depth++;
    }

    /** Leaves a hook; never below zero (an {@link #enter} that failed did not count). */
    public static void exit() {
        Reentry r = current();
        if (r.depth > 0) {
            r.depth--;
        }
    }
}
