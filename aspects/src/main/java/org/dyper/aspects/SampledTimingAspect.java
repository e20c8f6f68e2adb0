package org.dyper.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.Pointcut;
import org.dyper.aspects.internal.TimingStack;
import org.dyper.aspects.internal.Safe;
import org.dyper.aspects.internal.StaticPartIds;
import org.dyper.runtime.SampledTiming;

/**
 * Counts every execution of the methods and constructors in {@link #scope()} exactly and times one in
 * {@code dyper.sample.every} per thread with {@link SampledTiming}, for use from a plain
 * {@code aop.xml} {@code <concrete-aspect>} (see the package documentation).
 *
 * <p>Cost: this is the convenience path. Sampling saves the clock reads, not the advice: every method
 * call still pays for the {@link ProceedingJoinPoint} (and, under load-time weaving, a closure) and an
 * identity lookup of its static part, which generated advice avoids. Constructors use before and after
 * advice and a per-thread stack, as in {@link TimingAspect}.
 */
@Aspect
public abstract class SampledTimingAspect {

    /** The code to measure, e.g. {@code execution(* com.acme..*(..))}; defined by the concrete aspect. */
    @Pointcut
    public abstract void scope();

    @Around(value = Pointcuts.METHODS, argNames = "call")
    public Object time(ProceedingJoinPoint call) throws Throwable {
        int id = StaticPartIds.whenOn(call.getStaticPart());
        long start = 0;
        try {
            if (id != StaticPartIds.NONE) {
                start = SampledTiming.enter(id);
            }
        } catch (Throwable t) {
            Safe.failed(id, t);
            start = 0;
        }
        if (start == 0) {
            return call.proceed();
        }
        try {
            return call.proceed();
        } finally {
            try {
                SampledTiming.exit(id, start);
            } catch (Throwable t) {
                Safe.failed(id, t);
            }
        }
    }

    @Before(value = Pointcuts.CONSTRUCTORS, argNames = "site")
    public void enterConstructor(JoinPoint.StaticPart site) {
        int id = StaticPartIds.whenOn(site);
        try {
            if (id != StaticPartIds.NONE) {
                // Pushed even when not sampled (start 0), so nested executions of one
                // constructor pop their own frames.
                TimingStack.current().push(site, id, SampledTiming.enter(id));
            }
        } catch (Throwable t) {
            Safe.failed(id, t);
        }
    }

    /** After advice is "after finally": it also runs when the constructor throws. */
    @After(value = Pointcuts.CONSTRUCTORS, argNames = "site")
    public void exitConstructor(JoinPoint.StaticPart site) {
        TimingStack frames = TimingStack.popped(site);
        try {
            if (frames != null && frames.start != 0) {
                SampledTiming.exit(frames.id, frames.start);
            }
        } catch (Throwable t) {
            Safe.failed(frames.id, t);
        }
    }
}
