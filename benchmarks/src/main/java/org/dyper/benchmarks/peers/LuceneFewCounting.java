package org.dyper.benchmarks.peers;

import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Before;

/**
 * What plain ajc weaves into the whole lucene-core jar in the weaving benchmark: the Dyper model
 * {@code benchmarks/models/lucene-few.xml} (COUNT at ENTER of every method of 5 classes), written by hand.
 */
@Aspect
public class LuceneFewCounting {
    static long count;

    @Before("execution(* *(..)) && (within(org.apache.lucene.util.BytesRef) || within(org.apache.lucene.util.ArrayUtil)"
            + " || within(org.apache.lucene.util.BitUtil) || within(org.apache.lucene.util.StringHelper)"
            + " || within(org.apache.lucene.util.FixedBitSet))")
    public void count() {
        count++;
    }
}
