package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** The exact values recorded at one site so far (RECORD_RETURN, RECORD_ARG1, ...): the XML report's VALUES row. */
@Name(DyperEvents.PREFIX + "Values")
@Label("Dyper Values")
@Description("Count, sum, min and max of the values recorded at one site (and null/non-null counts of references): "
        + "the XML report's VALUES row")
@Category({"Dyper", "Figures"})
@StackTrace(false)
@Enabled(false)
@Period("everyChunk")
public final class ValueFigures extends jdk.jfr.Event {
    @Label("Site")
    public String site;

    @Label("Site Id")
    public int siteId;

    @Label("Count")
    public long count;

    @Label("Sum")
    public long sum;

    @Label("Minimum")
    public long minimum;

    @Label("Maximum")
    public long maximum;

    @Label("Nulls")
    public long nulls;

    @Label("Non-nulls")
    public long nonNulls;
}
