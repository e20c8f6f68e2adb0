package org.dyper.aspects.internal;

import org.dyper.runtime.Dyper;

/**
 * A per-thread stack of (site, id, start time) frames, so that timing a join point can be split
 * into before and after advice where around advice is impossible (constructor executions). After
 * advice pops the frame its before advice pushed; frames left behind by a before without its after
 * are dropped when an outer after finds its own frame below them.
 */
public final class TimingStack {
    private static final ThreadLocal<TimingStack> CURRENT = ThreadLocal.withInitial(TimingStack::new);

    private Object[] sites = new Object[16];
    private int[] ids = new int[16];
    private long[] starts = new long[16];
    private int depth;

    /** The id of the frame {@link #pop} found. */
    public int id;
    /** The start time of the frame {@link #pop} found. */
    public long start;

    private TimingStack() {
    }

    /** This thread's frames. */
    public static TimingStack current() {
        return CURRENT.get();
    }

    /**
     * What constructor after advice starts with: while Dyper is on, this thread's frames with the innermost frame of
     * {@code site} popped into {@link #id} and {@link #start}; null when Dyper is off or the thread has no frame of
     * {@code site}. Never throws: a failure goes to {@link Safe#failed} and gives null.
     */
    public static TimingStack popped(Object site) {
        try {
            if (Dyper.on()) {
                TimingStack frames = CURRENT.get();
                if (frames.pop(site)) {
                    return frames;
                }
            }
        } catch (Throwable t) {
            Safe.failed(StaticPartIds.NONE, t);
        }
        return null;
    }

    public void push(Object site, int id, long start) {
        if (depth == sites.length) {
            int size = depth * 2;
            sites = java.util.Arrays.copyOf(sites, size);
            ids = java.util.Arrays.copyOf(ids, size);
            starts = java.util.Arrays.copyOf(starts, size);
        }
        sites[depth] = site;
        ids[depth] = id;
        starts[depth] = start;
        depth++;
    }

    /**
     * Pops the innermost frame of {@code site} (and any frames above it) into {@link #id} and
     * {@link #start}.
     *
     * @return false, with nothing popped, when this thread has no frame of {@code site}
     */
    public boolean pop(Object site) {
        for (int d = depth - 1; d >= 0; d--) {
            if (sites[d] == site) {
                id = ids[d];
                start = starts[d];
                for (int i = d; i < depth; i++) {
                    sites[i] = null;
                }
                depth = d;
                return true;
            }
        }
        return false;
    }
}
