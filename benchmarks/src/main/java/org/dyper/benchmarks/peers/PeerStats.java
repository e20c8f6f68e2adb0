package org.dyper.benchmarks.peers;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a hand-written timing aspect or agent keeps: per key (the join point's static part, or the method's name),
 * thread-safe count, total, min and max. At exit it prints {@code PEER-COUNT <key> <count>} to stderr so the
 * runner can check that no call was dropped.
 */
public final class PeerStats {
    /** One key's figures. */
    public static final class Stat {
        final LongAdder count = new LongAdder();
        final LongAdder total = new LongAdder();
        final AtomicLong min = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong max = new AtomicLong();

        void add(long d) {
            count.increment();
            total.add(d);
            long m;
            while (d < (m = min.get()) && !min.compareAndSet(m, d)) {
                // retry
            }
            while (d > (m = max.get()) && !max.compareAndSet(m, d)) {
                // retry
            }
        }
    }

    private static final ConcurrentHashMap<Object, Stat> STATS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STATS.forEach(
                (k, s) -> System.err.println("PEER-COUNT " + k + " " + s.count.sum())), "peer-stats"));
    }

    private PeerStats() {
    }

    /** One call under {@code key} lasting {@code nanos}. */
    public static void time(Object key, long nanos) {
        Stat s = STATS.get(key);
        if (s == null) {
            s = STATS.computeIfAbsent(key, k -> new Stat());
        }
        s.add(nanos);
    }
}
