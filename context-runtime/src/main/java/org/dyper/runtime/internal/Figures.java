package org.dyper.runtime.internal;

import java.util.function.Consumer;

/**
 * The exact figures of a report, row by row, for readers outside this package (the JFR figure events): the same rows,
 * taken from one snapshot, that the XML report's TIMING, COUNTS, CALLS and VALUES sections show.
 */
public final class Figures {
    private Figures() {
    }

    /** One TIMING row: durations in ns; {@code buckets[b]} counts calls shorter than 2^b ns (and not shorter than 2^(b-1)). */
    public record Timing(int id, long count, long total, long min, long max, long[] buckets) {
    }

    /** One COUNTS or CALLS row ({@code call}: counted at call sites). */
    public record Count(int id, boolean call, long count) {
    }

    /** One VALUES row. */
    public record Value(int id, long count, long sum, long min, long max, long nulls, long nonNulls) {
    }

    /** One LOCKS row: a lock site ({@code id}) or a lock class ({@code id} 0, no site; {@code name} its class). */
    public record Lock(int id, String name, long acquisitions, long contended, long waitNs, long maxWaitNs,
            long holdNs, long maxHoldNs) {
    }

    /** One ALLOCATIONS row: an allocating site or ({@code type}) an allocated type. */
    public record Allocation(int id, boolean type, long count, long arrays, long totalLength, long maxLength) {
    }

    /** Hands every LOCKS and ALLOCATIONS row of one snapshot, in the XML report's order, to the consumers. */
    public static void locksAndAllocations(Consumer<Lock> locks, Consumer<Allocation> allocations) {
        Totals t = Registry.snapshot();
        for (Reports.LockRow r : Reports.lockSites(t)) {
            locks.accept(new Lock(r.id(), SiteTable.name(r.id()), r.acquisitions(), r.contended(), r.waitNs(),
                    r.maxWait(), r.holdNs(), r.maxHold()));
        }
        for (Reports.LockRow r : Reports.lockClasses(t)) {
            locks.accept(new Lock(0, r.name(), r.acquisitions(), r.contended(), r.waitNs(), r.maxWait(), r.holdNs(),
                    r.maxHold()));
        }
        for (Reports.AllocationRow r : Reports.allocations(t, ThreadData.ALLOC_SITES)) {
            allocations.accept(new Allocation(r.id(), false, r.count(), r.arrays(), r.totalLength(), r.maxLength()));
        }
        for (Reports.AllocationRow r : Reports.allocations(t, ThreadData.ALLOC_TYPES)) {
            allocations.accept(new Allocation(r.id(), true, r.count(), r.arrays(), r.totalLength(), r.maxLength()));
        }
    }

    /** Exclusive upper bound of histogram bucket {@code b} as the XML report writes it. */
    public static String bucketUpper(int b) {
        return Reports.bucketUpper(b);
    }

    /** Hands every row of one snapshot of the figures, in the XML report's order, to the consumers. */
    public static void each(Consumer<Timing> timing, Consumer<Count> counts, Consumer<Value> values) {
        Totals t = Registry.snapshot();
        for (Reports.TimingSite s : Reports.timing(t)) {
            timing.accept(new Timing(s.id(), s.count(), s.total(), s.min(), s.max(), s.buckets()));
        }
        for (Reports.CountSite s : Reports.counts(t)) {
            counts.accept(new Count(s.id(), false, s.count()));
        }
        for (Reports.CountSite s : Reports.calls(t)) {
            counts.accept(new Count(s.id(), true, s.count()));
        }
        for (Reports.ValueSite s : Reports.values(t)) {
            values.accept(new Value(s.id(), s.count(), s.sum(), s.min(), s.max(), s.nulls(), s.nonNulls()));
        }
    }
}
