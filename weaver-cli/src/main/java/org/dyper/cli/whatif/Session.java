package org.dyper.cli.whatif;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.LivePatching;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.xml.ModelReader;
import org.dyper.runtime.instrument.PatchSetFiles;
import org.dyper.runtime.io.AtomicWrite;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * One {@code dyper whatif} run against one process: choose candidates and delay points, patch them in through the
 * monitor ({@link LivePatching}), run the randomised experiments with the monitor's WHATIF command, and take
 * everything out again, at the end or from the shutdown hook (Ctrl-C), whichever comes first.
 */
final class Session {
    /** The run-time model's name; one model at a time, so a hand-instrumented model must go first. */
    static final String MODEL = "dyper-whatif";
    static final String MODES_RESOURCE = "org/dyper/cli/whatif/whatif-modes.xml";
    /**
     * Calls that may wake another thread without blocking: a thread pays what it owes before it makes one (as Coz
     * does) and leaves what it paid on the object called (WHATIF_RELEASE).
     */
    static final List<String> WAKERS = List.of("unlock", "signal", "signalAll", "notify", "notifyAll", "countDown",
            "release", "offer", "arrive", "complete", "unpark", "execute", "submit");
    /**
     * Calls that may block (and may wake another thread too: a {@code put} a taker, a barrier's last {@code await} the
     * others): a release before, and after it the thread is credited by Coz's rule (WHATIF_BLOCK, WHATIF_WOKEN).
     */
    static final List<String> BLOCKERS = List.of("take", "put", "poll", "transfer", "await", "awaitAdvance",
            "awaitAdvanceInterruptibly", "arriveAndAwaitAdvance", "exchange", "acquire", "lock", "lockInterruptibly",
            "wait", "join", "park", "parkNanos", "parkUntil");
    private static final int MILLIS = 120_000;

    private final WhatIfCommand.Parsed o;
    private final PrintStream out;
    private final PrintStream err;
    private final MonitorEntry entry;
    private final AtomicBoolean cleaned = new AtomicBoolean();
    /** Held while an experiment is switched, and while cleaning up decides to stop them. */
    private final Object switching = new Object();
    private volatile boolean inserted;

    Session(WhatIfCommand.Parsed options, MonitorEntry entry, PrintStream out, PrintStream err) {
        this.o = options;
        this.entry = entry;
        this.out = out;
        this.err = err;
    }

    /** A method named {@code Class.method}, with its share of the CPU samples (negative: unknown). */
    record Method(String className, String name, double self, double total) {
        String spec() {
            return className + "." + name;
        }

        static Method of(String spec) {
            String s = spec.contains("(") ? spec.substring(0, spec.indexOf('(')) : spec;
            int dot = s.lastIndexOf('.');
            return new Method(s.substring(0, dot), s.substring(dot + 1), -1, -1);
        }
    }

    /** What sampling says: the hottest application methods by self time, and by time on the stack. */
    record Hot(List<Method> bySelf, List<Method> byTotal) {
    }

