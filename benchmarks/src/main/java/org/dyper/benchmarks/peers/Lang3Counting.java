package org.dyper.benchmarks.peers;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * The aspect plain ajc weaves into commons-lang3 in the weaving-throughput benchmark: what the Dyper model
 * {@code benchmarks/models/lang3-count.xml} (COUNT at ENTER of every method) does, written by hand.
 */
@Aspect
public class Lang3Counting {
    static long count;

    @Before("execution(* org.apache.commons.lang3..*.*(..))")
    public void count() {
        count++;
    }
}
