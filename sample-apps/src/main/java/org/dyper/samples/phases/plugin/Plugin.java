package org.dyper.samples.phases.plugin;

import java.util.function.IntUnaryOperator;

/** A plug-in that {@link org.dyper.samples.phases.PhasedApp} loads in a class loader of its own. */
public final class Plugin implements IntUnaryOperator {
    @Override
    public int applyAsInt(int v) {
        return v + 1;
    }
}
