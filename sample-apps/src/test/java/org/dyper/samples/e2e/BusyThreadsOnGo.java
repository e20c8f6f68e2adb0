package org.dyper.samples.e2e;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A planted program with many more busy threads than cores: it prints {@code ready}; for each line on stdin it
 * runs {@code threads} new threads on the CPU for {@code millis} ms each (a negative {@code millis}: until the next
 * line), prints {@code busy cpu ns N} (the CPU time those threads used, from their own CPU clocks) and
 * {@code checksum C}; at the end of stdin it ends, the threads alive until then (so that their samples are weighed
 * while their clocks can still be read). Usage: {@code BusyThreadsOnGo threads millis}.
 */
public final class BusyThreadsOnGo {
    private BusyThreadsOnGo() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        long millis = Long.parseLong(args[1]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        System.out.println("ready");
        CountDownLatch end = new CountDownLatch(1);
        // each line a round: a test starts the flight recorder between two (CpuWeightEndToEndTest)
        for (int round = 0; in.readLine() != null; round++) {
            AtomicLong cpu = new AtomicLong();
            AtomicLong sum = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch done = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                long seed = t;
                Thread busy = new Thread(() -> {
                    long start = mx.getCurrentThreadCpuTime();
                    long until = System.nanoTime() + millis * 1_000_000L;
                    long h = seed;
                    while (millis < 0 ? !stop.get() : System.nanoTime() < until) {
                        h = spin(h);
                    }
                    cpu.addAndGet(mx.getCurrentThreadCpuTime() - start);
                    sum.addAndGet(h);
                    done.countDown();
                    try {
                        end.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, round == 0 ? "busy-" + t : "busy-" + round + "-" + t);
                busy.setDaemon(true);
                busy.start();
            }
            if (millis < 0) {
                in.readLine();
                stop.set(true);
            }
            done.await();
            System.out.println("busy cpu ns " + cpu.get());
            System.out.println("checksum " + sum.get());
        }
        end.countDown();
    }

    static long spin(long seed) {
        long h = seed;
        for (int i = 0; i < 10_000; i++) {
            h = h * 0x9E3779B97F4A7C15L + i;
            h ^= h >>> 29;
        }
        return h;
    }
}
