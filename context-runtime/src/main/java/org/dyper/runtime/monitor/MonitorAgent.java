package org.dyper.runtime.monitor;

import java.lang.instrument.Instrumentation;
import org.dyper.runtime.monitor.internal.Monitor;

/**
 * The javaagent entry points of the DYPER monitor ({@code Premain-Class} and {@code Agent-Class} of the dyper-runtime
 * jar): {@code -javaagent:dyper-runtime.jar[=options]} at launch, or a dynamic attach ({@code dyper ctl attach}).
 * Options are comma-separated {@code key=value}: {@code dir}, {@code notify}, {@code notifywait}, {@code frametimeout},
 * {@code authtimeout}, {@code idletimeout}, {@code maxconnections} and any monitor variable (see docs/monitor.md). The
 * monitor starts once per JVM; a failure prints one line to stderr and the program runs on unmonitored.
 */
public final class MonitorAgent {
    private MonitorAgent() {
    }

    /** At launch: starts the monitor and, with {@code notify=host:port}, waits (bounded) for the START reply. */
    public static void premain(String args, Instrumentation inst) {
        org.dyper.runtime.instrument.RuntimePatcher.install(inst);
        org.dyper.runtime.jfr.Telemetry.start();
        Monitor.start(args, inst, true);
    }

    /** On attach: starts the monitor (no START message: the program is already running). */
    public static void agentmain(String args, Instrumentation inst) {
        org.dyper.runtime.instrument.RuntimePatcher.install(inst);
        org.dyper.runtime.jfr.Telemetry.start();
        Monitor.start(args, inst, false);
    }
}
