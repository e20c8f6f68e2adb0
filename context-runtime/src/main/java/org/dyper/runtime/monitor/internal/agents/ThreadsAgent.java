package org.dyper.runtime.monitor.internal.agents;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.monitor.internal.sampling.ThreadStates;
import org.dyper.runtime.wire.Xml;

/**
 * The threads and contention agent: each sampled thread's state over time (samples per {@link ThreadStates.Activity},
 * an estimate: a thread blocked in native code is NATIVE, not RUNNING), the JVM's
 * exact blocked and waited counts (and times when CONTENTION is on), per monitor the threads sampled BLOCKED on it
 * and its owners, and deadlocks ({@code ThreadMXBean.findDeadlockedThreads}).
 */
public final class ThreadsAgent implements DyperAgent {
    public static final String NAME = "THREADS";

    static final class PerThread {
        String name;
        final EnumMap<ThreadStates.Activity, Long> states = new EnumMap<>(ThreadStates.Activity.class);
        long blockedCount;
        long blockedTimeMs = -1;
        long waitedCount;
        long waitedTimeMs = -1;
        long firstBlockedCount = -1;
        long firstWaitedCount = -1;
    }

    static final class PerMonitor {
        long samples;
        long ns;
        long episodes;
        final Map<String, Long> blocked = new TreeMap<>();
        final Map<String, Long> owners = new TreeMap<>();
    }

    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Map<Long, PerThread> threads = new LinkedHashMap<>();
    private final Map<String, PerMonitor> monitors = new LinkedHashMap<>();
    private final Map<Long, String> lastBlockedOn = new java.util.HashMap<>();
    private long ticks;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void sample(ThreadInfo[] infos, long intervalNanos) {
        sample(infos, intervalNanos, Map.of());
    }

    /** One dump, with what each thread was really doing ({@link ThreadStates}); threads not in it: from the dump. */
    public synchronized void sample(ThreadInfo[] infos, long intervalNanos, Map<Long, ThreadStates.Activity> activities) {
        ticks++;
        java.util.Set<Long> present = new java.util.HashSet<>();
        for (ThreadInfo info : infos) {
            long id = info.getThreadId();
            present.add(id);
            PerThread t = threads.computeIfAbsent(id, k -> new PerThread());
            t.name = info.getThreadName();
            ThreadStates.Activity a = activities.get(id);
            t.states.merge(a == null ? ThreadStates.jvm(info) : a, 1L, Long::sum);
            t.blockedCount = info.getBlockedCount();
            t.blockedTimeMs = info.getBlockedTime();
            t.waitedCount = info.getWaitedCount();
            t.waitedTimeMs = info.getWaitedTime();
            if (t.firstBlockedCount < 0) {
                t.firstBlockedCount = t.blockedCount;
                t.firstWaitedCount = t.waitedCount;
            }
            if (info.getThreadState() == Thread.State.BLOCKED && info.getLockName() != null) {
                String lock = info.getLockName();
                PerMonitor m = monitors.computeIfAbsent(lock, k -> new PerMonitor());
                m.samples++;
                m.ns += intervalNanos;
                if (!lock.equals(lastBlockedOn.get(id))) {
                    m.episodes++;
                }
                lastBlockedOn.put(id, lock);
                m.blocked.merge(info.getThreadName(), 1L, Long::sum);
                if (info.getLockOwnerName() != null) {
                    m.owners.merge(info.getLockOwnerName(), 1L, Long::sum);
                }
            } else {
                lastBlockedOn.remove(id);
            }
        }
        lastBlockedOn.keySet().retainAll(present);
    }

    @Override
    public synchronized void clear() {
        threads.clear();
        monitors.clear();
        lastBlockedOn.clear();
        ticks = 0;
    }

