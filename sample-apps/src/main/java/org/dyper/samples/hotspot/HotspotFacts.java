package org.dyper.samples.hotspot;

/** What {@link HotspotApp} does, for the tests that check the exact figures against it. */
public final class HotspotFacts {
    public static final String HOT = "org.dyper.samples.hotspot.Hot.work";
    public static final String LEFT = "org.dyper.samples.hotspot.Left.call";
    public static final String RIGHT = "org.dyper.samples.hotspot.Right.call";
    public static final String MIX = "org.dyper.samples.hotspot.Hot.mix(long)";
    /** Calls of Hot.mix per call of Hot.work. */
    public static final int MIX_CALLS = 4;
    /** While spinning: calls through Left per call through Right. */
    public static final int LEFT_SHARE = 3;
    public static final String WORKER = "hot-worker";
    public static final String READY = "ready";
    public static final String PAUSED = "paused";
    public static final String SPINNING = "spinning";
    /** Printed after {@code gc}: System.gc() returned. */
    public static final String COLLECTED = "collected";
    /** The cause the JVM gives a collection System.gc() asked for. */
    public static final String GC_CAUSE = "System.gc()";

    private HotspotFacts() {
    }

    /** The line a burst of {@code n} calls prints, {@code total} the calls of all bursts so far. */
    public static String burst(int n, long total) {
        return "burst: " + n + " calls of Hot.work, " + total + " in all bursts";
    }

    /** Calls through Left in a burst of n (every other one, from the first). */
    public static int left(int n) {
        return (n + 1) / 2;
    }
}
