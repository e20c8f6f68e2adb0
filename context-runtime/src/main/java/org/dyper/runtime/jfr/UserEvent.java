package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A message of the program's own ({@code Dyper.userEvent}) or of an {@code EVENT} patch (the site's name). */
@Name(DyperEvents.PREFIX + "UserEvent")
@Label("User Event")
@Description("A message from Dyper.userEvent(String), or an EVENT patch reached")
@Category({"Dyper", "User"})
@StackTrace(false)
@Enabled(false)
public final class UserEvent extends jdk.jfr.Event {
    @Label("Message")
    public String message;

    @Label("Site Id")
    @Description("The EVENT patch's site id; 0 for Dyper.userEvent")
    public int siteId;

    @Label("Sequence")
    @Description("Per JVM, 1 for the first user event, then counting up: the order they were made in")
    public long sequence;
}
