package org.dyper.runtime.monitor.internal.sampling;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.monitor.internal.Monitor;

/**
 * The monitor's sampling side: feeds its agents from the flight recorder ({@link JfrSource}) where it runs, and from
 * thread dumps every CHECKTIME where it does not (SAMPLER=THREAD_DUMP, no {@code jdk.jfr} module, the recorder
 * disabled, or while the recorder starts). While the recorder samples the CPU, thread dumps still come every
 * DUMPTIME ms for thread states, the WALL view, contended monitors and added agents. Pushes reports and dumps.
 */
public final class Sampler implements Events {
    static final String JFR = "JFR";
    static final String THREAD_DUMP = "THREAD_DUMP";

    private final Monitor m;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private final Object wake = new Object();
    /**
     * Held while a dump's samples are recorded, and by CLEAR: a dump that began before MONITOR became false cannot add
     * to the figures after CLEAR emptied them (MonitorCommandsContract.clearAllAndOneAgent saw a CONTENTION tick so).
     */
    public final Object recording = new Object();
    private final ThreadStates states = new ThreadStates();
    private volatile JfrSource jfr;
    /** The recorder's stream that ran last: at the exit its last events may still be on their way. */
    private volatile JfrSource lastJfr;
    /**
     * The source of the CPU section and the CPU and LOCK views (JFR stays when the recorder ends at the exit), and the
     * thread dumps' figures of the time before the recorder.
     */
    private final SourceViews views;
    private volatile boolean jfrStarting;
    private volatile String jfrProblem;
    /** Whether the recorder's threads are there because of the monitor (no other recording ran before). */
    private volatile boolean recorderOurs;
    /**
     * Per thread, CPU time given to its samples but not yet a whole sample (see {@link #flushed}); its lock guards the
     * pending samples and the clocks' pools below too.
     */
    private final Map<Long, Long> nativeCarry = new java.util.HashMap<>();
    /** Native samples not weighed yet: at most a few seconds' worth. */
    private final List<NativeSample> pendingNative = new ArrayList<>();
    private static final int MAX_PENDING_NATIVE = 2_000;
    /** The recorder's execution samples since the last flush, weighed there by their threads' CPU clocks. */
    private final List<JavaSample> pendingJava = new ArrayList<>();
    private static final int MAX_PENDING_JAVA = 20_000;
    /** Per thread, its CPU clock at the reading that the last flush took its CPU time up to. */
    private final Map<Long, Long> cpuTaken = new java.util.HashMap<>();
    /** Per thread, CPU time its clock moved and no sample stands for yet. */
    private final Map<Long, Long> cpuPool = new java.util.HashMap<>();
    /**
     * Where a thread's pool starts when the CPU view began before its first reading: per thread then alive, its CPU
     * clock when the recorder started (its samples cover the time from there, the thread dumps' view the time before:
     * {@link SourceViews}); a thread with an id above {@link #baseMaxId} started later, and its pool starts at its own
     * start ({@link #base}).
     */
    private final Map<Long, Long> cpuBase = new java.util.HashMap<>();
    private long baseMaxId = Long.MAX_VALUE;
    /** Per thread, the CPU time its pool got at its first flush (from {@link #base}) and no sample took yet. */
    private final Map<Long, Long> firstPool = new java.util.HashMap<>();
    /** Per thread, its last sample: where the CPU time after it goes when the thread ends or the JVM exits. */
    private final Map<Long, LastSample> lastSample = new java.util.HashMap<>();
    /** How long an execution sample waits for its thread's pool before it stands for one period. */
    private static final long WAIT_FOR_POOL_NS = 5_000_000_000L;
    /** How long a thread's CPU clock stands still before the time after its last sample goes on it. */
    private static final long STILL_NS = 1_000_000_000L;
    /** Threads gone at the last flush: their pools wait one more batch for samples taken before they ended. */
    private final java.util.Set<Long> gone = new java.util.HashSet<>();
    /** CPU time of monitor threads that have ended. */
    public final AtomicLong endedOwnCpuNs = new AtomicLong();
    /**
     * Held while the recorder is created; {@link #exiting} takes it at the JVM's exit. Created after the shutdown hooks
     * (the JVMTI phase is then "dead"), JDK 17's recorder refuses and logs "An attempt was made to start JFR too early
     * in the VM initialization sequence" into the program's output: a short program under load saw that.
     */
    private final java.util.concurrent.locks.ReentrantLock creating = new java.util.concurrent.locks.ReentrantLock();
    /** Set at the JVM's exit, under {@link #creating}: no recorder is created from then on. */
    private volatile boolean exiting;
    /**
     * From the recorder's start until a switch back to thread dumps: the looks read every thread's CPU clock (with a
     * first batch after the threads' work, the weighing still knows their CPU time since its start).
     */
    private volatile boolean recorderClocks;

