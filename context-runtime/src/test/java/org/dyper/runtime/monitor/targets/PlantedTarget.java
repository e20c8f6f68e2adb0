package org.dyper.runtime.monitor.targets;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Planted paths for the stack views, one per mode (the first argument); it stops when its stdin ends.
 * <ul>
 * <li>{@code hot}: {@link #work} is the hot method, reached from {@link #hotCaller} (nine calls in ten) and from
 * {@link #coldCaller} (one in ten), on thread {@code planted-hot}.</li>
 * <li>{@code sync}: four threads {@code planted-lock-N} contend for a {@link SyncLock} in {@link #syncStep}.</li>
 * <li>{@code reentrant}: the same with a {@link ReentrantLock} in {@link #reentrantStep}.</li>
 * <li>{@code alloc}: {@link #fill} allocates {@code long[512]} arrays, called from {@link #allocCaller} on thread
 * {@code planted-alloc}.</li>
 * <li>{@code io}: socket I/O over loopback and little else: {@code planted-io-writer} writes 64 KB blocks that
 * {@code planted-io-reader} reads, so both spend their CPU time in native socket reads and writes.</li>
 * </ul>
 */
public final class PlantedTarget {
    /** The planted contended monitor's class. */
    public static final class SyncLock {
    }

    static final SyncLock SYNC = new SyncLock();
    static final ReentrantLock REENTRANT = new ReentrantLock();
    static volatile boolean stop;
    static volatile long sink;
    static final long[][] KEEP = new long[64][];

    private PlantedTarget() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        switch (mode) {
            case "hot" -> start("planted-hot", PlantedTarget::hotAndCold);
            case "sync", "reentrant" -> {
                for (int i = 0; i < 4; i++) {
                    start("planted-lock-" + i, mode.equals("sync") ? PlantedTarget::syncWorker
                            : PlantedTarget::reentrantWorker);
                }
            }
            case "alloc" -> start("planted-alloc", PlantedTarget::allocLoop);
            case "io" -> socketPair();
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("planted " + mode + ": started");
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for the end of stdin
        }
        stop = true;
        System.out.println("planted " + mode + ": stopped");
    }

    private static void socketPair() throws java.io.IOException {
        java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        java.net.Socket out = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.getLocalPort());
        java.net.Socket in = server.accept();
        start("planted-io-writer", () -> {
            byte[] block = new byte[64 * 1024];
            try (out) {
                while (!stop) {
                    out.getOutputStream().write(block);
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        start("planted-io-reader", () -> {
            byte[] block = new byte[64 * 1024];
            long read = 0;
            try (in) {
                for (int n; (n = in.getInputStream().read(block)) >= 0; ) {
                    read += n;
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            sink = read;
        });
    }

    private static void start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }

    private static void hotAndCold() {
        long n = 0;
        while (!stop) {
            if (n++ % 10 == 0) {
                coldCaller();
            } else {
                hotCaller();
            }
        }
    }

    static void hotCaller() {
        sink += work(sink);
    }

    static void coldCaller() {
        sink -= work(sink);
    }

    /** The hot method: its loop is where the CPU goes. */
    static long work(long seed) {
        long h = seed;
        for (int i = 0; i < 20_000; i++) {
            h = h * 0x9E3779B97F4A7C15L + i;
            h ^= h >>> 29;
        }
        return h;
    }

    private static void syncWorker() {
        while (!stop) {
            syncStep();
        }
    }

    static void syncStep() {
        synchronized (SYNC) {
            sink += spinMillis(2);
        }
    }

    private static void reentrantWorker() {
        while (!stop) {
            reentrantStep();
        }
    }

    static void reentrantStep() {
        REENTRANT.lock();
        try {
            sink += spinMillis(2);
        } finally {
            REENTRANT.unlock();
        }
    }

    private static long spinMillis(long ms) {
        long end = System.nanoTime() + ms * 1_000_000;
        long h = 0;
        while (System.nanoTime() < end) {
            h = h * 31 + 7;
        }
        return h;
    }

    private static void allocLoop() {
        int i = 0;
        while (!stop) {
            allocCaller(i++);
        }
    }

    static void allocCaller(int i) {
        fill(i);
    }

    /** The allocation-heavy method: a {@code long[512]} per call, some kept so that they escape. */
    static void fill(int i) {
        long[] a = new long[512];
        a[i & 511] = i;
        KEEP[i & 63] = a;
    }
}
