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
