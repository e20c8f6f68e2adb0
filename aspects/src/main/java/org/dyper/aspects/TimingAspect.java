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
import org.dyper.runtime.Timing;

/**
 * Times every execution of the methods and constructors in {@link #scope()} with {@link Timing},
 * including executions that end by throwing, for use from a plain {@code aop.xml}
 * {@code <concrete-aspect>} (see the package documentation).
 *
 * <p>Cost: this is the convenience path. Around advice written with {@link ProceedingJoinPoint}
 * creates a join point object per call (and, under load-time weaving, a closure), and each call does an
 * identity lookup of its static part to find the site id; generated advice avoids both. Constructors
 * are timed with before and after advice and a per-thread stack instead (around advice would move
 * the constructor body out of {@code <init>}, which the JVM rejects when it writes a final field).
 */
@Aspect
public abstract class TimingAspect {

    /** The code to measure, e.g. {@code execution(* com.acme..*(..))}; defined by the concrete aspect. */
    @Pointcut
    public abstract void scope();

    @Around(value = Pointcuts.METHODS, argNames = "call")
    public Object time(ProceedingJoinPoint call) throws Throwable {
        int id = StaticPartIds.whenOn(call.getStaticPart());
        long start = 0;
        boolean timed = false;
        try {
            if (id != StaticPartIds.NONE) {
                start = Timing.enter(id);
                timed = true;
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
                Timing.exit(id, start);
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
                TimingStack.current().push(site, id, Timing.enter(id));
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
            if (frames != null) {
                Timing.exit(frames.id, frames.start);
            }
        } catch (Throwable t) {
            Safe.failed(frames.id, t);
        }
    }
}
