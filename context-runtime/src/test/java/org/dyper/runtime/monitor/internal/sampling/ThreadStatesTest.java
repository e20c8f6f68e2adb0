package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.dyper.testsupport.Await;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A thread blocked in native code (a socket accept) or waiting in the VM (the Reference Handler) is not running; a
 * spinning one is: from thread dumps (frames) and from thread information without frames (no safepoint).
 */
class ThreadStatesTest {
    static volatile boolean stop;
    static volatile long sink;

    @ParameterizedTest(name = "frames: {0}")
    @ValueSource(ints = {8, 0})
    void blockedInNativeCodeIsNotRunning(int depth) throws Exception {
        stop = false;
        CountDownLatch started = new CountDownLatch(2);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread accept = new Thread(() -> {
                started.countDown();
                try {
                    server.accept().close();
                } catch (Exception ignored) {
                    // closed by the test
                }
            }, "test-accept");
            Thread spin = new Thread(() -> {
                started.countDown();
                long h = 0;
                while (!stop) {
                    h = h * 31 + 7;
                    sink = h;
                }
            }, "test-spin");
            accept.start();
            spin.start();
            started.await();
            var mx = ManagementFactory.getThreadMXBean();
            Await.until("test-accept in its native accept", () -> mx.getThreadInfo(accept.getId(), 8),
                    i -> ThreadStates.jvm(i) == ThreadStates.Activity.NATIVE, Await.MINUTE);
            ThreadStates states = new ThreadStates();
            // as while the recorder starts: thread dumps sample, and every thread's clock is read for its weighing
            ThreadStates allClocks = new ThreadStates();
            long[] ids = {accept.getId(), spin.getId(), referenceHandler()};
            states.update(mx.getThreadInfo(ids, depth), System.nanoTime(), true, depth > 0);
            allClocks.update(mx.getThreadInfo(ids, depth), System.nanoTime(), true, depth > 0, true);
            // between the two dumps, time passes as the spinning thread computes (50 ms of its CPU time)
            long spun = mx.getThreadCpuTime(spin.getId());
            Await.until("test-spin computing 50 ms", () -> mx.getThreadCpuTime(spin.getId()) - spun,
                    ns -> ns >= 50_000_000L, Await.MINUTE);
            ThreadInfo[] infos = mx.getThreadInfo(ids, depth);
            Map<Long, ThreadStates.Activity> a = states.update(infos, System.nanoTime(), true, depth > 0);
            assertEquals(a, allClocks.update(infos, System.nanoTime(), true, depth > 0, true));
            // a running thread's clock: read without frames, and in a dump only when asked for
            assertEquals(depth == 0, states.clocks.latest().containsKey(spin.getId()));
            assertEquals(true, allClocks.clocks.latest().containsKey(spin.getId()));
            assertEquals(Thread.State.RUNNABLE, infos[0].getThreadState(), "the JVM says RUNNABLE");
            assertEquals(ThreadStates.Activity.NATIVE, a.get(accept.getId()));
            assertEquals(ThreadStates.Activity.RUNNING, a.get(spin.getId()));
            assertEquals(ThreadStates.Activity.NATIVE, a.get(referenceHandler()));
            assertEquals(ThreadStates.Activity.NATIVE, states.peek(infos[0]));
            stop = true;
            spin.join();
        }
    }

    private static long referenceHandler() {
        for (ThreadInfo i : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false, 1)) {
            if (i.getThreadName().equals("Reference Handler")) {
                return i.getThreadId();
            }
        }
        throw new AssertionError("no Reference Handler");
    }
}
