package org.dyper.samples.e2e;

import java.lang.management.ThreadInfo;
import org.dyper.runtime.monitor.DyperAgent;

/**
 * A monitor agent whose report ends the JVM on the spot, as a crash or a kill during a command would: what
 * {@code dyper ctl} says when the process ends while it waits for a reply.
 */
public final class HaltingAgent implements DyperAgent {
    @Override
    public String name() {
        return "HALT";
    }

    @Override
    public void sample(ThreadInfo[] threads, long intervalNanos) {
    }

    @Override
    public void clear() {
    }

    @Override
    public String report() {
        Runtime.getRuntime().halt(0);  // the planted ending: no reply ever comes
        return "<HALT/>";
    }
}
