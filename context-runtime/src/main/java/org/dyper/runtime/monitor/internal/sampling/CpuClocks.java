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
    private static final int MAX_GONE = 4096;

    /**
     * A thread's readings, a ring: times, CPU clocks, and the recorder's execution samples of the thread in the time
     * up to each reading (from the previous one); {@code pending}: those after the last reading.
     */
    private static final class Ring {
        final long[] at = new long[KEPT];
        final long[] cpu = new long[KEPT];
        final long[] java = new long[KEPT];
        long pending;
        int size;
        int next;

        void add(long t, long c) {
            at[next] = t;
            cpu[next] = c;
            java[next] = pending;
            pending = 0;
            next = (next + 1) % KEPT;
            size = Math.min(size + 1, KEPT);
        }

        /** The reading that ends the window holding {@code t}: 1 to size - 1; size when t is after all. */
        int window(long t) {
            int k = 1;
            while (k < size && at(k) < t) {
                k++;
            }
            return k;
        }

        int slot(int k) {
            return (next - size + k + KEPT) % KEPT;
        }

        long at(int k) {
            return at[(next - size + k + KEPT) % KEPT];
        }

        long cpu(int k) {
            return cpu[(next - size + k + KEPT) % KEPT];
        }
    }

    private final Map<Long, Ring> threads = new HashMap<>();
    /** Threads gone since {@link #takeGone}: their CPU clock at their last reading. */
    private final Map<Long, Long> gone = new HashMap<>();
    private final Ring natives = new Ring();
    private final Ring javas = new Ring();

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

    /** How many threads were in Java code (RUNNABLE, not in native code) at {@code epochNs}. */
    synchronized void javas(long epochNs, int count) {
        javas.add(epochNs, count);
    }

    /** The recorder took an execution sample (the thread in Java code) at {@code epochNs}. */
    synchronized void javaSample(long threadId, long epochNs) {
        Ring r = threads.get(threadId);
        if (r == null) {
            return;
        }
        int k = r.window(epochNs);
        if (k >= r.size) {
            r.pending++;
        } else {
            r.java[r.slot(k)]++;
        }
    }

    /**
     * The share of one CPU the thread used in native code around {@code epochNs} (0 to 1): its CPU clock's advance in
     * the window between the readings around that time, less the CPU time its execution samples there stand for
     * ({@code javaNs} each, at most the advance); -1 when the window is not known yet (fewer than two readings, or
     * the moment is after the last reading).
     */
    synchronized double nativeRate(long threadId, long epochNs, long javaNs) {
        Ring r = threads.get(threadId);
        if (r == null || r.size < 2) {
            return -1;
        }
        int k = Math.max(1, r.window(epochNs));
        if (k >= r.size) {
            return -1;
        }
        long wall = r.at(k) - r.at(k - 1);
        if (wall <= 0) {
            return -1;
        }
        long cpu = r.cpu(k) - r.cpu(k - 1);
        long java = Math.min(cpu, r.java[r.slot(k)] * javaNs);
        return Math.max(0, Math.min(1, (double) (cpu - java) / wall));
    }

    /** Per thread with at least two readings: its CPU clock at the latest one. */
    synchronized Map<Long, Long> latest() {
        Map<Long, Long> out = new HashMap<>();
        for (Map.Entry<Long, Ring> e : threads.entrySet()) {
            Ring r = e.getValue();
            if (r.size >= 2) {
                out.put(e.getKey(), r.cpu(r.size - 1));
            }
        }
        return out;
    }

    /**
     * How long the thread's CPU clock has stood still up to its latest reading (ns between the first reading with that
     * value and the latest); 0 when it moved at the latest one or fewer than two readings are kept.
     */
    synchronized long stillNs(long threadId) {
        Ring r = threads.get(threadId);
        if (r == null || r.size < 2) {
            return 0;
        }
        int k = r.size - 1;
        long cpu = r.cpu(k);
        while (k > 0 && r.cpu(k - 1) == cpu) {
            k--;
        }
        return r.at(r.size - 1) - r.at(k);
    }

    /** The readings of the window around {@code epochNs} exist (the moment is not after the last reading). */
    synchronized boolean known(long epochNs) {
        return natives.size >= 2 && natives.at(natives.size - 1) >= epochNs;
    }

    /** How many threads were in Java code at the reading nearest after {@code epochNs} (at least 1). */
    synchronized int javaThreads(long epochNs) {
        return count(javas, epochNs);
    }

    /** Forgets the threads not present; each one's last reading waits in {@link #takeGone}. */
    synchronized void retain(Set<Long> present) {
        threads.entrySet().removeIf(e -> {
            Ring r = e.getValue();
            if (present.contains(e.getKey())) {
                return false;
            }
            // bounded: only the recorder's batches take them (thread dumps alone never do)
            if (r.size > 0 && gone.size() < MAX_GONE) {
                gone.put(e.getKey(), r.cpu(r.size - 1));
            }
            return true;
        });
    }

    /** Per thread gone since the last call: its CPU clock at its last reading. */
    synchronized Map<Long, Long> takeGone() {
        Map<Long, Long> out = new HashMap<>(gone);
        gone.clear();
        return out;
    }

    synchronized void clear() {
        threads.clear();
        gone.clear();
        natives.size = 0;
        javas.size = 0;
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
        return count(natives, epochNs);
    }

    private static int count(Ring counts, long epochNs) {
        if (counts.size == 0) {
            return 1;
        }
        int k = 0;
        while (k < counts.size - 1 && counts.at(k) < epochNs) {
            k++;
        }
        return (int) Math.max(1, counts.cpu(k));
    }
}
