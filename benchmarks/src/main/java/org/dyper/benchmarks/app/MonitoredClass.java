package org.dyper.benchmarks.app;

/** The monitored method of the MooBench-style benchmark: it recurses to the given depth and returns. */
public final class MonitoredClass {
    /** One monitored execution per level: {@code depth} executions in all. */
    public long monitoredMethod(long value, int depth) {
        if (depth > 1) {
            return monitoredMethod(value, depth - 1);
        }
        return value;
    }
}
