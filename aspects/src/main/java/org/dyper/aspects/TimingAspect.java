package org.dyper.aspects;

import org.aspectj.lang.annotation.Aspect;
import org.dyper.runtime.Timing;

/**
 * Times every execution of the methods and constructors in {@link #scope()} with {@link Timing},
 * including executions that end by throwing, for use from a plain {@code aop.xml}
 * {@code <concrete-aspect>} (see the package documentation).
 *
 * <p>Cost: this is the convenience path. Around advice written with a {@code ProceedingJoinPoint}
 * creates a join point object per call (and, under load-time weaving, a closure), and each call does an
 * identity lookup of its static part to find the site id; generated advice avoids both. Constructors
 * are timed with before and after advice and a per-thread stack ({@link ClockedAspect}).
 */
@Aspect
public abstract class TimingAspect extends ClockedAspect {

    @Override
    protected final long start(int id) {
        return Timing.enter(id);
    }

    @Override
    protected final boolean timed(long start) {
        return true;
    }

    @Override
    protected final void stop(int id, long start) {
        Timing.exit(id, start);
    }
}
