package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One allocation at a site patched with {@code TRACE_ALLOC} or {@code TRACE_ALLOC_ARRAY}, made just before the object
 * or array is created: an instant event (no duration, so no threshold).
 */
@Name(DyperEvents.PREFIX + "AllocationTrace")
@Label("Allocation Trace")
@Description("One object or array allocated at a traced site: the allocating method and the class")
@Category({"Dyper", "Trace"})
@StackTrace(false)
@Enabled(false)
public final class AllocationTrace extends jdk.jfr.Event {
    @Label("Site")
    @Description("The allocating method, as the site table names it")
    public String site;

    @Label("Site Id")
    @Description("The allocating method's site id in the report")
    public int siteId;

    @Label("Object Class")
    @Description("The class allocated (for an array, its type, e.g. long[])")
    public String objectClass;

    @Label("Array Length")
    @Description("The (first) length of an array; -1 for an object")
    public int arrayLength;
}
