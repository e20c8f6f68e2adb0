package org.dyper.runtime.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The exact lock figures of one lock site or lock class so far (LOCK_TEST/LOCK_ENTER/LOCK_EXIT): the XML report's
 * LOCKS row ({@code SITE} or {@code LOCK_CLASS}).
 */
@Name(DyperEvents.PREFIX + "Lock")
@Label("Dyper Lock")
@Description("Acquisitions, contended acquisitions, wait and hold times of one lock site or lock class: the XML "
        + "report's LOCKS row")
@Category({"Dyper", "Figures"})
@StackTrace(false)
@Enabled(false)
@Period("everyChunk")
public final class LockFigures extends jdk.jfr.Event {
    @Label("Name")
    @Description("The lock site (a method) or the lock's class")
    public String name;

    @Label("Site Id")
    @Description("The lock site's id; 0 for a lock class")
    public int siteId;

    @Label("Section")
    @Description("SITE or LOCK_CLASS")
    public String section;

    @Label("Acquisitions")
    public long acquisitions;

    @Label("Contended")
    @Description("Acquisitions that waited longer than dyper.lock.contended")
    public long contended;

    @Label("Wait")
    @Timespan(Timespan.NANOSECONDS)
    public long waitTotal;

    @Label("Maximum Wait")
    @Timespan(Timespan.NANOSECONDS)
    public long maximumWait;

    @Label("Hold")
    @Timespan(Timespan.NANOSECONDS)
    public long holdTotal;

    @Label("Maximum Hold")
    @Timespan(Timespan.NANOSECONDS)
    public long maximumHold;
}
