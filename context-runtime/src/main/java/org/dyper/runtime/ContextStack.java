package org.dyper.runtime;

/**
 * A per-thread stack that carries a patch's context from before advice to after advice where generated code does
 * not use around advice: constructor executions and field join points (around advice there can move code that
 * assigns a {@code final} field out of its constructor), monitor join points (around advice is refused there), and
 * everything under load-time weaving (where around advice is not inlined and would allocate a closure per call).
 * Generated before advice pushes only while monitoring is on, tagged with {@link Dyper#state()}; the after advice
 * (which runs on every exit, like {@code finally}) pops with the state it sees. An entry whose tag is not the current
 * state was pushed before monitoring was switched, and its after advice skips it, so such leftovers are dropped:
 * the stack stays balanced across switches. Allocation-free once a thread's stack has grown to its deepest nesting.
 */
public final class ContextStack {
    private static final ThreadLocal<ContextStack> CURRENT = ThreadLocal.withInitial(ContextStack::new);
    /** Stacks of recently active threads by the low bits of their ids, checked against {@link #owner}. */
    private static final ContextStack[] FAST = new ContextStack[1024];

    private final Thread owner = Thread.currentThread();

    private long[] longs = new long[64];
    private Object[] objects = new Object[32];
    private int depth;
    private int found = -1;

    private ContextStack() {}

    /** This thread's stack: one array read and a compare, the ThreadLocal only when the slot is another thread's. */
    private static ContextStack current() {
        Thread t = Thread.currentThread();
        int slot = (int) t.getId() & (FAST.length - 1);
        ContextStack s = FAST[slot];
        if (s == null || s.owner != t) {
            s = CURRENT.get();
            FAST[slot] = s;
        }
        return s;
    }

    /** Pushes a primitive context (narrower types widened, floating point as raw bits) pushed under {@code state}. */
    public static void pushLong(int state, long value) {
        current().push(state, value, null);
    }

    /** Pushes a reference context under {@code state}. */
    public static void pushObject(int state, Object value) {
        current().push(state, 0L, value);
    }

    /**
     * Pops this thread's entry pushed under {@code state}, first dropping leftovers of other states. The returned
     * object describes it through {@link #found()}, {@link #longValue()} and {@link #objectValue()} until the
     * thread's next push or pop.
     */
    public static ContextStack pop(int state) {
        ContextStack s = current();
        s.locate(state);
        if (s.found >= 0) {
            s.depth = s.found;
        }
        return s;
    }

    /** As {@link #pop(int)} without popping (for after returning advice, which runs before the after advice). */
    public static ContextStack peek(int state) {
        ContextStack s = current();
        s.locate(state);
        return s;
    }

    private void locate(int state) {
        while (depth > 0 && (int) longs[(depth - 1) * 2] != state) {
            objects[--depth] = null;
        }
        found = depth - 1;
    }

    private void push(int state, long value, Object object) {
        if (depth == objects.length) {
            longs = java.util.Arrays.copyOf(longs, longs.length * 2);
            objects = java.util.Arrays.copyOf(objects, objects.length * 2);
        }
        longs[depth * 2] = state;
        longs[depth * 2 + 1] = value;
        objects[depth] = object;
        depth++;
    }

    /** Whether the pop or peek found an entry of its state. */
    public boolean found() {
        return found >= 0;
    }

    /** The found primitive context. */
    public long longValue() {
        return found >= 0 ? longs[found * 2 + 1] : 0L;
    }

    /** The found reference context; once popped, the stack forgets it so it can be collected. */
    public Object objectValue() {
        if (found < 0) {
            return null;
        }
        Object o = objects[found];
        if (found >= depth) {
            objects[found] = null;
        }
        return o;
    }
}
