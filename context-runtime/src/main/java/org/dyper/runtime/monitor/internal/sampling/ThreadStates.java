package org.dyper.runtime.monitor.internal.sampling;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a thread really does, beyond the JVM's state, from thread information and the threads' CPU clocks. A RUNNABLE
 * thread in native code is {@code NATIVE} (blocked there: a socket read, a poll) unless its CPU clock moved by at
 * least a quarter of the time since the previous look (then it computes in native code, e.g. a compression library,
 * and is {@code RUNNING}). In native code means: its top frame is a native method, in a thread dump with stacks;
 * {@link ThreadInfo#isInNative()} in thread information without stacks (which needs no safepoint). A RUNNABLE thread
 * with no Java frame at all in a dump, or, without stacks, one outside native code whose CPU clock did not move at
 * all since the previous look, is a thread waiting in the VM (the Reference Handler, Signal Dispatcher): NATIVE too.
 * Other states are the JVM's ({@code RUNNABLE} becomes {@code RUNNING}). Also keeps the recent CPU clock readings
 * ({@link CpuClocks}) for weighing the recorder's native method samples.
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
    private final Map<Long, Seen> seen = new HashMap<>();
    private Map<Long, Activity> last = Map.of();
    final CpuClocks clocks = new CpuClocks();
    /**
     * Per thread that appeared after the first look: where its CPU clock started, as far as the monitor can tell. 0
     * when its clock, at the look that first saw it, showed no more than the time since the previous look (it started
     * in between); else that reading: its clock predates the Java thread (the launcher's main thread becomes
     * {@code DestroyJavaVM} under a new id when {@code main} returns, with all of main's CPU time on its clock).
     */
    private final Map<Long, Long> origins = new HashMap<>();
    /** The threads of the previous look, and when it was taken (before the first: when the monitor was made). */
    private Set<Long> previous;
    private long previousNs = System.nanoTime();

    /** Classifies every thread of one thread dump (with stacks) taken at {@code nowNs}. */
    Map<Long, Activity> update(ThreadInfo[] infos, long nowNs, boolean cpuClock) {
        return update(infos, nowNs, cpuClock, true);
    }

    Map<Long, Activity> update(ThreadInfo[] infos, long nowNs, boolean cpuClock, boolean stacks) {
        return update(infos, nowNs, cpuClock, stacks, false);
    }

    /**
     * Classifies every thread of one look at them taken at {@code nowNs} ({@code stacks}: a thread dump; else thread
     * information without frames), and remembers CPU clocks for the next one: without frames every thread's, in a
     * dump those of threads in native code, or every thread's with {@code allClocks} (the recorder's weighing needs
     * them from its start on, while thread dumps still sample or WALL wants frames).
     */
    synchronized Map<Long, Activity> update(ThreadInfo[] infos, long nowNs, boolean cpuClock, boolean stacks,
            boolean allClocks) {
        Map<Long, Activity> out = new HashMap<>();
        Set<Long> present = new HashSet<>();
        long epochNs = CpuClocks.epochNanos();
        int inNative = 0;
        int inJava = 0;
        for (ThreadInfo i : infos) {
            long id = i.getThreadId();
            present.add(id);
            Activity a = stacks ? jvm(i) : withoutStack(i);
            if (i.isInNative()) {
                inNative++;
            } else if (i.getThreadState() == Thread.State.RUNNABLE) {
                inJava++;
            }
            long cpu = cpuClock && (a == Activity.NATIVE || !stacks || allClocks) ? cpu(id) : -1;
            Seen before = seen.get(id);
            if (cpu >= 0) {
                boolean known = before != null && before.cpuNs() >= 0;
                long moved = known ? cpu - before.cpuNs() : -1;
                if (a == Activity.NATIVE && known && moved * 4 >= nowNs - before.wallNs()) {
                    a = Activity.RUNNING;
                } else if (!stacks && a == Activity.RUNNING && !i.isInNative() && known && moved == 0) {
                    a = Activity.NATIVE;
                }
                seen.put(id, new Seen(nowNs, cpu));
                clocks.add(id, epochNs, cpu);
            } else if (a != Activity.NATIVE) {
                seen.remove(id);
            }
            out.put(id, a);
        }
        clocks.natives(epochNs, inNative);
        clocks.javas(epochNs, inJava);
        seen.keySet().retainAll(present);
        clocks.retain(present);
        for (ThreadInfo i : infos) {
            long id = i.getThreadId();
            if (cpuClock && (previous == null ? !origins.containsKey(id) : !previous.contains(id))) {
                long cpu = cpu(id);
                if (cpu >= 0) {
                    origins.put(id, cpu <= nowNs - previousNs ? 0 : cpu);
                }
            }
        }
        origins.keySet().retainAll(present);
        previous = present;
        previousNs = nowNs;
        last = out;
        return out;
    }

    /**
     * Where the thread's CPU clock started as far as the looks tell ({@link #origins}): 0, or its clock when first
     * seen; null for a thread the first look saw (it may have run long before) or one not seen yet.
     */
    synchronized Long origin(long threadId) {
        return origins.get(threadId);
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
            default -> notRunnable(i);
        };
    }

    /** The activity thread information without frames shows: RUNNABLE in native code is NATIVE. */
    static Activity withoutStack(ThreadInfo i) {
        return i.getThreadState() == Thread.State.RUNNABLE
                ? i.isInNative() ? Activity.NATIVE : Activity.RUNNING : notRunnable(i);
    }

    private static Activity notRunnable(ThreadInfo i) {
        return switch (i.getThreadState()) {
            case BLOCKED -> Activity.BLOCKED;
            case WAITING -> Activity.WAITING;
            case TIMED_WAITING -> Activity.TIMED_WAITING;
            case NEW -> Activity.NEW;
            case TERMINATED -> Activity.TERMINATED;
            case RUNNABLE -> Activity.RUNNING;
        };
    }
}
