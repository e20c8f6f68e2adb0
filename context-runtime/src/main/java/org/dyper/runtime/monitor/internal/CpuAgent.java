package org.dyper.runtime.monitor.internal;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.runtime.monitor.DyperAgent;

/**
 * The CPU agent: RUNNABLE threads' stacks attributed to methods, lines, classes and packages. A sample's self time
 * goes to its nearest non-system frame (system frames above it are not attributed directly); when one of the frames
 * from the top down to that frame belongs to an I/O class, the sample counts as I/O time. Total time counts each
 * distinct non-system method, line, class and package of the stack once. Times are estimates: samples × interval.
 * Lists are ranked by self CPU samples (SELF - IO), then TOTAL.
 */
public final class CpuAgent implements DyperAgent {
    public static final String NAME = "CPU";

    /** Counters of one item: samples and estimated nanoseconds, self and total, and I/O. */
    static final class Stat {
        long self;
        long total;
        long io;
        long selfNs;
        long totalNs;
        long ioNs;
    }

    static final class ThreadStat {
        String name;
        long samples;
        long runnable;
        long cpuNs = -1;
    }

    private final Settings settings;
    private final ClassTypes types;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Map<String, Stat> methods = new HashMap<>();
    private final Map<String, Stat> lines = new HashMap<>();
    private final Map<String, Stat> classes = new HashMap<>();
    private final Map<String, Stat> packages = new HashMap<>();
    private final Map<Long, ThreadStat> threads = new LinkedHashMap<>();
    private final Set<String> hotClasses = new HashSet<>();
    private final Set<String> hotMethods = new HashSet<>();
    private final Map<String, Boolean> forced = new HashMap<>();
    private long samples;
    private long sampleNs;
    private long ticks;
    private long systemOnly;
    private long ioSamples;
    private long ioNs;

