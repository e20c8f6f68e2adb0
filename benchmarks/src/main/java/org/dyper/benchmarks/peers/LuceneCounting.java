package org.dyper.benchmarks.peers;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * What plain ajc weaves into lucene-core in the weaving benchmark: the Dyper model
 * {@code benchmarks/models/lucene-count.xml} (COUNT at ENTER of every method), written by hand.
 */
@Aspect
public class LuceneCounting {
    static long count;

    @Before("execution(* org.apache.lucene..*.*(..))")
    public void count() {
        count++;
    }
}