    Hot sample() throws IOException, CommandFailure, InterruptedException {
        if (o.sampleMillis() > 0) {
            out.printf(Locale.ROOT, "dyper: whatif: sampling process %d for %.1f s to choose candidates%n", entry.pid(),
                    o.sampleMillis() / 1000.0);
            Thread.sleep(o.sampleMillis()); // the samples the monitor takes meanwhile are what candidates come from
        }
        // a monitor that was just attached may take a few seconds to deliver its first samples
        long deadline = System.nanoTime() + 15_000_000_000L;
        Element cpu = cpuSection();
        while (!hasApplicationSamples(cpu) && System.nanoTime() < deadline) {
            Thread.sleep(500); // polling the monitor for its first samples, with the deadline above
            cpu = cpuSection();
        }
        if (cpu == null) {
            throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + entry.pid() + ": REPORT has no CPU section"
                    + " to choose candidates from; name them with --candidates");
        }
        long samples = 0;
        List<Element> methods = Xml.children(Xml.child(cpu, "METHODS"), "METHOD");
        for (Element m : methods) {
            samples += Long.parseLong(m.getAttribute("SELF"));
        }
        List<Method> bySelf = new ArrayList<>();
        List<Method> byTotal = new ArrayList<>();
        for (Element m : methods) {
            String cls = m.getAttribute("CLASS");
            String name = m.getAttribute("NAME");
            if (!application(cls, name)) {
                continue;
            }
            long self = Long.parseLong(m.getAttribute("SELF"));
            long total = Long.parseLong(m.getAttribute("TOTAL"));
            Method method = new Method(cls, name, samples == 0 ? -1 : (double) self / samples,
                    samples == 0 ? -1 : (double) total / samples);
            if (self > 0) {
                bySelf.add(method);
            }
            byTotal.add(method);
        }
        // METHODS comes ranked by self time; the delay points want time on the stack (a stable sort keeps ties)
        byTotal.sort(java.util.Comparator.comparingDouble(Method::total).reversed());
        return new Hot(bySelf, byTotal);
    }

    private Element cpuSection() throws IOException, CommandFailure {
        try (WireClient c = LivePatching.connect(entry, MILLIS)) {
            return Xml.find(LivePatching.answer(entry.pid(), c.command("REPORT", "<REPORT TYPE='CPU'/>")),
                    "CPU");
        }
    }

    private static boolean hasApplicationSamples(Element cpu) {
        if (cpu == null || Xml.child(cpu, "METHODS") == null) {
            return false;
        }
        for (Element m : Xml.children(Xml.child(cpu, "METHODS"), "METHOD")) {
            if (application(m.getAttribute("CLASS"), m.getAttribute("NAME")) && !m.getAttribute("TOTAL").equals("0")) {
                return true;
            }
        }
        return false;
    }


    /** Code that run-time patching can reach: not the JDK's, not Dyper's, and a named method. */
    static boolean application(String cls, String name) {
        for (String p : List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "org.dyper.", "org.aspectj.")) {
            if (cls.startsWith(p)) {
                return false;
            }
        }
        return !cls.isEmpty() && !name.isEmpty() && !name.startsWith("<") && !cls.contains("$$Lambda")
                && !cls.contains("/");
    }

    /** The model: every delay point and candidate timed at entry and exit, with wake-up points; the progress point. */
    static String modelXml(Set<Method> delayPoints, Method progress) {
        return modelXml(delayPoints, progress, null, null);
    }

    /**
     * As {@link #modelXml(Set, Method)}; with {@code begin} and {@code end} (not null) the progress point measures
     * latency: each call of the method (the same method) or each unit from begin's entry to end's exit on one thread.
     * One FOR per method, with all its patches.
     */
    static String modelXml(Set<Method> delayPoints, Method progress, Method begin, Method end) {
        Map<String, Method> methods = new LinkedHashMap<>();
        Map<String, StringBuilder> patches = new LinkedHashMap<>();
        java.util.function.BiConsumer<Method, String> add = (m, patch) -> {
            methods.putIfAbsent(m.spec(), m);
            patches.computeIfAbsent(m.spec(), k -> new StringBuilder()).append(patch);
        };
        for (Method m : delayPoints) {
            StringBuilder p = new StringBuilder("    <PATCH WHAT='ENTER' MODE='WHATIF_ENTER'/>\n    <PATCH WHAT='EXIT' "
                    + "MODE='WHATIF_EXIT'/>\n    <PATCH WHAT='SYNC_TEST' MODE='WHATIF_BLOCK_MONITOR'/>\n"
                    + "    <PATCH WHAT='SYNC_ENTER' MODE='WHATIF_WOKEN_MONITOR'/>\n"
                    + "    <PATCH WHAT='SYNC_EXIT' MODE='WHATIF_RELEASE_MONITOR'/>\n");
            for (String w : WAKERS) {
                p.append("    <PATCH WHAT='CALL' MODE='WHATIF_RELEASE'><WHEN CASE='METHOD' ARG='").append(w)
                        .append("'/></PATCH>\n");
            }
            for (String w : BLOCKERS) {
                p.append("    <PATCH WHAT='CALL' MODE='WHATIF_BLOCK'><WHEN CASE='METHOD' ARG='").append(w)
                        .append("'/></PATCH>\n    <PATCH WHAT='CALL' MODE='WHATIF_WOKEN'><WHEN CASE='METHOD' ARG='")
                        .append(w).append("'/></PATCH>\n");
            }
            add.accept(m, p.toString());
        }
        if (end == null) {
            add.accept(progress, "    <PATCH WHAT='EXIT' MODE='WHATIF_PROGRESS'/>\n");
        } else if (begin.spec().equals(end.spec())) {
            add.accept(end, "    <PATCH WHAT='ENTER' MODE='WHATIF_BEGIN'/>\n    <PATCH WHAT='EXIT' MODE='WHATIF_END'/>\n");
        } else {
            add.accept(begin, "    <PATCH WHAT='ENTER' MODE='WHATIF_PAIR_BEGIN'/>\n");
            add.accept(end, "    <PATCH WHAT='EXIT' MODE='WHATIF_PAIR_END'/>\n");
        }
        StringBuilder x = new StringBuilder("<MODEL NAME='" + MODEL + "'>\n");
        methods.forEach((spec, m) -> x.append("  <FOR CLASS='").append(MonitorReply.escape(m.className()))
                .append("' METHOD='").append(MonitorReply.escape(m.name())).append("'>\n").append(patches.get(spec))
                .append("  </FOR>\n"));
        return x.append("</MODEL>\n").toString();
    }

    /** Loop heads inserted (back-edges), and the methods that have them (name + descriptor, with their class). */
    private int loopHeads;
    private final List<String> loopMethods = new ArrayList<>();
    /** Where the class files with loop heads are written for INSTRUMENT (deleted at the end); null: none yet. */
    private Path loopDir;

    int loopHeads() {
        return loopHeads;
    }

    List<String> loopMethods() {
        return loopMethods;
    }

    /**
     * Site ids of the model that is in, by site name ({@code class.method(types)}). {@code loops}: the methods (by
     * class, then name) whose loop heads become delay points too ({@link LoopHeads}); empty: none.
     */
    Map<String, Integer> insert(String modelXml, Map<String, Set<String>> loops) throws IOException, CommandFailure,
            InvalidInputException, WeaveException {
        Path modes = modesFile(o.cache());
        Model model = ModelReader.read(MODEL, new ByteArrayInputStream(modelXml.getBytes(StandardCharsets.UTF_8)));
        Runtime.getRuntime().addShutdownHook(hook);
        inserted = true;
        LivePatching.Inserted in = LivePatching.insert(entry, ModeCatalog.load(List.of(modes)), model, o.cache(),
                MILLIS, files -> loops.isEmpty() ? files : withLoopHeads(files, loops));
        if (!in.warnings().isEmpty()) {
            if (o.verbose()) {
                in.warnings().forEach(w -> err.println("dyper: warning: " + w));
            } else {
                err.println("dyper: whatif: " + in.warnings().size() + " warning(s) from patching (mostly wake-up "
                        + "points, lock releases and hand-offs, that a delay-point method does not have); --verbose "
                        + "prints them");
            }
        }
        Map<String, Integer> sites = new LinkedHashMap<>();
        try (WireClient c = LivePatching.connect(entry, MILLIS)) {
            Element patches = Xml.child(LivePatching.answer(entry.pid(), c.command("INSTRUMENTED", null)), "PATCHES");
            for (Element m : Xml.children(patches, "MODEL")) {
                if (m.getAttribute("NAME").equals(MODEL) && "true".equals(m.getAttribute("ACTIVE"))) {
                    for (Element s : Xml.children(m, "SITE")) {
                        sites.putIfAbsent(s.getAttribute("NAME"), Integer.parseInt(s.getAttribute("ID")));
                    }
                }
            }
        }
        return sites;
    }

    /**
     * The patch set with loop heads in the patched classes of {@code loops}' methods, written to a folder of this run
     * (the patch cache's files stay as woven). A class that cannot be read or rewritten goes in without loop heads,
     * with a warning naming it.
     */
    private PatchSetFiles withLoopHeads(PatchSetFiles files, Map<String, Set<String>> loops) {
        List<PatchSetFiles.ClassEntry> classes = new ArrayList<>();
        for (PatchSetFiles.ClassEntry c : files.classes()) {
            Set<String> methods = loops.get(c.name());
            if (methods == null || c.patched() == null) {
                classes.add(c);
                continue;
            }
            try {
                LoopHeads.Result r = LoopHeads.insert(Files.readAllBytes(Path.of(c.patched())), methods);
                if (r.heads() == 0) {
                    classes.add(c);
                    continue;
                }
                if (loopDir == null) {
                    loopDir = Files.createDirectories(o.cache().resolve("whatif").resolve("loops"))
                            .resolve(entry.pid() + "-" + System.nanoTime());
                }
                Path file = loopDir.resolve(c.name().replace('.', '/') + ".class");
                Files.createDirectories(file.getParent());
                AtomicWrite.write(file, r.bytes());
                classes.add(new PatchSetFiles.ClassEntry(c.name(), c.original(), file.toString()));
                loopHeads += r.heads();
                r.methods().forEach(m -> loopMethods.add(c.name() + "." + m));
            } catch (IOException | RuntimeException e) {
                err.println("dyper: warning: whatif: no loop heads in " + c.name() + " (" + e + "); its methods' "
                        + "entries stay its only delay points");
                classes.add(c);
            }
        }
        return new PatchSetFiles(files.model(), files.id(), files.sites(), classes, files.aspects(),
                files.runtimeJars(), files.notes(), files.warnings());
    }

    /** The methods of {@code points} by class, then name: where loop heads go. */
    static Map<String, Set<String>> byClass(Set<Method> points) {
        Map<String, Set<String>> m = new LinkedHashMap<>();
        points.forEach(p -> m.computeIfAbsent(p.className(), k -> new LinkedHashSet<>()).add(p.name()));
        return m;
    }

    /** The what-if modes as a file the mode reader takes, in the cache (rewritten only when it changed). */
    static Path modesFile(Path cache) throws IOException {
        byte[] bytes;
        try (InputStream in = Session.class.getClassLoader().getResourceAsStream(MODES_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(MODES_RESOURCE + " is missing from the dyper jar");
            }
            bytes = in.readAllBytes();
        }
        Path file = cache.resolve("whatif").resolve("whatif-modes.xml");
        if (!Files.exists(file) || !java.util.Arrays.equals(Files.readAllBytes(file), bytes)) {
            Files.createDirectories(file.getParent());
            AtomicWrite.write(file, bytes);
        }
        return file;
    }

    /** The site ids of {@code m} (every overload), by the names INSTRUMENTED gives. */
    static List<Integer> ids(Map<String, Integer> sites, String spec) {
        List<Integer> ids = new ArrayList<>();
        sites.forEach((name, id) -> {
            if (spec.contains("(") ? name.equals(spec) : name.startsWith(spec + "(")) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** One experiment switch: the figures until now, then the new experiment (candidate null: stop). */
    static Element whatif(WireClient c, long pid, Integer candidate, int speedup, String progress)
            throws IOException, CommandFailure {
        String data = candidate == null ? "<WHATIF STOP='true' PROGRESS='" + progress + "'/>"
                : "<WHATIF CANDIDATE='" + candidate + "' SPEEDUP='" + speedup + "' PROGRESS='" + progress + "'/>";
        return Xml.child(LivePatching.answer(pid, c.command("WHATIF", data)), "WHATIF");
    }

    /** The figures of one WHATIF reply that a window needs. */
    record Figures(long now, long delay, long visits, long parks, long parkedNs, long creditedNs, long units,
            long unitNanos, long loopParks, Flow flow) {
        static Figures of(Element w) {
            long visits = 0;
            long units = 0;
            long unitNanos = 0;
            for (Element p : Xml.children(w, "PROGRESS")) {
                visits += Long.parseLong(p.getAttribute("COUNT"));
                units += number(p, "LATENCY_COUNT");
                unitNanos += number(p, "LATENCY_NS");
            }
            return new Figures(Long.parseLong(w.getAttribute("NOW")), Long.parseLong(w.getAttribute("DELAY")), visits,
                    Long.parseLong(w.getAttribute("PARKS")), Long.parseLong(w.getAttribute("PARKED_NS")),
                    Long.parseLong(w.getAttribute("CREDITED_NS")), units, unitNanos, number(w, "LOOP_PARKS"),
                    Flow.of(Xml.child(w, "FLOW")));
        }

        /** A figure a monitor of an older Dyper does not send is 0. */
        private static long number(Element e, String attr) {
            String v = e.getAttribute(attr);
            return v.isEmpty() ? 0 : Long.parseLong(v);
        }
    }

    /**
     * The flow through a latency pair at one reply (Little's law): begins and ends so far, their summed virtual times
     * (ns from the runtime's origin), units in flight now and their minimum during the experiment that just ended,
     * and the virtual time of the reply.
     */
    record Flow(long arrivals, long arrivalNs, long departures, long departureNs, long inFlight, long minInFlight,
            long vnow) {
        static final Flow NONE = new Flow(0, 0, 0, 0, 0, 0, 0);

        static Flow of(Element f) {
            if (f == null) {
                return NONE; // a monitor of an older Dyper
            }
            return new Flow(Long.parseLong(f.getAttribute("ARRIVALS")), Long.parseLong(f.getAttribute("ARRIVAL_NS")),
                    Long.parseLong(f.getAttribute("DEPARTURES")), Long.parseLong(f.getAttribute("DEPARTURE_NS")),
                    Long.parseLong(f.getAttribute("IN_FLIGHT")), Long.parseLong(f.getAttribute("MIN_IN_FLIGHT")),
                    Long.parseLong(f.getAttribute("VNOW")));
        }

        /**
         * The window from {@code before} to this reply by Little's law: {@code {departures, the integral over the
         * window's virtual time of the units in flight less n0 × its length (ns), n0: the units in flight at its
         * start (uncorrected), their minimum during it, its virtual length}}. The integral is {@code n0 × T} plus,
         * over the begins, the time from each to the window's end, less the same over the ends; {@code n0} gets its
         * offset in {@link #littlesLaw}.
         */
        long[] windowSince(Flow before) {
            long a = arrivals - before.arrivals;
            long e = departures - before.departures;
            long in = a * vnow - (arrivalNs - before.arrivalNs);
            long out = e * vnow - (departureNs - before.departureNs);
            return new long[] {e, in - out, before.inFlight, minInFlight, vnow - before.vnow};
        }
    }

    /**
     * The windows by Little's law: mean latency = mean units in flight / throughput, i.e. per window the integral of
     * the units in flight over its virtual time divided by its departures. The runtime counts in flight since its
     * class loaded, so units that began before the pair was patched (or ended after an earlier run's model came out)
     * shift the count by a constant; it is taken out by assuming that at some moment of some window no unit was in
     * flight (the least count seen is that moment's 0).
     */
    static List<Profile.Window> littlesLaw(List<Profile.Window> windows, List<long[]> flows) {
        long offset = Long.MAX_VALUE;
        for (long[] f : flows) {
            offset = Math.min(offset, f[3]);
        }
        List<Profile.Window> result = new ArrayList<>(windows.size());
        for (int i = 0; i < windows.size(); i++) {
            Profile.Window w = windows.get(i);
            long[] f = flows.get(i);
            long integral = (f[2] - offset) * f[4] + f[1];
            result.add(new Profile.Window(w.candidate(), w.speedup(), w.visits(), w.nanos(), w.delayNanos(), f[0],
                    Math.max(integral, 0)));
        }
        return result;
    }

    static final String THREAD = "THREAD";
    static final String LITTLE = "LITTLE";

    /**
     * Which estimator a begin/end pair gets: {@link #THREAD} (each unit timed on its thread) when the units timed on
     * one thread are at least 90 % of the ends, else {@link #LITTLE} (begin and end on different threads).
     */
    static String estimator(List<Profile.Window> windows, List<long[]> flows) {
        long units = 0;
        long ends = 0;
        for (int i = 0; i < windows.size(); i++) {
            units += windows.get(i).units();
            ends += flows.get(i)[0];
        }
        return ends > 0 && units * 10 < ends * 9 ? LITTLE : THREAD;
    }

    /** The windows as the profile reads them: by Little's law when a begin/end pair's {@link #estimator} says so. */
    static List<Profile.Window> estimated(boolean pair, List<Profile.Window> windows, List<long[]> flows) {
        return pair && estimator(windows, flows).equals(LITTLE) ? littlesLaw(windows, flows) : windows;
    }

    /**
     * What the experiments gave: the windows, and the delays' totals; {@code byCandidate[i]} the delay inserted and
     * the delay credited to blocked threads in candidate i's windows with s &gt; 0 (null: not kept).
     */
    record Result(List<Profile.Window> windows, long millis, long delayNs, long parks, long parkedNs,
            long creditedNs, long loopParks, boolean interrupted, long[][] byCandidate, String estimator) {
        Result(List<Profile.Window> windows, long millis, long delayNs, long parks, long parkedNs, long creditedNs,
                long loopParks, boolean interrupted) {
            this(windows, millis, delayNs, parks, parkedNs, creditedNs, loopParks, interrupted, null, null);
        }
    }

    /**
     * Runs experiments until the time is up or every interval is narrow enough: rounds of every (candidate, s &gt; 0)
     * pair and as many baseline windows as candidates, in a random order each round.
     */
    Result experiments(List<Integer> candidateIds, String progressIds) throws IOException, CommandFailure {
        Random random = new Random(o.seed());
        List<Profile.Window> windows = new ArrayList<>();
        long[][] byCandidate = new long[candidateIds.size()][2];
        List<long[]> flows = new ArrayList<>();
        boolean pair = o.begin() != null && !o.begin().equals(o.end());
        List<Integer> speedups = o.speedups().stream().filter(s -> s > 0).toList();
        long start = System.nanoTime();
        long deadline = start + o.durationMillis() * 1_000_000L;
        Figures first;
        Figures last;
        try (WireClient c = LivePatching.connect(entry, MILLIS)) {
            first = Figures.of(whatif(c, entry.pid(), null, 0, progressIds));
            last = first;
            int round = 0;
            outer:
            while (System.nanoTime() < deadline) {
                List<int[]> plan = new ArrayList<>();
                for (int ci = 0; ci < candidateIds.size(); ci++) {
                    plan.add(new int[] {ci, 0});
                    for (int s : speedups) {
                        plan.add(new int[] {ci, s});
                    }
                }
                Collections.shuffle(plan, random);
                for (int[] e : plan) {
                    if (System.nanoTime() >= deadline) {
                        break outer;
                    }
                    Figures before;
                    synchronized (switching) {
                        if (cleaned.get()) {
                            break outer; // the shutdown hook stopped everything: start nothing more
                        }
                        before = Figures.of(whatif(c, entry.pid(), candidateIds.get(e[0]), e[1], progressIds));
                    }
                    sleepWindow();
                    Figures after;
                    synchronized (switching) {
                        if (cleaned.get()) {
                            break outer;
                        }
                        after = Figures.of(whatif(c, entry.pid(), null, 0, progressIds));
                    }
                    windows.add(new Profile.Window(e[0], e[1], after.visits() - before.visits(), after.now()
                            - before.now(), after.delay() - before.delay(), after.units() - before.units(),
                            after.unitNanos() - before.unitNanos()));
                    flows.add(after.flow().windowSince(before.flow()));
                    if (e[1] > 0) {
                        byCandidate[e[0]][0] += after.delay() - before.delay();
                        byCandidate[e[0]][1] += after.creditedNs() - before.creditedNs();
                    }
                    last = after;
                }
                round++;
                if (round >= 3 && o.precision() > 0) {
                    List<Profile.Row> rows = Profile.rows(candidateIds.stream().map(String::valueOf).toList(),
                            new double[candidateIds.size()][2], speedups, estimated(pair, windows, flows), o.seed(),
                            o.latency());
                    if (Profile.widest(rows) <= o.precision()) {
                        break;
                    }
                }
            }
        }
        String estimator = pair ? estimator(windows, flows) : null;
        return new Result(estimated(pair, windows, flows),
                (System.nanoTime() - start) / 1_000_000, last.delay() - first.delay(),
                last.parks() - first.parks(), last.parkedNs() - first.parkedNs(),
                last.creditedNs() - first.creditedNs(), last.loopParks() - first.loopParks(), cleaned.get(),
                byCandidate, estimator);
    }

    private void sleepWindow() {
        try {
            Thread.sleep(o.windowMillis()); // the experiment runs in the program meanwhile
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final Thread hook = new Thread(this::cleanUpQuietly, "dyper-whatif-cleanup");

    /** Stops the experiments and takes the model out; once, whoever comes first (the end, or Ctrl-C). */
    String cleanUp() throws IOException, CommandFailure {
        synchronized (switching) {
            // under the lock the experiment loop switches with, so that no experiment starts after this stop
            if (!inserted || !cleaned.compareAndSet(false, true)) {
                return null;
            }
        }
        Exception stop = null;
        try (WireClient c = LivePatching.connect(entry, MILLIS)) {
            LivePatching.answer(entry.pid(), c.command("WHATIF", "<WHATIF STOP='true'/>"));
        } catch (IOException | CommandFailure e) {
            stop = e; // the model still comes out: its hooks do nothing once it is gone
        }
        Element reply = LivePatching.remove(entry, MODEL, MILLIS);
        if (loopDir != null) {
            org.dyper.patch.build.Weaver.deleteTree(loopDir); // the classes are restored: nothing reads these again
        }
        if (stop != null) {
            err.println("dyper: warning: whatif: stopping the experiments in process " + entry.pid() + " failed ("
                    + stop.getMessage() + "); the model was removed");
        }
        return reply.getAttribute("CLASSES");
    }

    private void cleanUpQuietly() {
        try {
            String classes = cleanUp();
            if (classes != null) {
                err.println("dyper: whatif: interrupted; experiments stopped and model '" + MODEL + "' removed from "
                        + "process " + entry.pid() + " (" + classes + " class(es) restored)");
            }
        } catch (IOException | CommandFailure | RuntimeException e) {
            err.println("dyper: error: whatif: could not take model '" + MODEL + "' out of process " + entry.pid()
                    + ": " + e.getMessage() + " (dyper ctl " + entry.pid() + " uninstrument " + MODEL + ")");
        }
    }

    /** Called once the run ended normally: the hook is no longer needed. */
    void removeHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook runs (and finds the work done)
        }
    }

    static Set<Method> union(List<Method> a, List<Method> b) {
        Set<Method> s = new LinkedHashSet<>();
        Set<String> seen = new java.util.HashSet<>();
        for (Method m : a) {
            if (seen.add(m.spec())) {
                s.add(m);
            }
        }
        for (Method m : b) {
            if (seen.add(m.spec())) {
                s.add(m);
            }
        }
        return s;
    }
}
