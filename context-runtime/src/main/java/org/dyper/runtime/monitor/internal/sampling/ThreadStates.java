package org.dyper.runtime.monitor.internal.sampling;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a thread really does, beyond the JVM's state: a RUNNABLE thread whose top frame is a native method is
 * {@code NATIVE} (blocked in native code: a socket read, a poll, the Reference Handler's wait; a RUNNABLE thread with
 * no Java frame at all is a JVM service thread waiting in the VM, NATIVE too) unless its CPU clock
 * moved by at least a quarter of the time since the previous dump (then it computes in native code, e.g. a
 * compression library, and is {@code RUNNING}). Other states are the JVM's ({@code RUNNABLE} becomes {@code RUNNING}).
 */
public final class ThreadStates {
    /** What a sampled thread is doing. */
    public enum Activity {
        RUNNING, NATIVE, BLOCKED, WAITING, TIMED_WAITING, NEW, TERMINATED;

        boolean running() {
            return this == RUNNING;
        }
    }

    private record Seen(long wallNs, long cpuNs) {
    }

    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Map<Long, Seen> inNative = new HashMap<>();
    private Map<Long, Activity> last = Map.of();

    /** Classifies every thread of one dump taken at {@code nowNs}, and remembers CPU clocks for the next one. */
    synchronized Map<Long, Activity> update(ThreadInfo[] infos, long nowNs, boolean cpuClock) {
        Map<Long, Activity> out = new HashMap<>();
        Set<Long> present = new HashSet<>();
        for (ThreadInfo i : infos) {
            long id = i.getThreadId();
            present.add(id);
            Activity a = jvm(i);
            if (a == Activity.NATIVE) {
                long cpu = cpuClock ? cpu(id) : -1;
                Seen before = inNative.get(id);
                if (cpu >= 0) {
                    if (before != null && before.cpuNs() >= 0 && (cpu - before.cpuNs()) * 4 >= nowNs - before.wallNs()) {
                        a = Activity.RUNNING;
                    }
                    inNative.put(id, new Seen(nowNs, cpu));
                }
            } else {
                inNative.remove(id);
            }
            out.put(id, a);
        }
        inNative.keySet().retainAll(present);
        last = out;
        return out;
    }

    /** One thread's activity for a stack dump, with what the last update learnt of its CPU clock. */
    synchronized Activity peek(ThreadInfo i) {
        Activity a = jvm(i);
        return a == Activity.NATIVE && last.get(i.getThreadId()) == Activity.RUNNING ? Activity.RUNNING : a;
    }

    private long cpu(long id) {
        try {
            return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(id) : -1;
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    /** The activity the dump alone shows: RUNNABLE in a native method is NATIVE. */
    public static Activity jvm(ThreadInfo i) {
        return switch (i.getThreadState()) {
            case RUNNABLE -> {
                StackTraceElement[] s = i.getStackTrace();
                // no Java frame at all: a JVM service thread (Signal Dispatcher, Notification Thread) waiting in the VM
                yield s.length == 0 || s[0].isNativeMethod() ? Activity.NATIVE : Activity.RUNNING;
            }
            case BLOCKED -> Activity.BLOCKED;
            case WAITING -> Activity.WAITING;
            case TIMED_WAITING -> Activity.TIMED_WAITING;
            case NEW -> Activity.NEW;
            case TERMINATED -> Activity.TERMINATED;
        };
    }
}
