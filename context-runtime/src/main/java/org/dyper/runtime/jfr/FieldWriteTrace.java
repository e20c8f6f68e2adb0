package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One write of a numeric field at a site patched with {@code TRACE_FIELD_WRITE}, made just before the write: the old
 * and the new value (narrower types widened, boolean as 0/1, char as its code, float/double as raw bits) and whether
 * the writer held the owner's monitor. An instant event (no duration, so no threshold).
 */
@Name(DyperEvents.PREFIX + "FieldWriteTrace")
@Label("Field Write Trace")
@Description("One write of a traced numeric field: the writing method, the field, the old and new value")
@Category({"Dyper", "Trace"})
@StackTrace(false)
@Enabled(false)
public final class FieldWriteTrace extends jdk.jfr.Event {
    @Label("Site")
    @Description("The writing method, as the site table names it")
    public String site;

    @Label("Site Id")
    @Description("The writing method's site id in the report")
    public int siteId;

    @Label("Field")
    @Description("The field written, as the site table names it")
    public String field;

    @Label("Old Value")
    public long oldValue;

    @Label("New Value")
    public long newValue;

    @Label("Locked")
    @Description("Whether the writing thread held the monitor of the object written (false for a static field)")
    public boolean locked;
}