    public Sampler(Monitor m) {
        this.m = m;
        this.views = new SourceViews(m.cpu, m.stacks, System.currentTimeMillis());
    }

    public void start() {
        m.daemon("dyper-monitor-sampler", this::loop).start();
    }

    /** Where the CPU section's samples, and the CPU and LOCK views', came from: one source at a time. */
    public String source() {
        return views.source();
    }

    /** The recorder's CPU event while its samples are shown, else why thread dumps sample (empty: nothing tried). */
    public String event() {
        if (views.source().equals(JFR)) {
            return views.event();
        }
        return jfrProblem == null ? "" : jfrProblem;
    }

    /**
     * Switches the CPU section and the CPU and LOCK views to another source: what the previous one recorded since the
     * recorder started goes, so that none of them mixes samples of two sources (thread dumps sample while the
     * recorder starts: about a second, on a crowded machine many); the thread dumps' figures of the time before are
     * kept apart ({@link SourceViews}). Holds {@link #recording}, so that no dump started before adds to the new
     * source's figures.
     */
    private void switchTo(String source, String event) {
        synchronized (recording) {
            synchronized (nativeCarry) {
                nativeCarry.clear();
                pendingNative.clear();
                pendingJava.clear();
                cpuTaken.clear();
                cpuPool.clear();
                lastSample.clear();
                gone.clear();
                firstPool.clear();
            }
            views.switchTo(source, event, System.currentTimeMillis());
            recorderClocks = source.equals(JFR);
        }
    }

    /**
     * The recorder starts now: the thread dumps' CPU figures so far are kept, and the threads' CPU clocks read, where
     * the recorder's weighing begins (JDK 17): the CPU time before is in the kept figures, none of it twice.
     */
    private void recorderStarting() {
        synchronized (recording) {
            recorderClocks = true;
            try {
                views.recorderStarting(System.currentTimeMillis(), ownCpuNs());
            } catch (RuntimeException e) {
                // the recorder starts all the same; the thread dumps' figures before it are then not shown
                m.agentErrors.putIfAbsent("CPU_BEFORE_JFR", e.getClass().getName() + ": " + e.getMessage());
            }
            synchronized (nativeCarry) {
                readBase();
            }
        }
    }

