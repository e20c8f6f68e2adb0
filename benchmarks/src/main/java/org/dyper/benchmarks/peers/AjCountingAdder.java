package org.dyper.benchmarks.peers;

import java.util.concurrent.atomic.LongAdder;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * A thread-safe hand-written AspectJ counting aspect: {@code @Before} advice on a static {@link LongAdder}, the
 * JDK's counter for many writers. Not a target of issue 6 (that is {@link AjCounting}'s plain {@code long}); it shows
 * what exact counting across threads costs when written by hand.
 */
@Aspect
public class AjCountingAdder {
    static final LongAdder COUNT = new LongAdder();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println("PEER-COUNT ajcountingadder "
                + COUNT.sum()), "peer-count"));
    }

    @Before("execution(* org.dyper.benchmarks.app.MonitoredClass.monitoredMethod(..))")
    public void count() {
        COUNT.increment();
    }
}
