package com.acme.ltw;

/**
 * The program the load-time weaving tests weave: a user-like package outside {@code org.dyper}, a few
 * threads, constructors, static methods and a method that throws. Exact executions per run:
 * {@code main} 1, {@code Worker.<init>(int)} 4, {@code Worker.run()} 4, {@code Worker.hot(int)} 1000
 * (250 per thread), {@code Worker.result()} 4, {@code Worker.cold(long)} 7, {@code Worker.check(int)}
 * 10 (5 of them throw), {@code Node.<init>(int)} 5 (4 nested in one another, and one that throws),
 * {@code Node.length()} 4 (recursive). {@code Workload.<init>()} is never called.
 */
public class Workload {
    public static final int THREADS = 4;
    public static final int HOT_PER_THREAD = 250;
    public static final String OUTPUT = "hot sum=250500 cold=91 failures=5 chain=4 rejected=true";

    public static void main(String[] args) throws InterruptedException {
        Worker[] workers = new Worker[THREADS];
        Thread[] threads = new Thread[THREADS];
        for (int i = 0; i < THREADS; i++) {
            workers[i] = new Worker(i);
            threads[i] = new Thread(workers[i], "workload-" + i);
            threads[i].start();
        }
        long sum = 0;
        for (int i = 0; i < THREADS; i++) {
            threads[i].join();
            sum += workers[i].result();
        }
        long cold = 0;
        for (int i = 0; i < 7; i++) {
            cold += Worker.cold(i);
        }
        int failures = 0;
        for (int i = 0; i < 10; i++) {
            try {
                Worker.check(i);
            } catch (IllegalStateException e) {
                failures++;
            }
        }
        int chain = new Node(3).length();
        boolean rejected = false;
        try {
            new Node(-1);
        } catch (IllegalArgumentException e) {
            rejected = true;
        }
        System.out.println("hot sum=" + sum + " cold=" + cold + " failures=" + failures + " chain=" + chain
                + " rejected=" + rejected);
    }
}
