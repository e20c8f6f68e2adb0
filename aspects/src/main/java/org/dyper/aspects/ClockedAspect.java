package org.dyper.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.After;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.Pointcut;
import org.dyper.aspects.internal.Safe;
import org.dyper.aspects.internal.StaticPartIds;
import org.dyper.aspects.internal.TimingStack;

/**
 * The advice of the timing aspects, which differ only in their clock: {@link TimingAspect} times every execution,
 * {@link SampledTimingAspect} one in {@code dyper.sample.every} per thread. Name one of those in an {@code aop.xml}
 * (see the package documentation), not this one.
 *
 * <p>Methods are timed with around advice, executions that end by throwing included. Constructors are timed with
 * before and after advice and a per-thread stack instead: around advice would move the constructor body out of
 * {@code <init>}, which the JVM rejects when it writes a final field. The clock is reached through the three methods
 * below, one virtual call each, which the JIT inlines where one concrete aspect is woven (this path already pays a
 * {@link ProceedingJoinPoint} and an identity lookup per call; generated advice pays neither).
 */
@Aspect
public abstract class ClockedAspect {

    /** The code to measure, e.g. {@code execution(* com.acme..*(..))}; defined by the concrete aspect. */
    @Pointcut
    public abstract void scope();

    /** The clock's reading at the start of an execution of site {@code id}. */
    protected abstract long start(int id);

    /** Whether the execution that {@link #start} began is timed (a sampling clock times only some). */
    protected abstract boolean timed(long start);

    /** The end of a timed execution of site {@code id} that began at {@code start}. */
    protected abstract void stop(int id, long start);

    @Around(value = Pointcuts.METHODS, argNames = "call")
    public Object time(ProceedingJoinPoint call) throws Throwable {
        int id = StaticPartIds.whenOn(call.getStaticPart());
        long start = 0;
        boolean timed = false;
        try {
            if (id != StaticPartIds.NONE) {
                start = start(id);
                timed = timed(start);
            }
        } catch (Throwable t) {
            Safe.failed(id, t);
        }
        if (!timed) {
            return call.proceed();
        }
        try {
            return call.proceed();
        } finally {
            try {
                stop(id, start);
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
                // pushed even when not timed, so that nested executions of one constructor pop their own frames
                TimingStack.current().push(site, id, start(id));
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
            if (frames != null && timed(frames.start)) {
                stop(frames.id, frames.start);
            }
        } catch (Throwable t) {
            Safe.failed(frames.id, t);
        }
    }
}
