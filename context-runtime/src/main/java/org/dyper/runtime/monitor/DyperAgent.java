package org.dyper.runtime.monitor;

import java.lang.management.ThreadInfo;

/**
 * An agent of the DYPER monitor: it is handed every stack sample and adds a section to REPORT. Add one to a running
 * monitor with {@code <AGENT CLASS='...'/>}: the class is public, has a public no-argument constructor and is loaded
 * by the application class loader. Methods are called from the monitor's own threads, never concurrently with each
 * other for one agent; an exception thrown by an agent is caught and reported in its REPORT section, never passed on
 * to the application.
 */
public interface DyperAgent {
    /** The agent's name, as CLEAR AGENT='...' and SETDETAIL AGENT='...' name it; unique within one monitor. */
    String name();

    /**
     * One sample: the sampled threads (monitor threads and threads USETHREAD ignores are left out), each with at
     * most MAXDEPTH frames, and the time since the previous sample in nanoseconds (the time each sample stands for).
     */
    void sample(ThreadInfo[] threads, long intervalNanos);

    /** Forgets everything recorded so far. */
    void clear();

    /** This agent's REPORT section: one well-formed XML element (its name is the agent's choice). */
    String report();

    /** SETDETAIL for this agent; returns false when the agent does not know {@code item}. */
    default boolean setDetail(String item, boolean on) {
        return false;
    }
}
