package org.dyper.patch.aspectj;

import java.lang.instrument.Instrumentation;

/**
 * Another agent in the JVM besides Dyper's, for {@link KeptPatchRunner}: it only keeps its {@link Instrumentation}, with
 * which the runner retransforms classes as another tool would.
 */
public final class ForeignAgent {
    static volatile Instrumentation inst;

    private ForeignAgent() {}

    public static void premain(String args, Instrumentation instrumentation) {
        inst = instrumentation;
    }
}
