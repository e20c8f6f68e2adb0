package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One call of a method patched with {@code TRACE_ENTER}/{@code TRACE_EXIT}: JFR's own start time and duration are the
 * call's, its thread the calling thread. Recorded only when the call took at least the type's threshold.
 */
@Name(DyperEvents.PREFIX + "MethodTrace")
@Label("Method Trace")
@Description("One call of a traced method, with its duration, thread and depth among traced calls")
@Category({"Dyper", "Trace"})
@StackTrace(false)
@Enabled(false)
@Threshold("0 ns")
public final class MethodTrace extends jdk.jfr.Event {
    @Label("Method")
    @Description("The traced method, as the site table names it")
    public String method;

    @Label("Site Id")
    @Description("The method's site id in the report")
    public int siteId;

    @Label("Depth")
    @Description("How many traced calls of this thread enclose this one, plus 1")
    public int depth;

    @Label("Argument")
    @Description("The first argument (TRACE_ENTER_ARG1 only, else 0)")
    public long argument;

    @Label("Return Value")
    @Description("The value returned (TRACE_EXIT_RETURN only, else 0)")
    public long returnValue;
}
