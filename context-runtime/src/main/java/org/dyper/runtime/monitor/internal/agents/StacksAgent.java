package org.dyper.runtime.monitor.internal.agents;

import java.lang.management.ThreadInfo;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.monitor.internal.sampling.StackStore;

/** The stacks of every view as an agent: CLEAR AGENT='STACKS' empties them. The sampler feeds the store directly. */
public final class StacksAgent implements DyperAgent {
    static final String NAME = "STACKS";
    private final StackStore store;

    public StacksAgent(StackStore store) {
        this.store = store;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void sample(ThreadInfo[] threads, long intervalNanos) {
    }

    @Override
    public void clear() {
        store.clear();
    }

    @Override
    public String report() {
        return store.xml("", 0, 1000, 64);
    }
}
