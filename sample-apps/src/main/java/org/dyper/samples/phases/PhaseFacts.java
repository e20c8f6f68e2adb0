package org.dyper.samples.phases;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link PhasedApp} does per phase, by arithmetic, and its output, for the tests that patch it between phases.
 * Names are as Dyper reports them.
 */
public final class PhaseFacts {
    /** Calls of {@link Worker#work(int)} per phase. */
    public static final int CALLS = 3000;
    /** Calls of {@link Later#twice(int)} per phase, from phase 2 on. */
    public static final int LATER_CALLS = 500;
    /** Calls of the plug-in per phase (when it is there). */
    public static final int PLUGIN_CALLS = 200;

    public static final String WORK = "org.dyper.samples.phases.Worker.work(int)";
    public static final String WEIGH = "org.dyper.samples.phases.Worker.weigh(org.dyper.samples.phases.Item)";
    public static final String TOTAL = "org.dyper.samples.phases.Worker.total";
    public static final String ITEM = "org.dyper.samples.phases.Item";
    public static final String TWICE = "org.dyper.samples.phases.Later.twice(int)";
    public static final String PLUGIN = "org.dyper.samples.phases.plugin.Plugin.applyAsInt(int)";

    private PhaseFacts() {}

    /** Calls of {@code work(n)} in phase {@code phase} whose n is a multiple of 3 (the taken branch). */
    public static int multiplesOfThree(int phase) {
        int count = 0;
        for (int i = 0; i < CALLS; i++) {
            if ((i + phase) % 3 == 0) {
                count++;
            }
        }
        return count;
    }

    /** The program's output after {@code phases} phases and {@code exit}, with or without the plug-in. */
    public static List<String> output(int phases, boolean plugin) {
        List<String> lines = new ArrayList<>();
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = new java.io.PrintStream(b, true, java.nio.charset.StandardCharsets.UTF_8);
        Worker worker = new Worker();
        for (int p = 1; p <= phases; p++) {
            PhasedApp.runPhase(p, worker, plugin ? v -> v + 1 : null, out);
        }
        lines.addAll(List.of(b.toString(java.nio.charset.StandardCharsets.UTF_8).split("\\R")));
        lines.add("done after " + phases + " phases, total " + worker.total());
        return lines;
    }
}
