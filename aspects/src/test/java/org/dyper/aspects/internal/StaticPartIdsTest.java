package org.dyper.aspects.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.aspectj.lang.JoinPoint;
import org.aspectj.runtime.reflect.Factory;
import org.dyper.runtime.Sites;
import org.junit.jupiter.api.Test;

class StaticPartIdsTest {
    private static final Factory FACTORY = new Factory("StaticPartIdsTest.java", StaticPartIdsTest.class);

    private static JoinPoint.StaticPart method(String name, String parameters) {
        return FACTORY.makeSJP(JoinPoint.METHOD_EXECUTION,
                FACTORY.makeMethodSig("1", name, "java.lang.StringBuilder", parameters, "", "", "void"), 1);
    }

    @Test
    void registersMethodsAndConstructorsUnderTheirContractNames() {
        // The factory takes what woven code passes: ":"-separated JVM class names.
        JoinPoint.StaticPart method = method("append", "int:[[Ljava.lang.String;");
        JoinPoint.StaticPart constructor = FACTORY.makeSJP(JoinPoint.CONSTRUCTOR_EXECUTION,
                FACTORY.makeConstructorSig("1", "java.lang.StringBuilder", "int", "capacity", ""), 2);
        int methodId = StaticPartIds.of(method);
        int constructorId = StaticPartIds.of(constructor);
        assertTrue(methodId < 0 && constructorId < 0, "run-time ids are negative");
        assertEquals("java.lang.StringBuilder.append(int,java.lang.String[][])", Sites.name(methodId));
        assertEquals("java.lang.StringBuilder.<init>(int)", Sites.name(constructorId));
        assertEquals(methodId, StaticPartIds.of(method));
    }

    /** Two static parts of one signature (say, from two class loaders) are one site. */
    @Test
    void equalSignaturesShareAnId() {
        JoinPoint.StaticPart a = method("shared", "long");
        JoinPoint.StaticPart b = method("shared", "long");
        assertEquals(StaticPartIds.of(a), StaticPartIds.of(b));
        assertNotEquals(StaticPartIds.of(a), StaticPartIds.of(method("shared", "int")));
    }

    /** Enough sites to grow the table several times, looked up from many threads in random orders. */
    @Test
    void manySitesFromManyThreadsKeepTheirIds() throws Exception {
        List<JoinPoint.StaticPart> sites = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            sites.add(method("grow" + i, "int"));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<int[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long seed = t;
                results.add(pool.submit((Callable<int[]>) () -> {
                    List<Integer> order = new ArrayList<>();
                    for (int i = 0; i < sites.size(); i++) {
                        order.add(i);
                    }
                    Collections.shuffle(order, new Random(seed));
                    int[] ids = new int[sites.size()];
                    for (int i : order) {
                        ids[i] = StaticPartIds.of(sites.get(i));
                    }
                    return ids;
                }));
            }
            int[] first = results.get(0).get();
            for (Future<int[]> result : results) {
                int[] ids = result.get();
                for (int i = 0; i < ids.length; i++) {
                    assertEquals(first[i], ids[i], "site " + i);
                }
            }
            Set<Integer> distinct = new HashSet<>();
            for (int i = 0; i < first.length; i++) {
                assertEquals("java.lang.StringBuilder.grow" + i + "(int)", Sites.name(first[i]));
                distinct.add(first[i]);
                assertEquals(first[i], StaticPartIds.of(sites.get(i)));
            }
            assertEquals(sites.size(), distinct.size());
        } finally {
            pool.shutdownNow();
        }
    }
}
