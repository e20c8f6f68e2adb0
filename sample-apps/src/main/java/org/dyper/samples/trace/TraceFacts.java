package org.dyper.samples.trace;

import java.util.List;

/** What {@link TraceApp} does, for the tests (models/trace.xml traces it, with a threshold of THRESHOLD_MS). */
public final class TraceFacts {
    public static final int SLOW_CALLS = 4;
    public static final int SLOW_MS = 60;
    public static final int THRESHOLD_MS = 20;
    public static final int FAST_CALLS = 500;
    public static final int TIMED_CALLS = 300;
    /** Items allocated (and one long[] of this length) and written by Work.items. */
    public static final int ITEMS = 7;
    /** Calls of Work.fast per round of {@link TraceRounds}. */
    public static final int ROUND_CALLS = 100;
    public static final String FAST = "org.dyper.samples.trace.Work.fast(int)";
    public static final String SLOW = "org.dyper.samples.trace.Work.slow(int)";
    public static final String TIMED = "org.dyper.samples.trace.Work.timed(int)";
    /** The user events the EVENT patches make, in order. */
    public static final List<String> PHASES = List.of("org.dyper.samples.trace.Work.phaseOne()",
            "org.dyper.samples.trace.Work.phaseTwo()", "org.dyper.samples.trace.Work.phaseThree()");
    /** The program's output. */
    public static final List<String> OUTPUT = List.of("slow 30", "fast 249500", "timed 45150", "items 210");
    /** Where TraceApp.main calls slow and fast (TRACE_CALL: only the slow calls pass the threshold). */
    public static final String MAIN = "org.dyper.samples.trace.TraceApp.main(java.lang.String[])";
    public static final String ITEMS_METHOD = "org.dyper.samples.trace.Work.items()";

    private TraceFacts() {
    }
}
