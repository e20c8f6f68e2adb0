package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One write of a reference field at a site patched with {@code TRACE_FIELD_WRITE_REF}, made just before the write.
 * Objects are named by their class and identity hash only ({@code Class.getName()}, {@code System.identityHashCode}):
 * no method of the program's objects is called, since {@code toString} or {@code hashCode} may have side effects or
 * throw. A null is a null class name and identity 0. An instant event (no duration, so no threshold).
 */
@Name(DyperEvents.PREFIX + "ReferenceWriteTrace")
@Label("Reference Write Trace")
@Description("One write of a traced reference field: the writing method, the field, the owner, the old and new value "
        + "as class and identity hash")
@Category({"Dyper", "Trace"})
@StackTrace(false)
@Enabled(false)
public final class ReferenceWriteTrace extends jdk.jfr.Event {
    @Label("Site")
    @Description("The writing method, as the site table names it")
    public String site;

    @Label("Site Id")
    @Description("The writing method's site id in the report")
    public int siteId;

    @Label("Field")
    @Description("The field written, as the site table names it")
    public String field;

    @Label("Owner Class")
    @Description("The class of the object written (null for a static field)")
    public String ownerClass;

    @Label("Owner Identity")
    @Description("System.identityHashCode of the object written (0 for a static field)")
    public int ownerIdentity;

    @Label("Old Class")
    @Description("The class of the value replaced (null for null)")
    public String oldClass;

    @Label("Old Identity")
    @Description("System.identityHashCode of the value replaced (0 for null)")
    public int oldIdentity;

    @Label("New Class")
    @Description("The class of the value written (null for null)")
    public String newClass;

    @Label("New Identity")
    @Description("System.identityHashCode of the value written (0 for null)")
    public int newIdentity;

    @Label("Locked")
    @Description("Whether the writing thread held the monitor of the object written (false for a static field)")
    public boolean locked;
}
