package org.dyper.benchmarks.peers;

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;

/**
 * The plain AspectJ timing reference: a hand-written {@code @Around} advice keyed by
 * {@code thisJoinPointStaticPart}, recording count, total, min and max thread-safely ({@link PeerStats}).
 */
@Aspect
public class AjAroundTiming {
    @Around("execution(* org.dyper.benchmarks.app.MonitoredClass.monitoredMethod(..))")
    public Object time(ProceedingJoinPoint pjp) throws Throwable {
        long start = System.nanoTime();
        try {
            return pjp.proceed();
        } finally {
            PeerStats.time(pjp.getStaticPart(), System.nanoTime() - start);
        }
    }
}
