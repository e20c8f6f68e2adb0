package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/** The exact count of one site so far (COUNT, or COUNT_CALLS at call sites): the XML report's COUNTS or CALLS row. */
@Name(DyperEvents.PREFIX + "Count")
@Label("Dyper Count")
@Description("Exact count of one patched site since the start (or the last reset): the XML report's COUNTS or CALLS "
        + "row")
@Category({"Dyper", "Figures"})
@StackTrace(false)
@Enabled(false)
@Period("everyChunk")
public final class CountFigures extends jdk.jfr.Event {
    @Label("Site")
    public String site;

    @Label("Site Id")
    public int siteId;

    @Label("Section")
    @Description("COUNTS (executions) or CALLS (calls counted at call sites)")
    public String section;

    @Label("Count")
    public long count;
}
