package org.dyper.runtime.monitor.internal.agents;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.wire.Xml;

/**
 * GC pauses and thread lifecycle (the event families of seed 004): from the flight recorder, every collection with
 * its collector, cause and pauses, and every thread start and end; without it, the JVM's management counters. All
 * figures are exact counts of what happened while the monitor watched (the MXBean counters: since the JVM started).
 * Memory is bounded: the last 16 pauses and the last 256 threads are listed.
 */
public final class JvmAgent implements DyperAgent {
    static final String NAME = "JVM";
    private static final int PAUSES = 16;
    private static final int THREADS = 256;

    private record Pause(long startMillis, String collector, String cause, long pauseNs) {
    }

    private static final class Life {
        String name;
        String parent = "";
        long start = -1;
        long end = -1;
    }

    private boolean fromRecorder;
    private long collections;
    private long pauseNs;
    private long longestNs;
    private final Map<String, long[]> collectors = new TreeMap<>();
    private final Map<String, long[]> causes = new TreeMap<>();
    private final ArrayDeque<Pause> recent = new ArrayDeque<>();
    private long started;
    private long ended;
    private long forgotten;
    private final Map<Long, Life> lives = new LinkedHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    /** Thread dumps teach nothing here: the counters are read when a report is made. */
    @Override
    public void sample(ThreadInfo[] threads, long intervalNanos) {
    }

    public synchronized void recorderStarted() {
        fromRecorder = true;
    }

    public synchronized void gc(String collector, String cause, long pause, long longest, long startMillis) {
        collections++;
        pauseNs += pause;
        longestNs = Math.max(longestNs, longest);
        count(collectors, collector, pause, longest);
        count(causes, cause, pause, longest);
        recent.addLast(new Pause(startMillis, collector == null ? "?" : collector, cause == null ? "?" : cause, pause));
        if (recent.size() > PAUSES) {
            recent.removeFirst();
        }
    }

    private static void count(Map<String, long[]> map, String key, long pause, long longest) {
        long[] c = map.computeIfAbsent(key == null ? "?" : key, k -> new long[3]);
        c[0]++;
        c[1] += pause;
        c[2] = Math.max(c[2], longest);
    }

    public synchronized void threadStart(long id, String name, String parent, long millis) {
        started++;
        Life l = life(id);
        l.name = name;
        l.parent = parent;
        l.start = millis;
    }

    public synchronized void threadEnd(long id, String name, long millis) {
        ended++;
        Life l = life(id);
        l.name = name;
        l.end = millis;
    }

    private Life life(long id) {
        Life l = lives.get(id);
        if (l == null) {
            l = new Life();
            lives.put(id, l);
            if (lives.size() > THREADS) {
                Iterator<Long> oldest = lives.keySet().iterator();
                oldest.next();
                oldest.remove();
                forgotten++;
            }
        }
        return l;
    }

    @Override
    public synchronized void clear() {
        collections = pauseNs = longestNs = started = ended = forgotten = 0;
        collectors.clear();
        causes.clear();
        recent.clear();
        lives.clear();
    }

    @Override
    public synchronized String report() {
        StringBuilder x = new StringBuilder(4096);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (fromRecorder) {
            x.append("<GC EXACT='true' SOURCE='JFR' COLLECTIONS='").append(collections).append("' PAUSE_NS='")
                    .append(pauseNs).append("' LONGEST_PAUSE_NS='").append(longestNs).append("'>");
            counts(x, "COLLECTOR", collectors);
            counts(x, "CAUSE", causes);
            for (Pause p : recent) {
                x.append("<PAUSE TIME='").append(p.startMillis()).append("' COLLECTOR='").append(Xml.esc(p.collector()))
                        .append("' CAUSE='").append(Xml.esc(p.cause())).append("' PAUSE_NS='").append(p.pauseNs())
                        .append("'/>");
            }
        } else {
            long count = 0;
            long ms = 0;
            StringBuilder rows = new StringBuilder();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                long c = Math.max(0, gc.getCollectionCount());
                long t = Math.max(0, gc.getCollectionTime());
                count += c;
                ms += t;
                rows.append("<COLLECTOR NAME='").append(Xml.esc(gc.getName())).append("' COLLECTIONS='").append(c)
                        .append("' PAUSE_NS='").append(t * 1_000_000).append("' LONGEST_PAUSE_NS='-1'/>");
            }
            x.append("<GC EXACT='true' SOURCE='MXBEAN' COLLECTIONS='").append(count).append("' PAUSE_NS='")
                    .append(ms * 1_000_000).append("' LONGEST_PAUSE_NS='-1'>").append(rows);
        }
        x.append("</GC>");
        x.append("<LIFECYCLE EXACT='true' SOURCE='").append(fromRecorder ? "JFR" : "MXBEAN").append("' STARTED='")
                .append(fromRecorder ? started : mx.getTotalStartedThreadCount()).append("' ENDED='")
                .append(fromRecorder ? ended : -1).append("' LIVE='").append(mx.getThreadCount()).append("' PEAK='")
                .append(mx.getPeakThreadCount()).append("' DAEMON='").append(mx.getDaemonThreadCount())
                .append("' FORGOTTEN='").append(forgotten).append("'>");
        for (Map.Entry<Long, Life> e : lives.entrySet()) {
            Life l = e.getValue();
            x.append("<THREAD ID='").append(e.getKey()).append("' NAME='").append(Xml.esc(l.name)).append("' PARENT='")
                    .append(Xml.esc(l.parent)).append("' START='").append(l.start).append("' END='").append(l.end)
                    .append("'/>");
        }
        return x.append("</LIFECYCLE>").toString();
    }

    private static void counts(StringBuilder x, String tag, Map<String, long[]> map) {
        for (Map.Entry<String, long[]> e : map.entrySet()) {
            long[] c = e.getValue();
            x.append('<').append(tag).append(" NAME='").append(Xml.esc(e.getKey())).append("' COLLECTIONS='")
                    .append(c[0]).append("' PAUSE_NS='").append(c[1]).append("' LONGEST_PAUSE_NS='").append(c[2])
                    .append("'/>");
        }
    }
}
