package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.dyper.testsupport.XmlReports.all;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/**
 * Issue 20: with many more busy threads than cores, JDK 17's execution sampler takes a small fraction of its samples
 * (its thread must suspend each sampled thread, and those wait for a core): the CPU view showed about 5 % of the CPU
 * time the threads used. The samples are now weighed by the threads' CPU clocks, so the CPU section adds up to it.
 * The recorder itself starts late then (its thread waits for a core too: 50 busy threads on 2 cores, 23 s of a 30 s
 * run): on JDK 17 the threads start at once, before its first batch, and their CPU time from their start to their
 * first sample, and after their last, is on those samples (BEFORE_FIRST_NS, AFTER_LAST_NS); a thread never sampled is
 * counted apart (UNSAMPLED_NS). On JDK 25 the recorder's CPU-time sampler is used from its first batch on, and the
 * threads start after it.
 */
class CpuWeightEndToEndTest {
    private static final Duration LINE = Duration.ofSeconds(60);
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void theCpuViewAddsUpToTheBusyThreadsCpuTime(Jdk jdk) throws Exception {
        // enough threads to starve JDK 17's sampler, few enough that each gets samples: a thread never sampled adds nothing
        int threads = 8 * Runtime.getRuntime().availableProcessors();
        Running t = MonitorEndToEndTest.start(List.of(jdk.java().toString(), "-javaagent:"
                + MonitorEndToEndTest.runtimeJar() + "=dir=" + dir + ",SAMPLER=JFR", "-cp",
                MonitorEndToEndTest.classpath(), BusyThreadsOnGo.class.getName(), Integer.toString(threads), "6000"),
                null);
        try {
            assertEquals("ready", t.line(0, LINE));
            String pid = Long.toString(t.pid());
            if (jdk == Jdk.JDK25) {
                // jdk.CPUTimeSample's samples are shown from the recorder's first batch on: the threads start after
                Await.until("the monitor's CPU samples come from the flight recorder", () -> {
                    Element cpu = cpu(pid);
                    return cpu != null && cpu.getAttribute("SOURCE").equals("JFR");
                }, LINE);
            }
            // on JDK 17 at once: the recorder takes at least a second to start, the threads a few milliseconds
            t.send("go");
            String busy = t.line(1, LINE);
            assertTrue(busy.startsWith("busy cpu ns "), busy);
            long busyNs = Long.parseLong(busy.substring("busy cpu ns ".length()));
            if (jdk == Jdk.JDK17) {
                // the threads then wait, alive: once the recorder's batches show their clocks stood still, the time
                // after their last samples goes on those. All their CPU time is then on their samples, or counted as
                // a never sampled thread's (it includes the main thread's, so at most 30 % more). Before: the time
                // before the recorder's first batch and after each thread's last samples was missing (36-56 %).
                long accounted = Await.until("the CPU section and UNSAMPLED_NS reach 90 % of the busy threads' CPU"
                        + " time (" + busyNs + " ns)", () -> {
                            Element cpu = cpu(pid);
                            return number(cpu, "ESTIMATED_NS") + number(cpu, "UNSAMPLED_NS");
                        }, ns -> ns >= busyNs * 9 / 10, Duration.ofSeconds(30));
                assertTrue(accounted <= busyNs * 13 / 10, "at most 30 % more than the threads' CPU time: "
                        + accounted + " ns against " + busyNs);
                Element cpu = cpu(pid);
                long estimated = number(cpu, "ESTIMATED_NS");
                // a thread sampled once has all its CPU time on its samples: 16 threads for 6 s, all but a few are
                assertTrue(estimated >= busyNs / 2, "the CPU section has at least half the busy threads' CPU time: "
                        + estimated + " ns against " + busyNs + " (UNSAMPLED_NS " + number(cpu, "UNSAMPLED_NS") + ")");
                long before = number(cpu, "BEFORE_FIRST_NS");
                assertTrue(before > 0 && before + number(cpu, "AFTER_LAST_NS") <= estimated,
                        "the CPU time put on first and last samples is part of the CPU section's: " + before + " + "
                                + number(cpu, "AFTER_LAST_NS") + " of " + estimated);
            } else {
                // the recorder hands its events over about a second late
                // at least 40 %: a full suite at a load of 23 saw 36 % with 12 threads per core for 4 s (threads the
                // recorder never sampled add nothing); before the weighing, 15 % at a load of 10
                long estimated = Await.until("the CPU section reaches 40 % of the busy threads' CPU time (" + busyNs
                        + " ns)", () -> number(cpu(pid), "ESTIMATED_NS"), ns -> ns >= busyNs * 2 / 5,
                        Duration.ofSeconds(30));
                assertTrue(estimated <= busyNs * 13 / 10, "at most 30 % more than the threads' CPU time: "
                        + estimated + " ns against " + busyNs);
                // each sample stands for its own CPU time: nothing is spread, and no thread's time is left out
                Element cpu = cpu(pid);
                assertEquals(List.of(0L, 0L, 0L), List.of(number(cpu, "BEFORE_FIRST_NS"), number(cpu, "AFTER_LAST_NS"),
                        number(cpu, "UNSAMPLED_NS")), "BEFORE_FIRST_NS, AFTER_LAST_NS, UNSAMPLED_NS on JDK 25");
            }
            t.closeStdin();
            assertEquals(0, t.stop(LINE));
            assertEquals("", t.stderr());
        } finally {
            t.close();
        }
    }

    /** A whole-number attribute of the CPU section; 0 where a monitor does not report it. */
    private static long number(Element cpu, String name) {
        String v = cpu.getAttribute(name);
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }

    private Element cpu(String pid) throws Exception {
        Run report = E2e.dyper("ctl", "--dir", dir.toString(), "--xml", pid, "REPORT", "<REPORT TYPE='CPU'/>");
        assertEquals(0, report.exit(), report.err());
        List<Element> cpu = all(XmlReports.parse(report.out()), "CPU");
        return cpu.isEmpty() ? null : cpu.get(0);
    }
}
