package org.dyper.runtime.monitor.targets;

/** Four threads fighting over one monitor, an instance of {@link ContendedLock}; stops when stdin ends. */
public final class ContentionTarget {
    /** The planted contended monitor: its class names it in lock names. */
    public static final class ContendedLock {
    }

    static final ContendedLock LOCK = new ContendedLock();
    static volatile boolean stop;
    static volatile long sink;

    private ContentionTarget() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(ContentionTarget::work, "contender-" + i);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("contention: started");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the end of stdin
        }
        stop = true;
        System.out.println("contention: stopped");
    }

    private static void work() {
        while (!stop) {
            synchronized (LOCK) {
                long h = sink;
                for (int i = 0; i < 200_000; i++) {
                    h = h * 31 + i;
                }
                sink = h;
            }
        }
    }
}
