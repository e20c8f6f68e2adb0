package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * The exact allocation figures of one allocating site or allocated type so far (ALLOC, ALLOC_ARRAY): the XML report's
 * ALLOCATIONS row ({@code SITE} or {@code TYPE}).
 */
@Name(DyperEvents.PREFIX + "Allocation")
@Label("Dyper Allocation")
@Description("Objects and arrays allocated at one site or of one type, with the arrays' lengths: the XML report's "
        + "ALLOCATIONS row")
@Category({"Dyper", "Figures"})
@StackTrace(false)
@Enabled(false)
@Period("everyChunk")
public final class AllocationFigures extends jdk.jfr.Event {
    @Label("Name")
    @Description("The allocating method (SITE) or the type allocated (TYPE)")
    public String name;

    @Label("Site Id")
    public int siteId;

    @Label("Section")
    @Description("SITE or TYPE")
    public String section;

    @Label("Count")
    public long count;

    @Label("Arrays")
    public long arrays;

    @Label("Total Length")
    public long totalLength;

    @Label("Maximum Length")
    public long maximumLength;
}
