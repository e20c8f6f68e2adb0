package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.CountDownLatch;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.Test;

/** SHOWSTACK keeps every frame's file and line, and says what a thread does. */
class StackDumpTest {
    @Test
    void framesKeepTheirFilesAndLines() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        Object lock = new Object();
        Thread waiter = new Thread(() -> {
            synchronized (lock) {
                started.countDown();
                try {
                    lock.wait();
                } catch (InterruptedException ignored) {
                    // the test ends
                }
            }
        }, "test-waiter");
        waiter.start();
        started.await();
        ThreadInfo info = Await.until("test-waiter in Object.wait", () -> ManagementFactory.getThreadMXBean()
                .getThreadInfo(new long[] {waiter.getId()}, false, false)[0],
                i -> i.getThreadState() == Thread.State.WAITING, Await.MINUTE);
        String x = StackDump.xml(new ThreadInfo[] {info}, new ThreadStates());
        waiter.interrupt();
        waiter.join();
        assertTrue(x.startsWith("<THREADS><THREAD ID='" + waiter.getId() + "' NAME='test-waiter' STATE='WAITING' "
                + "ACTIVITY='WAITING'"), x);
        int stacks = 0;
        for (StackTraceElement e : info.getStackTrace()) {
            String expected = "<STACK CLASS='" + e.getClassName() + "' METHOD='" + e.getMethodName() + "' LINE='"
                    + e.getLineNumber() + "'" + (e.getFileName() == null ? "" : " FILE='" + e.getFileName() + "'")
                    + (e.isNativeMethod() ? " NATIVE='true'" : "") + "/>";
            assertTrue(x.contains(expected), expected + " in " + x);
            stacks++;
        }
        assertEquals(stacks, x.split("<STACK ", -1).length - 1);
    }
}
