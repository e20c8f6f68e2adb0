package org.dyper.runtime.monitor.internal.agents;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.Test;

/**
 * Without the flight recorder, the monitor lists single GC pauses from the JVM's GC notifications: a planted
 * {@code System.gc()} appears with its cause, its collector, when it started and how long it took.
 */
class JvmAgentTest {
    private static final Pattern PAUSE = Pattern.compile(
            "<PAUSE TIME='(\\d+)' COLLECTOR='([^']+)' CAUSE='System\\.gc\\(\\)' PAUSE_NS='(\\d+)'/>");

    @Test
    void aSystemGcIsListedWithItsCauseFromTheNotifications() {
        JvmAgent agent = new JvmAgent();
        agent.listen();
        long before = System.currentTimeMillis();
        assertTrue(!PAUSE.matcher(agent.report()).find(), "no System.gc() listed before it was called");
        System.gc();  // the planted collection
        String report = Await.until("the System.gc() pause listed", agent::report, r -> PAUSE.matcher(r).find(),
                Await.MINUTE);
        assertTrue(report.startsWith("<GC EXACT='true' SOURCE='MXBEAN' "), report);
        Matcher m = PAUSE.matcher(report);
        assertTrue(m.find());
        long time = Long.parseLong(m.group(1));
        // the notification's start time is the JVM's uptime in whole ms, added to its start time (also whole ms)
        assertTrue(time >= before - 1000 && time <= System.currentTimeMillis(), time + " vs " + before + ": " + report);
        assertTrue(!m.group(2).isBlank() && Long.parseLong(m.group(3)) % 1_000_000 == 0, report);
        agent.recorderStarted();
        assertTrue(!agent.report().contains("<PAUSE "), "the recorder's own list starts empty");
    }
}