    @Override
    public synchronized String report() {
        StringBuilder x = new StringBuilder(4096);
        x.append("<CONTENTION TICKS='").append(ticks).append("' CONTENTION_MONITORING='")
                .append(contentionOn()).append("'>");
        x.append("<THREADS>");
        for (Map.Entry<Long, PerThread> e : threads.entrySet()) {
            PerThread t = e.getValue();
            x.append("<THREAD ID='").append(e.getKey()).append("' NAME='").append(Xml.esc(t.name))
                    .append("' BLOCKED_COUNT='").append(t.blockedCount)
                    .append("' BLOCKED_MS='").append(t.blockedTimeMs)
                    .append("' WAITED_COUNT='").append(t.waitedCount)
                    .append("' WAITED_MS='").append(t.waitedTimeMs)
                    .append("' COUNTS_EXACT='true'>");
            for (Map.Entry<ThreadStates.Activity, Long> s : t.states.entrySet()) {
                x.append("<STATE NAME='").append(s.getKey()).append("' SAMPLES='").append(s.getValue())
                        .append("' EXACT='false'/>");
            }
            x.append("</THREAD>");
        }
        x.append("</THREADS>");
        List<Map.Entry<String, PerMonitor>> list = new ArrayList<>(monitors.entrySet());
        list.sort(Comparator.<Map.Entry<String, PerMonitor>>comparingLong(e -> e.getValue().samples).reversed()
                .thenComparing(Map.Entry::getKey));
        x.append("<MONITORS EXACT='false'>");
        for (Map.Entry<String, PerMonitor> e : list) {
            PerMonitor m = e.getValue();
            String name = e.getKey();
            int at = name.lastIndexOf('@');
            x.append("<MONITOR NAME='").append(Xml.esc(name)).append("' CLASS='")
                    .append(Xml.esc(at < 0 ? name : name.substring(0, at))).append("' BLOCKED_SAMPLES='")
                    .append(m.samples).append("' BLOCKED_EPISODES='").append(m.episodes).append("' BLOCKED_NS='")
                    .append(m.ns).append("'>");
            for (Map.Entry<String, Long> b : m.blocked.entrySet()) {
                x.append("<BLOCKED THREAD='").append(Xml.esc(b.getKey())).append("' SAMPLES='").append(b.getValue())
                        .append("'/>");
            }
            for (Map.Entry<String, Long> o : m.owners.entrySet()) {
                x.append("<OWNER THREAD='").append(Xml.esc(o.getKey())).append("' SAMPLES='").append(o.getValue())
                        .append("'/>");
            }
            x.append("</MONITOR>");
        }
        x.append("</MONITORS>");
        x.append(deadlocks());
        return x.append("</CONTENTION>").toString();
    }

    private boolean contentionOn() {
        try {
            return mx.isThreadContentionMonitoringEnabled();
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /** The deadlocks of the JVM now: each cycle of threads with the lock each waits for and who holds it. */
    static String deadlocks() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] ids = mx.isSynchronizerUsageSupported() ? mx.findDeadlockedThreads() : mx.findMonitorDeadlockedThreads();
        StringBuilder x = new StringBuilder("<DEADLOCKS EXACT='true' COUNT='");
        if (ids == null) {
            return x.append("0'/>").toString();
        }
        ThreadInfo[] infos = mx.getThreadInfo(ids, false, false);
        Map<Long, ThreadInfo> byId = new TreeMap<>();
        for (ThreadInfo i : infos) {
            if (i != null) {
                byId.put(i.getThreadId(), i);
            }
        }
        List<List<ThreadInfo>> cycles = new ArrayList<>();
        java.util.Set<Long> done = new java.util.HashSet<>();
        for (ThreadInfo start : byId.values()) {
            if (done.contains(start.getThreadId())) {
                continue;
            }
            List<ThreadInfo> cycle = new ArrayList<>();
            ThreadInfo t = start;
            while (t != null && done.add(t.getThreadId())) {
                cycle.add(t);
                t = byId.get(t.getLockOwnerId());
            }
            cycles.add(cycle);
        }
        x.append(cycles.size()).append("'>");
        for (List<ThreadInfo> cycle : cycles) {
            x.append("<DEADLOCK>");
            for (ThreadInfo t : cycle) {
                x.append("<THREAD ID='").append(t.getThreadId()).append("' NAME='").append(Xml.esc(t.getThreadName()))
                        .append("' WAITS_FOR='").append(Xml.esc(t.getLockName())).append("' HELD_BY='")
                        .append(Xml.esc(t.getLockOwnerName())).append("'/>");
            }
            x.append("</DEADLOCK>");
        }
        return x.append("</DEADLOCKS>").toString();
    }
}
