package org.dyper.aspects;

import org.aspectj.lang.JoinPoint;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;
import org.aspectj.lang.annotation.Pointcut;
import org.dyper.aspects.internal.Safe;
import org.dyper.aspects.internal.StaticPartIds;
import org.dyper.runtime.Counting;

/**
 * Counts executions of the methods and constructors in {@link #scope()} with {@link Counting}, for use
 * from a plain {@code aop.xml} {@code <concrete-aspect>} (see the package documentation).
 *
 * <p>Cost: this is the convenience path. Each call does an identity lookup of
 * {@code thisJoinPointStaticPart} to find its site id, which generated advice (with the id as a
 * constant) does not need; the first call of each site also registers it with {@code Sites.register}.
 */
@Aspect
public abstract class CountingAspect {

    /** The code to measure, e.g. {@code execution(* com.acme..*(..))}; defined by the concrete aspect. */
    @Pointcut
    public abstract void scope();

    @Before(value = Pointcuts.EXECUTIONS, argNames = "site")
    public void count(JoinPoint.StaticPart site) {
        int id = StaticPartIds.whenOn(site);
        try {
            if (id != StaticPartIds.NONE) {
                Counting.count(id);
            }
        } catch (Throwable t) {
            Safe.failed(id, t);
        }
    }
}