    /**
     * Applies changed settings to the recorder (starting or stopping it) and wakes the dump loop. The recorder starts
     * only once something samples (MONITOR or FULLMONITORING): with sampling off, the flight recorder is not even
     * initialised (its classes, threads and class-load hook would cost the program start-up, memory and every
     * redefinition's safepoint, which walks all loaded classes); once started it stays while sampling pauses.
     */
    public void apply() {
        boolean wantJfr = !m.settings.text("SAMPLER").equals(THREAD_DUMP);
        boolean sampling = m.settings.bool("MONITOR") || m.settings.bool("FULLMONITORING");
        JfrSource j = jfr;
        if (wantJfr && sampling && j == null && !jfrStarting) {
            jfrStarting = true;
            m.daemon("dyper-monitor-jfr", this::runJfr).start();
        } else if (!wantJfr && j != null) {
            jfr = null;
            j.close();
        } else if (j != null) {
            applyTo(j);
        }
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    private void applyTo(JfrSource j) {
        j.apply(m.settings.bool("MONITOR"), m.settings.longValue("CHECKTIME"),
                m.settings.longValue("LOCK_THRESHOLD_US"), m.settings.longValue("ALLOC_RATE"));
    }

    /**
     * At the JVM's exit (the monitor's shutdown hook): no recorder is created from now on; waits at most
     * {@code millis} for one being created (never longer: the exit must go on).
     */
    public void exiting(long millis) {
        boolean locked = false;
        try {
            locked = creating.tryLock(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        exiting = true;
        if (locked) {
            creating.unlock();
        }
    }

    private void runJfr() {
        JfrSource j;
        m.awaitStarted();
        creating.lock();
        try {
            if (exiting) {
                jfrProblem = "no flight recorder: the JVM was exiting before it could start";
                jfrStarting = false;
                return;
            }
            recorderOurs = true;
            j = JfrSource.open(this);
            recorderOurs = !j.othersRecording;
            applyTo(j);
            jfr = j;
            lastJfr = j;
        } catch (Throwable t) {
            recorderOurs = false;
            jfrProblem = "no flight recorder: " + Monitor.describe(t);
            jfrStarting = false;
            return;
        } finally {
            creating.unlock();
        }
        boolean failed = false;
        try {
            recorderStarting();
            // thread dumps sample until the recorder hands over its first events
            j.run(() -> {
                m.jvm.recorderStarted();
                switchTo(JFR, j.cpuEvent());
                jfrStarting = false;
            });
        } catch (Throwable t) {
            failed = true;
            jfrProblem = "the flight recorder stopped: " + Monitor.describe(t);
        } finally {
            if (jfr == j) {
                jfr = null;
            }
            jfrStarting = false;
            // SAMPLER=THREAD_DUMP, or a failure: thread dumps sample from now on, in emptied views. The stream's
            // normal end is the JVM's exit: the recorder's samples stay, named as its, and no dump is added to them.
            if (views.source().equals(JFR) && (failed || m.settings.text("SAMPLER").equals(THREAD_DUMP))) {
                switchTo(THREAD_DUMP, "");
            } else if (!views.source().equals(JFR)) {
                // it ended before its first batch: no weighing needs the clocks
                recorderClocks = false;
            }
        }
    }

    /** At the JVM's exit: waits (bounded) until the recorder has handed over its last events. */
    public void awaitLastEvents(long millis) {
        JfrSource j = lastJfr;
        if (j != null) {
            j.awaitFlush(millis);
            if (views.source().equals(JFR) && j.cpuEvent().equals(JfrSource.EXECUTION)) {
                flushed();
                lastOfAll();
            }
        }
    }

    /** The threads' CPU clocks now: where their pools start ({@link #cpuBase}). Holds {@link #nativeCarry}. */
    private void readBase() {
        cpuBase.clear();
        baseMaxId = Long.MAX_VALUE;
        try {
            if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
                return;
            }
            long max = 0;
            for (long id : mx.getAllThreadIds()) {
                long cpu = mx.getThreadCpuTime(id);
                if (cpu >= 0) {
                    cpuBase.put(id, cpu);
                }
                max = Math.max(max, id);
            }
            baseMaxId = max;
        } catch (RuntimeException e) {
            cpuBase.clear();
            baseMaxId = Long.MAX_VALUE;
        }
    }

    /** Exact CPU time of the monitor's threads, and of the recorder's when the monitor started it; -1 without clock. */
    public long ownCpuNs() {
        try {
            if (!mx.isThreadCpuTimeSupported() || !mx.isThreadCpuTimeEnabled()) {
                return -1;
            }
            long sum = endedOwnCpuNs.get();
            JfrSource j = jfr;
            boolean recorder = recorderOurs;
            for (ThreadInfo i : mx.getThreadInfo(mx.getAllThreadIds())) {
                if (i != null && (m.ownThreads.contains(i.getThreadId())
                        || recorder && i.getThreadName().startsWith("JFR "))) {
                    long t = mx.getThreadCpuTime(i.getThreadId());
                    sum += Math.max(0, t);
                }
            }
            return sum;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    // ---- the dump loop ----

    private void loop() {
        // like the recorder: no dump while the agent's start-up runs on the program's main thread (premain)
        m.awaitStarted();
        long last = System.nanoTime();
        long lastReport = last;
        boolean wasOn = false;
        while (true) {
            try {
                boolean on = m.settings.bool("MONITOR");
                boolean recorder = !views.source().equals(THREAD_DUMP);
                long interval = on || m.settings.bool("FULLMONITORING")
                        ? m.settings.longValue(recorder ? "DUMPTIME" : "CHECKTIME") : m.settings.longValue("DISABLETIME");
                long reportTime = m.settings.longValue("REPORTTIME");
                long waitMs = interval;
                if (reportTime > 0) {
                    long untilReport = reportTime - (System.nanoTime() - lastReport) / 1_000_000;
                    waitMs = Math.max(1, Math.min(waitMs, untilReport));
                }
                synchronized (wake) {
                    wake.wait(waitMs);
                }
                long now = System.nanoTime();
                on = m.settings.bool("MONITOR");
                if ((now - last) / 1_000_000 >= interval) {
                    long elapsed = now - last;
                    last = now;
                    long weight = wasOn ? Math.min(elapsed, 2 * interval * 1_000_000) : interval * 1_000_000;
                    wasOn = on;
                    tick(on, now, weight, recorder);
                }
                reportTime = m.settings.longValue("REPORTTIME");
                if (reportTime > 0 && (now - lastReport) / 1_000_000 >= reportTime) {
                    lastReport = now;
                    if (m.pushing()) {
                        m.push("<DYPER REPORT='" + m.pid + "' TIME='" + System.currentTimeMillis() + "'>"
                                + m.report.xml("ALL") + "</DYPER>");
                    }
                } else if (reportTime <= 0) {
                    lastReport = now;
                }
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                m.agentErrors.putIfAbsent("monitor", t.getClass().getName() + ": " + t.getMessage());
            }
        }
    }

    private void tick(boolean on, long now, long weight, boolean recorder) {
        boolean dump = m.settings.bool("SHOWSTACK") && m.pushing();
        if (!on && !dump) {
            return;
        }
        // while the recorder samples the CPU, stacks are needed only for the WALL view, added agents and SHOWSTACK;
        // else the threads' states come from thread information without frames, which needs no safepoint
        boolean stacks = !recorder || dump || m.settings.bool("WALL") || addedAgents();
        ThreadInfo[] infos = stacks ? threads() : states();
        if (on) {
            synchronized (recording) {
                // MONITOR may have become false since this dump began: then CLEAR may already have run
                if (m.settings.bool("MONITOR")) {
                    record(infos, now, weight, !views.source().equals(THREAD_DUMP), stacks);
                }
            }
        }
        if (dump) {
            m.push("<DYPER DUMP='" + m.pid + "' TIME='" + System.currentTimeMillis() + "'>"
                    + StackDump.xml(infos, states) + "</DYPER>");
        }
    }

    private boolean addedAgents() {
        for (DyperAgent a : m.agents) {
            if (!m.internal(a)) {
                return true;
            }
        }
        return false;
    }

    /** Records one look at the threads (a dump when {@code stacks}) in the stack views and the agents. */
    private void record(ThreadInfo[] infos, long now, long weight, boolean recorder, boolean stacks) {
        // from the recorder's start on its weighing needs every thread's clock (JDK 17), even in thread dumps
        Map<Long, ThreadStates.Activity> activity = states.update(infos, now, m.settings.bool("CPUTIME"), stacks,
                recorderClocks);
        if (stacks) {
            dumpViews(infos, activity, weight, recorder);
        }
        m.threads.sample(infos, weight, activity);
        for (DyperAgent a : m.agents) {
            if (a == m.threads) {
                continue;
            }
            try {
                a.sample(infos, weight);
            } catch (Throwable t) {
                m.agentErrors.putIfAbsent(a.name(), t.getClass().getName() + ": " + t.getMessage());
            }
        }
    }

    /** A dump's frames: the WALL view, and without the recorder the CPU and LOCK views. */
    private void dumpViews(ThreadInfo[] infos, Map<Long, ThreadStates.Activity> activity, long weight,
            boolean recorder) {
        for (ThreadInfo i : infos) {
            List<Frame> frames = frames(i);
            ThreadStates.Activity a = activity.get(i.getThreadId());
            m.stacks.add(StackStore.View.WALL, i.getThreadId(), i.getThreadName(), rootFirst(frames, null), 1);
            if (recorder) {
                continue;
            }
            if (a != null && a.running()) {
                cpu(i.getThreadId(), i.getThreadName(), frames, weight);
            } else if (i.getLockInfo() != null && (a == ThreadStates.Activity.BLOCKED
                    || LockKinds.isLock(i.getLockInfo().getClassName()) && parked(frames))) {
                lock(i.getThreadId(), i.getThreadName(), frames, i.getLockInfo().getClassName(), weight);
            }
        }
    }

    private static boolean parked(List<Frame> frames) {
        for (Frame f : frames) {
            if (f.className().equals("java.util.concurrent.locks.LockSupport")) {
                return true;
            }
        }
        return false;
    }

    private static List<Frame> frames(ThreadInfo i) {
        StackTraceElement[] s = i.getStackTrace();
        List<Frame> out = new ArrayList<>(s.length);
        for (StackTraceElement e : s) {
            out.add(Frame.of(e));
        }
        return out;
    }

    /** SHOWSTACK: every sampled thread now. */
    public String showStack() {
        return StackDump.xml(threads(), states);
    }

    /** All threads but the monitor's own and those USETHREAD excludes, with at most MAXDEPTH frames. */
    ThreadInfo[] threads() {
        int depth = (int) m.settings.longValue("MAXDEPTH");
        return kept(mx.dumpAllThreads(false, false, depth));
    }

    /**
     * The same threads without frames: state, lock and lock owner, in native code or not. The JVM takes these without
     * stopping the threads (a thread dump with frames is a safepoint).
     */
    private ThreadInfo[] states() {
        return kept(mx.getThreadInfo(mx.getAllThreadIds()));
    }

    private ThreadInfo[] kept(ThreadInfo[] all) {
        List<ThreadInfo> kept = new ArrayList<>(all.length);
        for (ThreadInfo i : all) {
            if (i != null && use(i.getThreadId(), i.getThreadName())) {
                kept.add(i);
            }
        }
        return kept.toArray(ThreadInfo[]::new);
    }

    // ---- Events: what the samplers saw ----

    @Override
    public boolean recording() {
        return m.settings.bool("MONITOR");
    }

    @Override
    public boolean use(long threadId, String name) {
        // by id, and by name for a monitor thread that is ending (its id is already dropped)
        if (m.ownThreads.contains(threadId) || name.startsWith("dyper-monitor-")) {
            return false;
        }
        if (recorderOurs && name.startsWith("JFR ")) {
            return false;
        }
        return m.threadUse.getOrDefault(threadId, m.settings.bool("THREAD_DEFAULT"));
    }

    @Override
    public void own(long threadId, String name, long ns) {
        if (m.ownThreads.contains(threadId) || name.startsWith("dyper-monitor-") || name.startsWith("JFR ")) {
            m.cpu.own(ns);
        }
    }

    /** The frames cleaned of AspectJ's around-advice frames, at most MAXDEPTH of them, root first, and a leaf. */
    private List<String> rootFirst(List<Frame> topFirst, String leaf) {
        return rootFirstClean(FrameNames.named(topFirst), leaf);
    }

    private List<String> rootFirstClean(List<Frame> clean, String leaf) {
        int depth = (int) m.settings.longValue("MAXDEPTH");
        int n = Math.min(depth, clean.size());
        List<String> out = new ArrayList<>(n + 1);
        for (int i = n - 1; i >= 0; i--) {
            out.add(clean.get(i).name());
        }
        if (leaf != null) {
            out.add(leaf);
        }
        return out;
    }

    @Override
    public void cpu(long threadId, String name, List<Frame> topFirst, long ns) {
        List<Frame> clean = FrameNames.named(topFirst);
        int depth = (int) m.settings.longValue("MAXDEPTH");
        m.cpu.record(threadId, name, clean.size() > depth ? clean.subList(0, depth) : clean, ns);
        m.stacks.add(StackStore.View.CPU, threadId, name, rootFirstClean(clean, null), 1);
    }

    /** A native sample waiting for its weight (at the next flush, when its thread's execution samples are in). */
    private record NativeSample(long threadId, String name, List<Frame> topFirst, long epochNs) {
    }

    /**
     * A native method sample of a thread whose CPU clock moved around that time; a thread blocked there (a socket
     * read, a poll) is left out at once. It is weighed at the next flush ({@link #flushed}).
     */
    @Override
    public void nativeSample(long threadId, String name, Supplier<List<Frame>> frames, long epochNs) {
        if (states.clocks.rate(threadId, epochNs) <= 0) {
            return;
        }
        List<Frame> topFirst = frames.get();
        synchronized (nativeCarry) {
            if (pendingNative.size() < MAX_PENDING_NATIVE && !topFirst.isEmpty()) {
                pendingNative.add(new NativeSample(threadId, name, topFirst, epochNs));
            }
        }
    }

    /** An execution sample waiting for its weight (at the next flush). */
    private record JavaSample(long threadId, String name, List<Frame> topFirst, long epochNs) {
    }

    /** A thread's last sample, its frames cleaned. */
    private record LastSample(String name, List<Frame> clean) {
    }

    /** CPU time a thread's clock showed after its last sample, when it ended (or at the JVM's exit). */
    private record Leftover(long threadId, LastSample last, long ns) {
    }

    /**
     * An execution sample: weighed at the next flush by its thread's CPU clock ({@link #flushed}); without thread CPU
     * clocks (CPUTIME false), or past a bound of pending samples, it stands for one period at once.
     */
    @Override
    public void executionSample(long threadId, String name, List<Frame> topFirst, long epochNs, long periodNs) {
        states.clocks.javaSample(threadId, epochNs);
        if (m.settings.bool("CPUTIME")) {
            synchronized (nativeCarry) {
                if (pendingJava.size() < MAX_PENDING_JAVA) {
                    pendingJava.add(new JavaSample(threadId, name, topFirst, epochNs));
                    return;
                }
            }
        }
        cpu(threadId, name, topFirst, periodNs);
    }

    /**
     * Weighs the samples of the recorder's last batch by the threads' CPU clocks (read every DUMPTIME):
     * <ul>
     * <li>Each thread's CPU time since the last flush (up to its latest reading) goes into its pool.</li>
     * <li>A native method sample whose window the readings cover stands for the period × the threads then in native
     * code, of which its thread spent on a CPU in native code its CPU rate in native code then: its CPU clock's advance
     * in that window less what its execution samples there stand for (each the period × the threads then in Java code
     * / 5, as the recorder takes at most 5 threads in Java code per period). It takes that from the pool.</li>
     * <li>The thread's execution samples share what is left in its pool. When the recorder's sampler thread is starved
     * (JDK 17 with more threads busy than cores: it then takes a small fraction of its samples), each sample so stands
     * for more than a period, and the CPU view still adds up to the threads' CPU time; on a machine with more busy
     * threads than cores, a thread that waited for a core is not counted as running. A thread with fewer than two
     * readings (it just started) has its samples stand for one period each.</li>
     * </ul>
     * Whole periods become samples of the CPU view and section; the rest is carried to the thread's next sample.
     */
    @Override
    public void flushed() {
        // the last stream, not only the running one: its last batch comes as it ends, at the JVM's exit
        JfrSource j = lastJfr;
        long period = j == null ? 0 : j.periodNs();
        List<NativeSample> ready = new ArrayList<>();
        List<JavaSample> java;
        List<Long> ending = List.of();
        CpuClocks clocks = states.clocks;
        synchronized (nativeCarry) {
            pendingNative.removeIf(n -> clocks.known(n.epochNs()) && ready.add(n));
            java = new ArrayList<>(pendingJava);
            pendingJava.clear();
            // jdk.CPUTimeSample's samples stand for their own CPU time: no pools there
            if (period > 0 && j.cpuEvent().equals(JfrSource.EXECUTION)) {
                ending = fillPools(clocks);
            }
        }
        if (period <= 0) {
            return;
        }
        // a thread's first batch with samples: all its pool (from the monitor's start, or its own) is split over
        // them in proportion to what each stands for, native samples by their thread's CPU rate then, execution
        // samples as the recorder takes them (a thread in socket I/O has few execution samples)
        java.util.Set<Long> sampled = new java.util.HashSet<>();
        ready.forEach(n -> sampled.add(n.threadId()));
        java.forEach(s -> sampled.add(s.threadId()));
        Map<Long, Long> first = new java.util.HashMap<>();
        synchronized (nativeCarry) {
            for (long id : sampled) {
                Long pool = cpuPool.get(id);
                if (firstPool.containsKey(id) && pool != null && pool > 0) {
                    first.put(id, pool);
                }
            }
        }
        long[] nativeNs = new long[ready.size()];
        Map<Long, Long> stands = new java.util.HashMap<>();
        for (int k = 0; k < ready.size(); k++) {
            NativeSample n = ready.get(k);
            long javaNs = javaNs(period, n.epochNs());
            double rate = clocks.nativeRate(n.threadId(), n.epochNs(), javaNs);
            if (rate <= 0) {
                continue;
            }
            long ns = Math.round(period * (double) clocks.nativeThreads(n.epochNs()) * rate);
            if (first.containsKey(n.threadId())) {
                stands.merge(n.threadId(), ns, Long::sum);
            } else {
                synchronized (nativeCarry) {
                    Long pool = cpuPool.get(n.threadId());
                    if (pool != null) {
                        ns = Math.min(ns, pool);
                        cpuPool.put(n.threadId(), pool - ns);
                    }
                }
            }
            nativeNs[k] = ns;
        }
        Map<Long, Integer> perThread = new java.util.HashMap<>();
        for (JavaSample s : java) {
            perThread.merge(s.threadId(), 1, Integer::sum);
            if (first.containsKey(s.threadId())) {
                stands.merge(s.threadId(), javaNs(period, s.epochNs()), Long::sum);
            }
        }
        Map<Long, Long> share = new java.util.HashMap<>();
        long beforeFirst = 0;
        synchronized (nativeCarry) {
            for (Map.Entry<Long, Long> e : first.entrySet()) {
                if (stands.getOrDefault(e.getKey(), 0L) > 0) {
                    cpuPool.put(e.getKey(), 0L);
                    firstPool.remove(e.getKey());
                    beforeFirst += e.getValue();
                }
            }
            for (Map.Entry<Long, Integer> e : perThread.entrySet()) {
                Long pool = cpuPool.get(e.getKey());
                if (pool != null && !first.containsKey(e.getKey())) {
                    share.put(e.getKey(), pool / e.getValue());
                    cpuPool.put(e.getKey(), pool % e.getValue());
                }
            }
        }
        for (int k = 0; k < ready.size(); k++) {
            NativeSample n = ready.get(k);
            long ns = first.containsKey(n.threadId())
                    ? scaled(nativeNs[k], first.get(n.threadId()), stands.get(n.threadId())) : nativeNs[k];
            if (ns <= 0) {
                continue;
            }
            List<Frame> clean = FrameNames.named(n.topFirst());
            attribute(n.threadId(), n.name(), clean, ns, period);
            synchronized (nativeCarry) {
                lastSample.put(n.threadId(), new LastSample(n.name(), clean));
            }
        }
        long now = CpuClocks.epochNanos();
        for (JavaSample s : java) {
            if (!first.containsKey(s.threadId()) && !share.containsKey(s.threadId()) && j.cpuEvent().equals(
                    JfrSource.EXECUTION) && now - s.epochNs() < WAIT_FOR_POOL_NS) {
                // its thread has no pool yet (the monitor reads every thread's clock only once the recorder's
                // samples are shown): it waits for the next batch, where its pool takes in this time too
                synchronized (nativeCarry) {
                    if (pendingJava.size() < MAX_PENDING_JAVA) {
                        pendingJava.add(s);
                        continue;
                    }
                }
            }
            List<Frame> clean = FrameNames.named(s.topFirst());
            long ns = first.containsKey(s.threadId())
                    ? scaled(javaNs(period, s.epochNs()), first.get(s.threadId()), stands.get(s.threadId()))
                    : share.getOrDefault(s.threadId(), period);
            attribute(s.threadId(), s.name(), clean, ns, period);
            synchronized (nativeCarry) {
                lastSample.put(s.threadId(), new LastSample(s.name(), clean));
            }
        }
        m.cpu.spread(beforeFirst, 0);
        ended(ending, period);
    }

    /** A sample's part of its thread's pool at its first batch: {@code ns} of the {@code all} its samples stand for. */
    private static long scaled(long ns, Long pool, Long all) {
        return pool == null || all == null || all <= 0 ? 0 : Math.round((double) pool * ns / all);
    }

    /** What an execution sample stands for: the period × the threads then in Java code / 5 (it takes at most 5). */
    private long javaNs(long period, long epochNs) {
        return Math.round(period * Math.max(1.0, states.clocks.javaThreads(epochNs) / 5.0));
    }

    /** At the JVM's exit, after the last batch: each thread's CPU time after its last sample goes on that sample. */
    private void lastOfAll() {
        JfrSource j = lastJfr;
        long period = j == null ? 0 : j.periodNs();
        List<Leftover> left = new ArrayList<>();
        long unsampled = 0;
        synchronized (nativeCarry) {
            for (Map.Entry<Long, Long> e : cpuPool.entrySet()) {
                LastSample last = lastSample.get(e.getKey());
                if (last != null && e.getValue() > 0) {
                    left.add(new Leftover(e.getKey(), last, e.getValue()));
                } else {
                    unsampled += e.getValue();
                }
                e.setValue(0L);
            }
        }
        m.cpu.unsampled(unsampled);
        if (period > 0) {
            leftovers(left, period);
        }
    }

    private void leftovers(List<Leftover> left, long period) {
        long ns = 0;
        for (Leftover l : left) {
            attribute(l.threadId(), l.last().name(), l.last().clean(), l.ns(), period);
            ns += l.ns();
        }
        if (ns > 0) {
            m.cpu.spread(0, ns);
        }
    }

    /**
     * Adds each thread's CPU time since the last flush, up to its latest reading, to its pool (at a thread's first
     * flush, since the CPU view began or since the thread started: {@link #cpuBase}); forgets threads that are gone,
     * and returns what their clocks showed after their last samples. Holds {@link #nativeCarry}.
     */
    private List<Long> fillPools(CpuClocks clocks) {
        // threads gone at the previous flush: once this batch (their last samples, the recorder lags) is weighed,
        // the rest of their CPU time goes on their last sample
        List<Long> ending = new ArrayList<>(gone);
        gone.clear();
        for (Map.Entry<Long, Long> e : clocks.takeGone().entrySet()) {
            long id = e.getKey();
            Long before = cpuTaken.remove(id);
            if (before == null) {
                before = base(id);
            }
            if (before != null) {
                cpuPool.merge(id, Math.max(0, e.getValue() - before), Long::sum);
            }
            gone.add(id);
        }
        Map<Long, Long> latest = clocks.latest();
        java.util.Set<Long> kept = new java.util.HashSet<>(latest.keySet());
        kept.addAll(gone);
        kept.addAll(ending);
        cpuTaken.keySet().retainAll(latest.keySet());
        cpuPool.keySet().retainAll(kept);
        nativeCarry.keySet().retainAll(kept);
        lastSample.keySet().retainAll(kept);
        firstPool.keySet().retainAll(kept);
        for (Map.Entry<Long, Long> e : latest.entrySet()) {
            long id = e.getKey();
            Long before = cpuTaken.put(id, e.getValue());
            if (before != null && cpuPool.getOrDefault(id, 0L) > 0 && clocks.stillNs(id) >= STILL_NS) {
                // its clock stood still for a second: it stopped running (waits, sleeps; a thread waiting for a core
                // gets one well within that), and no sample comes for the time after its last one; that goes on its
                // last sample once this batch is weighed
                ending.add(id);
            } else if (before == null) {
                before = base(id);
                if (before != null) {
                    firstPool.put(id, Math.max(0, e.getValue() - before));
                }
            }
            if (before != null) {
                cpuPool.merge(e.getKey(), Math.max(0, e.getValue() - before), Long::sum);
            }
        }
        return ending;
    }

    /**
     * The threads' CPU time after their last samples goes on those: they ended, or stopped running
     * ({@link #fillPools}); a thread never sampled has no stack for it, and its time is counted as unsampled.
     */
    private void ended(List<Long> ids, long period) {
        List<Leftover> left = new ArrayList<>();
        long unsampled = 0;
        synchronized (nativeCarry) {
            java.util.Set<Long> waiting = new java.util.HashSet<>();
            pendingJava.forEach(s -> waiting.add(s.threadId()));
            for (long id : ids) {
                if (waiting.contains(id)) {
                    // its samples wait for its pool: it is finished at a later batch
                    if (!cpuTaken.containsKey(id)) {
                        gone.add(id);
                    }
                    continue;
                }
                Long pool = cpuPool.remove(id);
                firstPool.remove(id);
                // a thread still alive keeps its last sample: its next samples are not its first
                LastSample last = cpuTaken.containsKey(id) ? lastSample.get(id) : lastSample.remove(id);
                if (last != null && pool != null && pool > 0) {
                    left.add(new Leftover(id, last, pool));
                } else if (pool != null) {
                    unsampled += pool;
                }
            }
        }
        m.cpu.unsampled(unsampled);
        leftovers(left, period);
    }

    /**
     * Where a thread's pool starts at its first flush: {@link #cpuBase}; for a thread started later, where its clock
     * started ({@link ThreadStates#origin}); null: at that flush's reading.
     */
    private Long base(long threadId) {
        Long base = cpuBase.remove(threadId);
        return base != null ? base : threadId > baseMaxId ? states.origin(threadId) : null;
    }

    /** {@code ns} of CPU time on these frames: whole periods become samples, the rest goes to the thread's next. */
    private void attribute(long threadId, String name, List<Frame> clean, long ns, long period) {
        long samples;
        synchronized (nativeCarry) {
            long carried = nativeCarry.merge(threadId, ns, Long::sum);
            nativeCarry.put(threadId, carried % period);
            samples = carried / period;
        }
        if (samples > 0) {
            int depth = (int) m.settings.longValue("MAXDEPTH");
            List<Frame> kept = clean.size() > depth ? clean.subList(0, depth) : clean;
            for (long k = 0; k < samples; k++) {
                m.cpu.record(threadId, name, kept, period);
            }
            m.stacks.add(StackStore.View.CPU, threadId, name, rootFirstClean(clean, null), samples);
        }
    }

    @Override
    public void lock(long threadId, String name, List<Frame> topFirst, String lockClass, long ns) {
        m.stacks.add(StackStore.View.LOCK, threadId, name, rootFirst(topFirst, "[lock " + lockClass + "]"), ns);
    }

    @Override
    public void alloc(long threadId, String name, List<Frame> topFirst, String type, long bytes) {
        m.stacks.add(StackStore.View.ALLOC, threadId, name, rootFirst(topFirst, "[alloc " + type + "]"), bytes);
    }

    @Override
    public void gc(String collector, String cause, long pauseNs, long longestPauseNs, long startMillis) {
        m.jvm.gc(collector, cause, pauseNs, longestPauseNs, startMillis);
    }

    @Override
    public void threadStart(long threadId, String name, String parent, List<Frame> topFirst, long startMillis) {
        m.jvm.threadStart(threadId, name, parent, startMillis);
        if (!topFirst.isEmpty()) {
            m.stacks.add(StackStore.View.THREAD_START, threadId, null, rootFirst(topFirst, null), 1);
        }
    }

    @Override
    public void threadEnd(long threadId, String name, long endMillis) {
        m.jvm.threadEnd(threadId, name, endMillis);
    }

    @Override
    public void failed(String where, Throwable t) {
        m.agentErrors.putIfAbsent(where, t.getClass().getName() + ": " + t.getMessage());
    }
}
