package org.dyper.runtime.monitor.targets;

/** Not a DyperAgent, with a static initialiser that would show on stdout if the AGENT command ran it. */
public final class NotAnAgent {
    static {
        System.out.println("NotAnAgent: static initialiser ran");
    }

    private NotAnAgent() {
    }
}
