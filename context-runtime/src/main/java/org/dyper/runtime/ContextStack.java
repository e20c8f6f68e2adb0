package org.dyper.runtime;

/**
 * A per-thread stack that carries a patch's context from before advice to after advice where generated code
 * cannot use around advice: constructor executions (around advice on a constructor that assigns a {@code final}
 * field fails verification on Java 9+ class files). Generated before advice pushes, the matching after advice
 * (which runs on every exit, like {@code finally}) pops, so the stack stays balanced. Allocation-free once a
 * thread's stack has grown to its deepest nesting.
 */
public final class ContextStack {
    private static final ThreadLocal<ContextStack> CURRENT = ThreadLocal.withInitial(ContextStack::new);

    private long[] longs = new long[64];
    private Object[] objects = new Object[32];
    private int depth;

    private ContextStack() {}

    /** Pushes a primitive context (narrower types widened, floating point as raw bits) and the monitoring flag. */
    public static void pushLong(boolean on, long value) {
        CURRENT.get().push(on, value, null);
    }

    /** Pushes a reference context and the monitoring flag. */
    public static void pushObject(boolean on, Object value) {
        CURRENT.get().push(on, 0L, value);
    }

    /**
     * Pops this thread's top entry. The returned object describes that entry through {@link #on()},
     * {@link #longValue()} and {@link #objectValue()} until the thread's next push or pop; popping an empty stack
     * gives an entry whose {@link #on()} is false.
     */
    public static ContextStack pop() {
        ContextStack s = CURRENT.get();
        if (s.depth > 0) {
            s.depth--;
            s.popped = s.depth;
        } else {
            s.popped = -1;
        }
        return s;
    }

    /**
     * This thread's top entry without popping it, described like {@link #pop()}'s result (for after returning
     * advice that runs before the after advice that pops).
     */
    public static ContextStack peek() {
        ContextStack s = CURRENT.get();
        s.popped = s.depth - 1;
        return s;
    }

    private int popped = -1;

    private void push(boolean on, long value, Object object) {
        if (depth == objects.length) {
            longs = java.util.Arrays.copyOf(longs, longs.length * 2);
            objects = java.util.Arrays.copyOf(objects, objects.length * 2);
        }
        longs[depth * 2] = on ? 1 : 0;
        longs[depth * 2 + 1] = value;
        objects[depth] = object;
        depth++;
    }

    /** Whether monitoring was on when the popped entry was pushed (false when nothing was popped). */
    public boolean on() {
        return popped >= 0 && longs[popped * 2] != 0;
    }

    /** The popped primitive context. */
    public long longValue() {
        return popped >= 0 ? longs[popped * 2 + 1] : 0L;
    }

    /** The popped (or peeked) reference context; once popped, the stack forgets it so it can be collected. */
    public Object objectValue() {
        if (popped < 0) {
            return null;
        }
        Object o = objects[popped];
        if (popped >= depth) {
            objects[popped] = null;
        }
        return o;
    }
}
