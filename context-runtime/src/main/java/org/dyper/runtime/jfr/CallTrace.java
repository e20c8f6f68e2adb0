package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * One call made at a call site patched with {@code TRACE_CALL}/{@code TRACE_CALL_END}: the caller, the method called,
 * and JFR's start time and duration of the call. Recorded only when the call took at least the type's threshold.
 */
@Name(DyperEvents.PREFIX + "CallTrace")
@Label("Call Trace")
@Description("One call made at a traced call site, with its duration: the calling and the called method")
@Category({"Dyper", "Trace"})
@StackTrace(false)
@Enabled(false)
@Threshold("0 ns")
public final class CallTrace extends jdk.jfr.Event {
    @Label("Caller")
    @Description("The method that makes the call, as the site table names it")
    public String caller;

    @Label("Site Id")
    @Description("The caller's site id in the report")
    public int siteId;

    @Label("Callee")
    @Description("The method called, as the site table names it")
    public String callee;

    @Label("Callee Id")
    @Description("The called method's site id")
    public int calleeId;
}
