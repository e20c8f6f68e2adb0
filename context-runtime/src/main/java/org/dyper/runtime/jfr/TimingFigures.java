package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The exact timing of one site so far (TIME_ENTER/TIME_EXIT), in the shape of JDK 25's {@code jdk.MethodTiming}
 * plus the total and the histogram: every period and at the end of each chunk, equal to the XML report's TIMING row.
 */
@Name(DyperEvents.PREFIX + "Timing")
@Label("Dyper Timing")
@Description("Exact timing of one patched site since the start (or the last reset): the XML report's TIMING row")
@Category({"Dyper", "Figures"})
@StackTrace(false)
@Enabled(false)
@Period("everyChunk")
public final class TimingFigures extends jdk.jfr.Event {
    @Label("Method")
    public String method;

    @Label("Site Id")
    public int siteId;

    @Label("Invocations")
    public long invocations;

    @Label("Total")
    @Timespan(Timespan.NANOSECONDS)
    public long total;

    @Label("Minimum")
    @Timespan(Timespan.NANOSECONDS)
    public long minimum;

    @Label("Average")
    @Description("total / invocations, rounded")
    @Timespan(Timespan.NANOSECONDS)
    public long average;

    @Label("Maximum")
    @Timespan(Timespan.NANOSECONDS)
    public long maximum;

    @Label("Histogram")
    @Description("Non-empty log2 buckets as UPPER_NS:COUNT, space-separated (a call counts in the first bucket whose "
            + "exclusive upper bound exceeds it), as in the XML report")
    public String histogram;
}
