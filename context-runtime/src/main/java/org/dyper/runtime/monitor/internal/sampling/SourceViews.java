package org.dyper.runtime.monitor.internal.sampling;

import org.dyper.runtime.monitor.internal.agents.CpuAgent;

/**
 * Which source the CPU section and the CPU and LOCK views show, one at a time, and the thread dumps' CPU figures of
 * the time before the flight recorder started, kept apart. Thread dumps sample until the recorder hands over its
 * first samples, which can be many seconds after it started on a crowded machine; its samples cover the time from its
 * start. So when the recorder starts ({@link #recorderStarting}) the dumps' CPU section and view are kept as they are
 * (CPU_BEFORE_JFR, from their start to then); when its samples come ({@link #switchTo} JFR) the dumps' samples since
 * its start are dropped (the recorder's cover that time) and the kept ones are shown beside its own. No sample is in
 * two views, and no view holds two sources. If the recorder never hands anything over, the dumps' view stays whole.
 */
final class SourceViews {
    private final CpuAgent cpu;
    private final StackStore stacks;
    private volatile String source = Sampler.THREAD_DUMP;
    private volatile String event = "";
    /** Epoch ms the recorder last started at: where the kept figures end and its samples begin; -1 before. */
    private long recorderStart = -1;

    SourceViews(CpuAgent cpu, StackStore stacks, long startMillis) {
        this.cpu = cpu;
        this.stacks = stacks;
        cpu.restartSamples(startMillis);
        stacks.restart(StackStore.View.CPU, Sampler.THREAD_DUMP, startMillis);
        stacks.restart(StackStore.View.LOCK, Sampler.THREAD_DUMP, startMillis);
    }

    String source() {
        return source;
    }

    String event() {
        return event;
    }

    /**
     * The recorder starts now ({@code nowMillis}): the thread dumps' CPU section and view so far are kept, to be shown
     * once its samples are. Called with the sampler's recording lock held, so that no dump is half in them.
     */
    synchronized void recorderStarting(long nowMillis, long monitorCpuNs) {
        recorderStart = nowMillis;
        if (source.equals(Sampler.THREAD_DUMP)) {
            cpu.keep(source, nowMillis, monitorCpuNs);
            stacks.keep(StackStore.View.CPU, StackStore.View.CPU_BEFORE_JFR, nowMillis);
        }
    }

    /**
     * The CPU section and the CPU and LOCK views show {@code source} from now on, emptied. To the recorder's: they
     * begin where it started, and the thread dumps' figures of the time before are shown apart. Back to thread dumps
     * (the recorder failed, or SAMPLER=THREAD_DUMP): everything before goes, kept figures too, from {@code nowMillis}.
     */
    synchronized void switchTo(String source, String event, long nowMillis) {
        boolean recorder = source.equals(Sampler.JFR);
        long from = recorder && recorderStart > 0 ? recorderStart : nowMillis;
        cpu.restartSamples(from);
        stacks.restart(StackStore.View.CPU, source, from);
        stacks.restart(StackStore.View.LOCK, source, from);
        if (recorder) {
            cpu.showKept();
            stacks.show(StackStore.View.CPU_BEFORE_JFR);
        } else {
            cpu.dropKept();
            stacks.restart(StackStore.View.CPU_BEFORE_JFR, source, 0);
        }
        this.event = event;
        this.source = source;
    }
}
