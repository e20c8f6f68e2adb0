package org.dyper.benchmarks.peers;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * The plain AspectJ counting reference: a hand-written {@code @Before} advice incrementing a static counter, as a
 * user would write it in five minutes. It is exact on one thread only (a plain {@code long}, no atomics), which makes
 * it a floor rather than a like-for-like peer of Dyper's thread-safe COUNT.
 */
@Aspect
public class AjCounting {
    static long count;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("PEER-COUNT ajcounting " + count),
                "peer-count"));
    }

    @Before("execution(* org.dyper.benchmarks.app.MonitoredClass.monitoredMethod(..))")
    public void count() {
        count++;
    }
}
