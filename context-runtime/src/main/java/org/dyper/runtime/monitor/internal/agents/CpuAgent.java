package org.dyper.runtime.monitor.internal.agents;

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
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.monitor.internal.Settings;
import org.dyper.runtime.monitor.internal.sampling.Frame;
import org.dyper.runtime.monitor.internal.sampling.FrameNames;
import org.dyper.runtime.wire.Xml;

/**
 * The CPU agent: CPU samples of running threads attributed to methods, lines, classes and packages. A sample's self
 * time goes to its nearest frame that is not of a SYSTEM class, or is Dyper's or AspectJ's own (so measuring shows
 * as its own cost); when one of the frames from the top down to that frame belongs to an I/O class, the sample counts
 * as I/O time. Total time counts each distinct non-system method, line, class and package of the stack once. Times
 * are estimates: samples × the time a sample stands for. Lists are ranked by self CPU samples (SELF - IO), then TOTAL.
 * The detailing thresholds decide on the samples of the recent window (DETAIL_WINDOW), the report shows all of them.
 */
public final class CpuAgent implements DyperAgent {
    public static final String NAME = "CPU";

    /** Counters of one item: samples and estimated nanoseconds, self and total, and I/O; methods and classes also
     * their TOTAL samples of the recent window (null until they have one). */
    static final class Stat {
        long self;
        long total;
        long io;
        long selfNs;
        long totalNs;
        long ioNs;
        RecentSamples recent;

        long recent(long slot) {
            return recent == null ? 0 : recent.sum(slot);
        }
    }

    static final class ThreadStat {
        String name;
        long samples;
        long running;
        long cpuNs = -1;
    }

    private record MethodKey(String className, String method) {
        String item() {
            return className + "#" + method;
        }
    }

    private record LineKey(String className, String method, int line) {
    }

    /** A method's figures, for a front end that picks what to detail (SELF and TOTAL in samples, times in ns). */
    public record MethodTotal(String className, String method, long self, long total, long selfNs, long totalNs) {
    }

    private final Settings settings;
    private final ClassTypes types;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Map<MethodKey, Stat> methods = new HashMap<>();
    private final Map<LineKey, Stat> lines = new HashMap<>();
    private final Map<String, Stat> classes = new HashMap<>();
    private final Map<String, Stat> packages = new HashMap<>();
    private final Map<Long, ThreadStat> threads = new LinkedHashMap<>();
    private final Set<String> hotClasses = new HashSet<>();
    private final Set<String> hotMethods = new HashSet<>();
    private final Map<String, Boolean> forced = new HashMap<>();
    private final Set<Object> seen = new HashSet<>();
    /** The monitor's clock in ms (monotonic): which slot of the recent window a sample falls in. */
    private final LongSupplier clock;
    /** All samples of the recent window, and the width of its slots (0 before the first sample). */
    private final RecentSamples recentAll = new RecentSamples();
    private long slotMs;
    private long samples;
    private long sampleNs;
    private long ticks;
    private long systemOnly;
    private long ioSamples;
    private long ioNs;
    private long dyperSamples;
    private long monitorSamples;
    private long monitorNs;
    /**
     * CPU time the threads' clocks showed before the flight recorder's first samples of them, and after their last,
     * that the weighing put on those samples (JDK 17 to 24; 0 with thread dumps and {@code jdk.CPUTimeSample}).
     */
    private long beforeFirstNs;
    private long afterLastNs;
    /** CPU time of threads the recorder never sampled: no stack to put it on, so not in the figures. */
    private long unsampledNs;
    /** Epoch ms the samples begin at: the monitor's start, CLEAR, or where the source switched. */
    private long fromMillis = System.currentTimeMillis();
    /**
     * The thread dumps' section of the time before the recorder started ({@link #keep}), as its report element
     * {@code CPU_BEFORE_JFR}; null when there is none. Shown once the recorder's samples are ({@link #showKept}).
     */
    private String kept;
    private boolean keptShown;