    public CpuAgent(Settings settings, ClassTypes types) {
        this.settings = settings;
        this.types = types;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public synchronized void sample(ThreadInfo[] infos, long intervalNanos) {
        ticks++;
        boolean cpuTime = settings.bool("CPUTIME");
        Set<String> seen = new HashSet<>();
        for (ThreadInfo info : infos) {
            ThreadStat ts = threads.computeIfAbsent(info.getThreadId(), k -> new ThreadStat());
            ts.name = info.getThreadName();
            ts.samples++;
            if (cpuTime) {
                try {
                    long cpu = mx.getThreadCpuTime(info.getThreadId());
                    if (cpu >= 0) {
                        ts.cpuNs = cpu;
                    }
                } catch (UnsupportedOperationException ignored) {
                    // no thread CPU clock on this JVM: CPU_NS stays -1
                }
            }
            if (info.getThreadState() != Thread.State.RUNNABLE) {
                continue;
            }
            StackTraceElement[] stack = info.getStackTrace();
            if (stack.length == 0) {
                continue;
            }
            ts.runnable++;
            samples++;
            sampleNs += intervalNanos;
            int selfAt = -1;
            boolean io = false;
            for (int i = 0; i < stack.length; i++) {
                String c = stack[i].getClassName();
                if (types.io(c)) {
                    io = true;
                }
                if (!types.system(c)) {
                    selfAt = i;
                    break;
                }
            }
            if (io) {
                ioSamples++;
                ioNs += intervalNanos;
            }
            if (selfAt < 0) {
                systemOnly++;
                continue;
            }
            StackTraceElement self = stack[selfAt];
            String cls = self.getClassName();
            add(methods, methodKey(self), true, io, intervalNanos);
            add(lines, lineKey(self), true, io, intervalNanos);
            add(classes, cls, true, io, intervalNanos);
            add(packages, packageOf(cls), true, io, intervalNanos);
            seen.clear();
            for (int i = selfAt; i < stack.length; i++) {
                StackTraceElement f = stack[i];
                String c = f.getClassName();
                if (types.system(c)) {
                    continue;
                }
                String m = methodKey(f);
                if (seen.add("M" + m)) {
                    add(methods, m, false, false, intervalNanos);
                }
                String l = lineKey(f);
                if (seen.add("L" + l)) {
                    add(lines, l, false, false, intervalNanos);
                }
                if (seen.add("C" + c)) {
                    add(classes, c, false, false, intervalNanos);
                }
                String p = packageOf(c);
                if (seen.add("P" + p)) {
                    add(packages, p, false, false, intervalNanos);
                }
            }
        }
    }

    private static void add(Map<String, Stat> map, String key, boolean self, boolean io, long ns) {
        Stat s = map.computeIfAbsent(key, k -> new Stat());
        if (self) {
            s.self++;
            s.selfNs += ns;
            if (io) {
                s.io++;
                s.ioNs += ns;
            }
        } else {
            s.total++;
            s.totalNs += ns;
        }
    }

    static String methodKey(StackTraceElement f) {
        return f.getClassName() + "\u0000" + method(f);
    }

    static String lineKey(StackTraceElement f) {
        return f.getClassName() + "\u0000" + method(f) + "\u0000" + f.getLineNumber();
    }

    /** The method's name; AspectJ's {@code m_aroundBodyN} (the body of a method woven with around advice) is m. */
    static String method(StackTraceElement f) {
        String m = f.getMethodName();
        int at = m.lastIndexOf("_aroundBody");
        if (at > 0 && at + 11 < m.length() && m.substring(at + 11).chars().allMatch(Character::isDigit)) {
            return m.substring(0, at);
        }
        return m;
    }

    static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    @Override
    public synchronized void clear() {
        methods.clear();
        lines.clear();
        classes.clear();
        packages.clear();
        threads.clear();
        hotClasses.clear();
        hotMethods.clear();
        samples = sampleNs = ticks = systemOnly = ioSamples = ioNs = 0;
    }

    /** SETDETAIL: {@code Class#method} names a method, anything else a class. */
    @Override
    public synchronized boolean setDetail(String item, boolean on) {
        if (item == null || item.isBlank()) {
            return false;
        }
        forced.put(item.trim(), on);
        return true;
    }

    /** Applies the CLASS_/METHOD_DETAIL_* thresholds (with hysteresis) and the SETDETAIL overrides. */
    private void updateDetail() {
        update(classes, hotClasses, "CLASS", k -> k);
        update(methods, hotMethods, "METHOD", k -> k.replace('\u0000', '#'));
    }

    private void update(Map<String, Stat> stats, Set<String> hot, String kind,
            java.util.function.Function<String, String> display) {
        long minTotal = settings.longValue(kind + "_DETAIL_MIN_TOTAL");
        long minimum = settings.longValue(kind + "_DETAIL_MINIMUM");
        double start = settings.fraction(kind + "_DETAIL_THRESHOLD");
        double stop = settings.fraction(kind + "_DETAIL_STOP_THRESHOLD");
        for (Map.Entry<String, Stat> e : stats.entrySet()) {
            String name = display.apply(e.getKey());
            Stat s = e.getValue();
            long inclusive = s.total;
            double share = samples == 0 ? 0 : (double) inclusive / samples;
            if (samples >= minTotal && inclusive >= minimum && share >= start) {
                hot.add(name);
            } else if (hot.contains(name) && share < stop) {
                hot.remove(name);
            }
        }
        for (Map.Entry<String, Boolean> f : forced.entrySet()) {
            boolean method = f.getKey().contains("#");
            if (method == kind.equals("METHOD")) {
                if (f.getValue()) {
                    hot.add(f.getKey());
                } else {
                    hot.remove(f.getKey());
                }
            }
        }
    }

    /** Detailed items as {@code <CLASS NAME/>} and {@code <METHOD CLASS NAME/>} elements. */
    synchronized String detailXml() {
        updateDetail();
        StringBuilder x = new StringBuilder();
        x.append("<DETAIL AGENT='").append(NAME).append("'>");
        hotClasses.stream().sorted().forEach(c -> x.append("<CLASS NAME='").append(Xml.esc(c)).append("'/>"));
        hotMethods.stream().sorted().forEach(m -> {
            int hash = m.indexOf('#');
            x.append("<METHOD CLASS='").append(Xml.esc(m.substring(0, hash))).append("' NAME='")
                    .append(Xml.esc(m.substring(hash + 1))).append("'/>");
        });
        return x.append("</DETAIL>").toString();
    }

    @Override
    public synchronized String report() {
        updateDetail();
        StringBuilder x = new StringBuilder(8192);
        x.append("<CPU EXACT='false' SAMPLES='").append(samples).append("' TICKS='").append(ticks)
                .append("' ESTIMATED_NS='").append(sampleNs).append("' SYSTEM_ONLY='").append(systemOnly)
                .append("' IO_SAMPLES='").append(ioSamples).append("' IO_NS='").append(ioNs).append("'>");
        x.append("<THREADS>");
        for (Map.Entry<Long, ThreadStat> e : threads.entrySet()) {
            ThreadStat t = e.getValue();
            x.append("<THREAD ID='").append(e.getKey()).append("' NAME='").append(Xml.esc(t.name))
                    .append("' SAMPLES='").append(t.samples).append("' RUNNABLE='").append(t.runnable)
                    .append("' CPU_NS='").append(t.cpuNs).append("' CPU_EXACT='true'/>");
        }
        x.append("</THREADS>");
        section(x, "PACKAGES", "PACKAGE", packages, k -> "NAME='" + Xml.esc(k) + "'", null);
        section(x, "CLASSES", "CLASS", classes, k -> "NAME='" + Xml.esc(k) + "'", hotClasses::contains);
        section(x, "METHODS", "METHOD", methods, k -> {
            String[] p = k.split("\u0000", -1);
            return "CLASS='" + Xml.esc(p[0]) + "' NAME='" + Xml.esc(p[1]) + "'";
        }, k -> hotMethods.contains(k.replace('\u0000', '#')));
        section(x, "LINES", "LINE", lines, k -> {
            String[] p = k.split("\u0000", -1);
            return "CLASS='" + Xml.esc(p[0]) + "' METHOD='" + Xml.esc(p[1]) + "' LINE='" + p[2] + "'";
        }, null);
        return x.append("</CPU>").toString();
    }

    private static void section(StringBuilder x, String outer, String inner, Map<String, Stat> stats,
            java.util.function.Function<String, String> names, java.util.function.Predicate<String> detailed) {
        List<Map.Entry<String, Stat>> list = new ArrayList<>(stats.entrySet());
        list.sort(Comparator.<Map.Entry<String, Stat>>comparingLong(e -> e.getValue().self - e.getValue().io)
                .reversed()
                .thenComparing(Comparator.<Map.Entry<String, Stat>>comparingLong(e -> e.getValue().total).reversed())
                .thenComparing(Map.Entry::getKey));
        x.append('<').append(outer).append('>');
        for (Map.Entry<String, Stat> e : list) {
            Stat s = e.getValue();
            x.append('<').append(inner).append(' ').append(names.apply(e.getKey())).append(" SELF='").append(s.self)
                    .append("' TOTAL='").append(s.total).append("' IO='").append(s.io)
                    .append("' SELF_NS='").append(s.selfNs).append("' TOTAL_NS='").append(s.totalNs)
                    .append("' IO_NS='").append(s.ioNs).append('\'');
            if (detailed != null) {
                x.append(" DETAIL='").append(detailed.test(e.getKey())).append('\'');
            }
            x.append("/>");
        }
        x.append("</").append(outer).append('>');
    }
}
