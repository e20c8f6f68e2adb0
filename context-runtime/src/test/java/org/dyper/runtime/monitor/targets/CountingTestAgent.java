package org.dyper.runtime.monitor.targets;

import java.lang.management.ThreadInfo;
import org.dyper.runtime.monitor.DyperAgent;

/** An agent the AGENT command adds: it counts the samples it is handed. */
public final class CountingTestAgent implements DyperAgent {
    private long samples;

    @Override
    public String name() {
        return "counting";
    }

    @Override
    public void sample(ThreadInfo[] threads, long intervalNanos) {
        samples++;
    }

    @Override
    public void clear() {
        samples = 0;
    }

    @Override
    public String report() {
        return "<COUNTED SAMPLES='" + samples + "'/>";
    }
}
