package org.dyper.aspects;

import org.aspectj.lang.annotation.Aspect;
import org.dyper.runtime.SampledTiming;

/**
 * Counts every execution of the methods and constructors in {@link #scope()} exactly and times one in
 * {@code dyper.sample.every} per thread with {@link SampledTiming}, for use from a plain
 * {@code aop.xml} {@code <concrete-aspect>} (see the package documentation).
 *
 * <p>Cost: this is the convenience path. Sampling saves the clock reads, not the advice: every method
 * call still pays for the {@code ProceedingJoinPoint} (and, under load-time weaving, a closure) and an
 * identity lookup of its static part, which generated advice avoids. Constructors use before and after
 * advice and a per-thread stack, as in {@link TimingAspect} ({@link ClockedAspect}).
 */
@Aspect
public abstract class SampledTimingAspect extends ClockedAspect {

    /** {@link SampledTiming#enter}: 0 when this execution is not sampled (counted only). */
    @Override
    protected final long start(int id) {
        return SampledTiming.enter(id);
    }

    @Override
    protected final boolean timed(long start) {
        return start != 0;
    }

    @Override
    protected final void stop(int id, long start) {
        SampledTiming.exit(id, start);
    }
}