    public CpuAgent(Settings settings, ClassTypes types) {
        this(settings, types, monotonicMs());
    }

    /** With a clock of its own, in ms (tests give a fake one). */
    CpuAgent(Settings settings, ClassTypes types, LongSupplier clockMs) {
        this.settings = settings;
        this.types = types;
        this.clock = clockMs;
    }

    private static LongSupplier monotonicMs() {
        long origin = System.nanoTime();
        return () -> (System.nanoTime() - origin) / 1_000_000;
    }

    /**
     * The slot of the recent window that holds now. When DETAIL_WINDOW changed, what the window held no longer fits
     * its slots: it starts empty (the thresholds then change nothing until it holds enough samples again).
     */
    private long slot() {
        long width = Math.max(1, settings.longValue("DETAIL_WINDOW") / RecentSamples.SLOTS);
        if (width != slotMs) {
            slotMs = width;
            recentAll.clear();
            for (Stat s : methods.values()) {
                if (s.recent != null) {
                    s.recent.clear();
                }
            }
            for (Stat s : classes.values()) {
                if (s.recent != null) {
                    s.recent.clear();
                }
            }
        }
        return clock.getAsLong() / width;
    }

    private static void recent(Stat s, long slot) {
        if (s.recent == null) {
            s.recent = new RecentSamples();
        }
        s.recent.add(slot);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** A thread dump: every thread's dump count and, with CPUTIME on, its CPU clock. CPU samples come apart. */
    @Override
    public synchronized void sample(ThreadInfo[] infos, long intervalNanos) {
        ticks++;
        boolean cpuTime = settings.bool("CPUTIME");
        for (ThreadInfo info : infos) {
            ThreadStat ts = thread(info.getThreadId(), info.getThreadName());
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
        }
    }

    private ThreadStat thread(long id, String name) {
        ThreadStat ts = threads.computeIfAbsent(id, k -> new ThreadStat());
        ts.name = name;
        return ts;
    }

    /** Of the CPU time just recorded, what a thread used before its first sample and after its last (see fields). */
    public synchronized void spread(long beforeFirst, long afterLast) {
        beforeFirstNs += beforeFirst;
        afterLastNs += afterLast;
    }

    /** CPU time of a thread that ended (or was running at the JVM's exit) without a sample of the recorder. */
    public synchronized void unsampled(long ns) {
        unsampledNs += ns;
    }

    /** A sample of the monitor's own threads: counted apart, as what measuring costs. */
    public synchronized void own(long ns) {
        monitorSamples++;
        monitorNs += ns;
    }

    /** One CPU sample of a running thread: its frames top first (AspectJ's frames already folded), standing for ns. */
    public synchronized void record(long threadId, String threadName, List<Frame> stack, long ns) {
        if (stack.isEmpty()) {
            return;
        }
        thread(threadId, threadName).running++;
        samples++;
        sampleNs += ns;
        long slot = slot();
        recentAll.add(slot);
        int selfAt = -1;
        boolean io = false;
        for (int i = 0; i < stack.size(); i++) {
            String c = stack.get(i).className();
            if (types.io(c)) {
                io = true;
            }
            if (!types.system(c) || FrameNames.dyper(c)) {
                selfAt = i;
                break;
            }
        }
        if (io) {
            ioSamples++;
            ioNs += ns;
        }
        if (selfAt < 0) {
            systemOnly++;
            return;
        }
        Frame self = stack.get(selfAt);
        String cls = self.className();
        if (FrameNames.dyper(cls)) {
            dyperSamples++;
        }
        add(methods, new MethodKey(cls, self.method()), true, io, ns);
        add(lines, new LineKey(cls, self.method(), self.line()), true, io, ns);
        add(classes, cls, true, io, ns);
        add(packages, packageOf(cls), true, io, ns);
        seen.clear();
        for (int i = selfAt; i < stack.size(); i++) {
            Frame f = stack.get(i);
            String c = f.className();
            if (types.system(c) && !FrameNames.dyper(c)) {
                continue;
            }
            MethodKey m = new MethodKey(c, f.method());
            if (seen.add(m)) {
                recent(add(methods, m, false, false, ns), slot);
            }
            LineKey l = new LineKey(c, f.method(), f.line());
            if (seen.add(l)) {
                add(lines, l, false, false, ns);
            }
            if (seen.add("C" + c)) {
                recent(add(classes, c, false, false, ns), slot);
            }
            String p = packageOf(c);
            if (seen.add("P" + p)) {
                add(packages, p, false, false, ns);
            }
        }
    }

    private static <K> Stat add(Map<K, Stat> map, K key, boolean self, boolean io, long ns) {
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
        return s;
    }

    static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** Every method with samples, most self time first: what a front end reads to choose what to detail. */
    public synchronized List<MethodTotal> methods() {
        List<MethodTotal> list = new ArrayList<>();
        for (Map.Entry<MethodKey, Stat> e : ranked(methods)) {
            Stat s = e.getValue();
            list.add(new MethodTotal(e.getKey().className(), e.getKey().method(), s.self, s.total, s.selfNs,
                    s.totalNs));
        }
        return list;
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
        samples = sampleNs = ticks = systemOnly = ioSamples = ioNs = dyperSamples = monitorSamples = monitorNs = 0;
        beforeFirstNs = afterLastNs = unsampledNs = 0;
        recentAll.clear();
        fromMillis = System.currentTimeMillis();
        kept = null;
        keptShown = false;
    }

    /**
     * Keeps the section as it is now, from {@code source} up to {@code toMillis} (epoch ms), as the element
     * {@code CPU_BEFORE_JFR}, not shown until {@link #showKept}: the thread dumps' figures of the time before the
     * recorder started, while thread dumps sample on until the recorder's first samples come. None without samples.
     */
    public synchronized void keep(String source, long toMillis, long monitorCpuNs) {
        // like a view, the section is there once it has samples
        kept = samples == 0 ? null : section("CPU_BEFORE_JFR", source, "", monitorCpuNs, " TO='" + toMillis + "'");
        keptShown = false;
    }

    /** Shows the kept section ({@link #keep}) after this one. */
    public synchronized void showKept() {
        keptShown = kept != null;
    }

    /** Drops the kept section ({@link #keep}). */
    public synchronized void dropKept() {
        kept = null;
        keptShown = false;
    }

    /**
     * Drops the CPU samples (methods, lines, classes, packages, their counts and each thread's RUNNABLE) when they
     * start coming from another source, at {@code fromMillis} (epoch ms), so that the section never mixes two; thread
     * dump counts, CPU clocks and what is detailed stay.
     */
    public synchronized void restartSamples(long fromMillis) {
        this.fromMillis = fromMillis;
        methods.clear();
        lines.clear();
        classes.clear();
        packages.clear();
        threads.values().forEach(t -> t.running = 0);
        samples = sampleNs = systemOnly = ioSamples = ioNs = dyperSamples = monitorSamples = monitorNs = 0;
        beforeFirstNs = afterLastNs = unsampledNs = 0;
        recentAll.clear();
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

    /**
     * Applies the CLASS_/METHOD_DETAIL_* thresholds (with hysteresis) to the recent window, and the SETDETAIL
     * overrides: an item starts being detailed once there are *_MIN_TOTAL samples in all (since the start or CLEAR)
     * and the window holds at least *_MINIMUM of its TOTAL samples, a share of at least *_THRESHOLD of the window's;
     * it stops when its share of the window falls below *_STOP_THRESHOLD. A window of fewer than *_MINIMUM samples
     * (an idle program) is too little to go by: nothing stops then.
     */
    private void updateDetail() {
        long slot = slot();
        long window = recentAll.sum(slot);
        update(classes, hotClasses, "CLASS", k -> k, slot, window);
        update(methods, hotMethods, "METHOD", MethodKey::item, slot, window);
    }

    private <K> void update(Map<K, Stat> stats, Set<String> hot, String kind, Function<K, String> display, long slot,
            long window) {
        long minTotal = settings.longValue(kind + "_DETAIL_MIN_TOTAL");
        long minimum = settings.longValue(kind + "_DETAIL_MINIMUM");
        double start = settings.fraction(kind + "_DETAIL_THRESHOLD");
        double stop = settings.fraction(kind + "_DETAIL_STOP_THRESHOLD");
        for (Map.Entry<K, Stat> e : stats.entrySet()) {
            String name = display.apply(e.getKey());
            long inclusive = e.getValue().recent(slot);
            double share = window == 0 ? 0 : (double) inclusive / window;
            if (samples >= minTotal && inclusive >= minimum && share >= start) {
                hot.add(name);
            } else if (hot.contains(name) && window >= minimum && share < stop) {
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

    /**
     * A method detailing may patch: a detailed method, or a method of a detailed class seen in samples; {@code total}
     * is its TOTAL samples in the recent window, {@code forced} whether SETDETAIL named it (or its class).
     */
    public record Candidate(String className, String method, long total, boolean forced) {
        /** {@code Class#method}, as SETDETAIL names it. */
        public String item() {
            return className + "#" + method;
        }
    }

    /**
     * What detailing should patch now, after the thresholds and SETDETAIL: the detailed methods and the sampled
     * methods of detailed classes seen in the recent window (a method forced off by SETDETAIL is left out), most TOTAL
     * samples of the window first.
     */
    public synchronized List<Candidate> detailCandidates() {
        updateDetail();
        long slot = slot();
        Map<String, Candidate> out = new LinkedHashMap<>();
        for (Map.Entry<MethodKey, Stat> e : ranked(methods)) {
            MethodKey k = e.getKey();
            String item = k.item();
            boolean method = hotMethods.contains(item);
            long recent = e.getValue().recent(slot);
            boolean ofClass = hotClasses.contains(k.className()) && recent > 0;
            if ((method || ofClass) && !Boolean.FALSE.equals(forced.get(item))) {
                out.put(item, new Candidate(k.className(), k.method(), recent,
                        Boolean.TRUE.equals(forced.get(item)) || Boolean.TRUE.equals(forced.get(k.className()))));
            }
        }
        for (String item : hotMethods) {
            int hash = item.indexOf('#');
            if (hash > 0 && !out.containsKey(item)) {  // forced in by SETDETAIL without samples
                out.put(item, new Candidate(item.substring(0, hash), item.substring(hash + 1), 0, true));
            }
        }
        List<Candidate> list = new ArrayList<>(out.values());
        list.sort(Comparator.comparing(Candidate::forced).thenComparingLong(Candidate::total).reversed());
        return list;
    }

    /** The sampled figures of one method (null when it has no samples). */
    public synchronized MethodTotal method(String className, String method) {
        Stat s = methods.get(new MethodKey(className, method));
        return s == null ? null : new MethodTotal(className, method, s.self, s.total, s.selfNs, s.totalNs);
    }

    /**
     * The DETAIL section, detailed items as {@code <CLASS NAME/>} and {@code <METHOD CLASS NAME/>} elements: {@code attributes} (each with its leading blank) and {@code children} (what automatic
     * detailing adds) around the detailed items.
     */
    public synchronized String detailXml(String attributes, String children) {
        updateDetail();
        StringBuilder x = new StringBuilder();
        x.append("<DETAIL AGENT='").append(NAME).append('\'').append(attributes).append('>');
        hotClasses.stream().sorted().forEach(c -> x.append("<CLASS NAME='").append(Xml.esc(c)).append("'/>"));
        hotMethods.stream().sorted().forEach(m -> {
            int hash = m.indexOf('#');
            x.append("<METHOD CLASS='").append(Xml.esc(m.substring(0, hash))).append("' NAME='")
                    .append(Xml.esc(m.substring(hash + 1))).append("'/>");
        });
        return x.append(children).append("</DETAIL>").toString();
    }

    @Override
    public String report() {
        return report("THREAD_DUMP", "", -1);
    }

    /**
     * The CPU section; {@code source} and {@code event} say where samples came from, monitorCpuNs what it cost. After
     * it, the thread dumps' section of the time before the recorder, once the recorder's samples are shown.
     */
    public synchronized String report(String source, String event, long monitorCpuNs) {
        updateDetail();
        String x = section("CPU", source, event, monitorCpuNs, "");
        return keptShown ? x + kept : x;
    }

    private String section(String tag, String source, String event, long monitorCpuNs, String window) {
        StringBuilder x = new StringBuilder(8192);
        x.append('<').append(tag).append(" EXACT='false' SOURCE='").append(source).append("' EVENT='").append(event)
                .append("' SAMPLES='")
                .append(samples).append("' TICKS='").append(ticks).append("' ESTIMATED_NS='").append(sampleNs)
                .append("' SYSTEM_ONLY='").append(systemOnly).append("' IO_SAMPLES='").append(ioSamples)
                .append("' IO_NS='").append(ioNs).append("' DYPER_SAMPLES='").append(dyperSamples)
                .append("' MONITOR_SAMPLES='").append(monitorSamples).append("' MONITOR_NS='").append(monitorNs)
                .append("' MONITOR_CPU_NS='").append(monitorCpuNs).append("' BEFORE_FIRST_NS='").append(beforeFirstNs)
                .append("' AFTER_LAST_NS='").append(afterLastNs).append("' UNSAMPLED_NS='").append(unsampledNs)
                .append("' FROM='").append(fromMillis).append('\'').append(window).append('>');
        x.append("<THREADS>");
        for (Map.Entry<Long, ThreadStat> e : threads.entrySet()) {
            ThreadStat t = e.getValue();
            x.append("<THREAD ID='").append(e.getKey()).append("' NAME='").append(Xml.esc(t.name))
                    .append("' SAMPLES='").append(t.samples).append("' RUNNABLE='").append(t.running)
                    .append("' CPU_NS='").append(t.cpuNs).append("' CPU_EXACT='true'/>");
        }
        x.append("</THREADS>");
        section(x, "PACKAGES", "PACKAGE", packages, k -> "NAME='" + Xml.esc(k) + "'", null);
        section(x, "CLASSES", "CLASS", classes, k -> "NAME='" + Xml.esc(k) + "'", hotClasses::contains);
        section(x, "METHODS", "METHOD", methods, k -> "CLASS='" + Xml.esc(k.className()) + "' NAME='"
                + Xml.esc(k.method()) + "'", k -> hotMethods.contains(k.item()));
        section(x, "LINES", "LINE", lines, k -> "CLASS='" + Xml.esc(k.className()) + "' METHOD='"
                + Xml.esc(k.method()) + "' LINE='" + k.line() + "'", null);
        return x.append("</").append(tag).append('>').toString();
    }

    private static <K> List<Map.Entry<K, Stat>> ranked(Map<K, Stat> stats) {
        List<Map.Entry<K, Stat>> list = new ArrayList<>(stats.entrySet());
        list.sort(Comparator.<Map.Entry<K, Stat>>comparingLong(e -> e.getValue().self - e.getValue().io).reversed()
                .thenComparing(Comparator.<Map.Entry<K, Stat>>comparingLong(e -> e.getValue().total).reversed())
                .thenComparing(e -> e.getKey().toString()));
        return list;
    }

    private static <K> void section(StringBuilder x, String outer, String inner, Map<K, Stat> stats,
            Function<K, String> names, Predicate<K> detailed) {
        x.append('<').append(outer).append('>');
        for (Map.Entry<K, Stat> e : ranked(stats)) {
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
