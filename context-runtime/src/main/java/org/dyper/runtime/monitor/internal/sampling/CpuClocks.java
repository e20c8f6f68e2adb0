package org.dyper.runtime.monitor.internal.sampling;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The threads' CPU clocks of the last few seconds, as the monitor read them (every DUMPTIME ms), and how many threads
 * were in native code then: what the flight recorder's native method samples are weighed with. The recorder hands its
 * events over about a second late, so a sample taken at time t is weighed with the CPU rate of its thread around t,
 * not now. Times are epoch nanoseconds, as the recorder's events carry them. Thread-safe.
 */
final class CpuClocks {
    /** Readings kept per thread: 64 at the default DUMPTIME of 100 ms are 6.4 s. */
    static final int KEPT = 64;

    /** A thread's readings, a ring: times and CPU clocks. */
    private static final class Ring {
        final long[] at = new long[KEPT];
        final long[] cpu = new long[KEPT];
        int size;
        int next;

        void add(long t, long c) {
            at[next] = t;
            cpu[next] = c;
            next = (next + 1) % KEPT;
            size = Math.min(size + 1, KEPT);
        }

        long at(int k) {
            return at[(next - size + k + KEPT) % KEPT];
        }

        long cpu(int k) {
            return cpu[(next - size + k + KEPT) % KEPT];
        }
    }

    private final Map<Long, Ring> threads = new HashMap<>();
    private final Ring natives = new Ring();

    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    synchronized void add(long threadId, long epochNs, long cpuNs) {
        threads.computeIfAbsent(threadId, k -> new Ring()).add(epochNs, cpuNs);
    }

    /** How many threads were in native code at {@code epochNs} (the threads' count is kept like a clock). */
    synchronized void natives(long epochNs, int count) {
        natives.add(epochNs, count);
    }

    synchronized void retain(Set<Long> present) {
        threads.keySet().retainAll(present);
    }

    synchronized void clear() {
        threads.clear();
        natives.size = 0;
    }

    /**
     * The share of one CPU the thread used around {@code epochNs} (0 to 1): its CPU clock's advance between the two
     * readings around that time (the last two when it is later than all, the first two when earlier); -1 when fewer
     * than two readings are known.
     */
    synchronized double rate(long threadId, long epochNs) {
        Ring r = threads.get(threadId);
        if (r == null || r.size < 2) {
            return -1;
        }
        int k = 1;
        while (k < r.size - 1 && r.at(k) < epochNs) {
            k++;
        }
        long wall = r.at(k) - r.at(k - 1);
        if (wall <= 0) {
            return -1;
        }
        return Math.max(0, Math.min(1, (double) (r.cpu(k) - r.cpu(k - 1)) / wall));
    }

    /** How many threads were in native code at the reading nearest after {@code epochNs} (at least 1). */
    synchronized int nativeThreads(long epochNs) {
        if (natives.size == 0) {
            return 1;
        }
        int k = 0;
        while (k < natives.size - 1 && natives.at(k) < epochNs) {
            k++;
        }
        return (int) Math.max(1, natives.cpu(k));
    }
}
