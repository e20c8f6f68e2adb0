package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * The version of Dyper's event set, in every chunk of every recording (seed 003's three-part version): a reader
 * should refuse a recording whose major or median it does not know, and may read one with a newer minor.
 */
@Name(DyperEvents.PREFIX + "Version")
@Label("Dyper Version")
@Description("The version of the dyper.* event types (major.median.minor), in every chunk")
@Category({"Dyper"})
@StackTrace(false)
@Period("everyChunk")
public final class VersionEvent extends jdk.jfr.Event {
    @Label("Version")
    @Description("major.median.minor of the dyper.* event types")
    public String version;

    @Label("Major")
    @Description("Changes when the recording as a whole changes form")
    public int major;

    @Label("Median")
    @Description("Changes when an existing event type changes its fields or meaning")
    public int median;

    @Label("Minor")
    @Description("Changes when an event type is added")
    public int minor;
}
