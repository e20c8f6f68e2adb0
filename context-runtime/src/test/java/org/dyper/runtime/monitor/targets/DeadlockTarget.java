package org.dyper.runtime.monitor.targets;

import java.util.concurrent.CountDownLatch;

/** A planted deadlock: thread deadlock-a holds a LockA and wants a LockB, deadlock-b the reverse. */
public final class DeadlockTarget {
    public static final class LockA {
    }

    public static final class LockB {
    }

    private DeadlockTarget() {
    }

    public static void main(String[] args) throws Exception {
        LockA a = new LockA();
        LockB b = new LockB();
        CountDownLatch bothHold = new CountDownLatch(2);
        Thread ta = new Thread(() -> {
            synchronized (a) {
                bothHold.countDown();
                await(bothHold);
                synchronized (b) {
                    System.out.println("never");
                }
            }
        }, "deadlock-a");
        Thread tb = new Thread(() -> {
            synchronized (b) {
                bothHold.countDown();
                await(bothHold);
                synchronized (a) {
                    System.out.println("never");
                }
            }
        }, "deadlock-b");
        ta.setDaemon(true);
        tb.setDaemon(true);
        ta.start();
        tb.start();
        bothHold.await();
        System.out.println("deadlock: started");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the end of stdin
        }
        System.out.println("deadlock: stopped");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
