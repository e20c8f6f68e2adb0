package org.dyper.runtime.monitor.internal.detailing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.dyper.runtime.instrument.PatchRefused;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;
import org.dyper.runtime.monitor.internal.sampling.FrameNames;
import org.dyper.runtime.wire.Xml;

/**
 * Automatic detailing (DETAIL=true): sampling finds the hot methods (the CLASS_/METHOD_DETAIL_* thresholds and
 * SETDETAIL), and this class patches exactly those into the running JVM, with exact timing and call counts, as one
 * run-time model ({@value #MODEL}) that grows and shrinks: a new version replaces the one that is in, in one step.
 * All patching happens on the monitor's own thread {@code dyper-monitor-detail}, never on a program thread; every
 * failure is caught, counted and shown in REPORT's DETAIL section ({@link DetailReport}).
 */
public final class Detailer {
    /** The run-time model detailing inserts. */
    public static final String MODEL = "dyper-detail";
    /** Items and inserts the report keeps at most (those detailed now always). */
    private static final int HISTORY = 256;
    /** Failures kept (by what failed and why, with a count). */
    private static final int FAILURE_KINDS = 32;

    /** One method detailing patched: when its current (or last) period began and ended (0 while patched). */
    static final class Item {
        final String className;
        final String method;
        long since;
        long until;
        int periods;

        Item(String className, String method) {
            this.className = className;
            this.method = method;
        }
    }

    /** One failure kind: what failed, why, how often, and when last. */
    static final class Failure {
        final String what;
        final String reason;
        long count;
        long last;

        Failure(String what, String reason) {
            this.what = what;
            this.reason = reason;
        }
    }

    /** One insert of the model: its patch id, its first site id in this JVM (0 until known), and its site table. */
    record Insert(String patchId, int firstSiteId, String siteTable) {}

    private final Monitor m;
    private final DetailService service;
    private final Object wake = new Object();
    /** Held while detailing patches, and by INSTRUMENT while it inserts a user's model (see {@link #stepAside}). */
    public final Object patching = new Object();
    private boolean threadStarted;
    // guarded by this
    final Map<String, Item> items = new LinkedHashMap<>();
    final Map<String, String> skipped = new TreeMap<>();
    final Map<String, Failure> failures = new LinkedHashMap<>();
    /** The patch service's warnings (a method that makes no call: COUNT_CALLS matches nothing in it); not failures. */
    final Map<String, Failure> notes = new LinkedHashMap<>();
    final Map<String, Insert> inserts = new LinkedHashMap<>();
    private final Map<String, String> refusedClasses = new HashMap<>();
    private final Map<String, String> classVerdicts = new HashMap<>();
    long failureCount;
    long patches;
    long removals;
    long started;
    long stopped;
    String waiting;
    Set<String> inserted = Set.of();
    private Set<String> failedSet;

    public Detailer(Monitor m) {
        this.m = m;
        this.service = new DetailService(m.options.dir(), m.pid, m.options.cli());
    }

    /** After SET: starts the detailing thread the first time DETAIL is true, and wakes it. */
    public void apply() {
        synchronized (wake) {
            if (!threadStarted && m.settings.bool("DETAIL")) {
                threadStarted = true;
                m.daemon("dyper-monitor-detail", this::loop).start();
            }
            wake.notifyAll();
        }
    }

    private void loop() {
        while (true) {
            try {
                synchronized (wake) {
                    wake.wait(m.settings.longValue("DETAIL_PERIOD"));
                }
                synchronized (patching) {
                    round();
                }
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                fail("detailing", Monitor.describe(t) + " (" + t.getClass().getName() + ")");
            }
        }
    }

    /** One check: what should be detailed now, and the patch that makes it so. */
    void round() {
        boolean on = m.settings.bool("DETAIL");
        long now = System.currentTimeMillis();
        synchronized (this) {
            if (!on && started != 0 && stopped == 0) {
                stopped = now;
            } else if (on && (started == 0 || stopped != 0)) {
                started = now;
                stopped = 0;
            }
        }
        RuntimePatcher patcher = RuntimePatcher.get();
        if (patcher == null) {
            waiting("this JVM's monitor has no Instrumentation (it was not started as a javaagent): it cannot patch");
            return;
        }
        String active = patcher.activeModel();
        if (!on) {
            if (MODEL.equals(active)) {
                remove(patcher, now);
            }
            service.close();
            waiting(null);
            return;
        }
        if (active != null && !active.equals(MODEL)) {
            ended(now);
            waiting("model '" + active + "' was instrumented by hand: detailing waits until it is removed (one model "
                    + "at a time)");
            return;
        }
        if (active == null) {
            ended(now);  // taken out by hand (uninstrument): put in again below when there is something to detail
        }
        try {
            service.client();  // at once, so a service the monitor starts is up by the time something is hot
        } catch (DetailService.Unavailable e) {
            waiting(e.getMessage());
            return;
        }
        Map<String, String> skip = new TreeMap<>();
        List<String> wanted = choose(m.cpu.detailCandidates(), inserted, (int) m.settings.longValue("DETAIL_MAX"),
                this::refusal, skip);
        synchronized (this) {
            for (Map.Entry<String, String> e : skip.entrySet()) {
                if (skipped.size() < HISTORY || skipped.containsKey(e.getKey())) {
                    skipped.put(e.getKey(), e.getValue());
                }
            }
        }
        Set<String> want = new LinkedHashSet<>(wanted);
        if (want.equals(inserted) || want.equals(failedSet)) {
            if (want.equals(inserted)) {
                waiting(null);
            }
            return;
        }
        if (want.isEmpty()) {
            remove(patcher, now);
            waiting(null);
            return;
        }
        insert(patcher, wanted, now);
    }

    /**
     * The items to detail: forced ones first, then those detailed now (so a full set does not flap), then the rest
     * by rank, at most {@code max}; a candidate {@code refusal} gives a reason for goes to {@code skipped} instead.
     */
    static List<String> choose(List<CpuAgent.Candidate> candidates, Set<String> current, int max,
            Function<CpuAgent.Candidate, String> refusal, Map<String, String> skipped) {
        List<CpuAgent.Candidate> ok = new ArrayList<>();
        for (CpuAgent.Candidate c : candidates) {
            String why = refusal.apply(c);
            if (why == null) {
                ok.add(c);
            } else {
                skipped.put(c.item(), why);
            }
        }
        Set<String> out = new LinkedHashSet<>();
        for (int pass = 0; pass < 3; pass++) {
            for (CpuAgent.Candidate c : ok) {
                boolean take = switch (pass) {
                    case 0 -> c.forced();
                    case 1 -> current.contains(c.item());
                    default -> true;
                };
                if (take && out.size() < max) {
                    out.add(c.item());
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Why a candidate is never patched, or null. */
    private String refusal(CpuAgent.Candidate c) {
        String cls = c.className();
        if (c.method().startsWith("<")) {
            return "constructors and class initialisers are not detailed";
        }
        for (String p : List.of("java.", "javax.", "jdk.", "sun.", "com.sun.")) {
            if (cls.startsWith(p)) {
                return "a system class";
            }
        }
        if (FrameNames.dyper(cls)) {
            return "Dyper's or AspectJ's own code";
        }
        if (m.classTypes.system(cls)) {
            return "a SYSTEM class (CLASSES)";
        }
        if (cls.contains("$$Lambda") || cls.contains("/")) {
            return "a hidden class";
        }
        String refused = refusedClasses.get(cls);
        return refused != null ? refused : loaderVerdict(cls);
    }

    /** Null when {@code cls} is loaded by a class loader whose classes can be patched, else why not. */
    private String loaderVerdict(String cls) {
        String known = classVerdicts.get(cls);
        if (known != null) {
            return known.isEmpty() ? null : known;
        }
        if (m.inst == null) {
            return null;
        }
        String verdict = "not loaded";
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        for (Class<?> c : m.inst.getAllLoadedClasses()) {
            if (c.getName().equals(cls)) {
                ClassLoader l = c.getClassLoader();
                verdict = l == null ? "loaded by the bootstrap class loader"
                        : l == platform ? "loaded by the platform class loader" : "";
                if (verdict.isEmpty()) {
                    break;
                }
            }
        }
        if (!verdict.equals("not loaded")) {
            classVerdicts.put(cls, verdict);
        }
        return verdict.isEmpty() ? null : verdict;
    }

    /** The model with one FOR per item: exact timing at ENTER/EXIT and a count of every call it makes. */
    static String modelXml(List<String> items) {
        StringBuilder x = new StringBuilder("<MODEL NAME='" + MODEL + "'><FOR CLASS='*' METHOD='*' UPDATE='NEW'/>");
        for (String item : items) {
            int hash = item.indexOf('#');
            x.append("<FOR CLASS='").append(Xml.esc(item.substring(0, hash))).append("' METHOD='")
                    .append(Xml.esc(item.substring(hash + 1))).append("'><PATCH WHAT='ENTER' MODE='TIME_ENTER'/>")
                    .append("<PATCH WHAT='EXIT' MODE='TIME_EXIT'/><PATCH WHAT='CALL' MODE='COUNT_CALLS'/></FOR>");
        }
        return x.append("</MODEL>").toString();
    }

    private void insert(RuntimePatcher patcher, List<String> wanted, long now) {
        PatchSet set;
        try {
            WireClient c = service.client();
            String reply = c.command("MODEL", modelXml(wanted));
            if (reply.contains("<ERROR>")) {
                failed(wanted, "the patch service refused the model", reply);
                return;
            }
            reply = c.command("PATCH", "<PATCH ALL='true' MODEL='" + MODEL + "'/>");
            for (String w : DetailService.warnings(reply)) {
                synchronized (this) {
                    count(notes, "the patch service", w);
                }
            }
            set = DetailService.patchSet(MODEL, reply);
        } catch (DetailService.Unavailable e) {
            waiting(e.getMessage());
            return;
        } catch (IOException e) {
            service.close();
            failed(wanted, "the patch service", e.getMessage());
            return;
        } catch (RuntimeException e) {
            failed(wanted, "reading the patch", Monitor.describe(e));
            return;
        }
        RuntimePatcher.Inserted done;
        try {
            done = patcher.insert(set);
        } catch (PatchRefused e) {
            String message = e.getMessage();
            String cls = null;
            for (String item : wanted) {
                String c = item.substring(0, item.indexOf('#'));
                if (message.startsWith(c + " ") || message.startsWith(c + ":")) {
                    cls = c;
                }
            }
            synchronized (this) {
                if (cls != null) {
                    refusedClasses.put(cls, "refused: " + message);
                }
            }
            failed(cls == null ? wanted : null, "inserting the patch", message);
            return;
        }
        synchronized (this) {
            Set<String> want = new LinkedHashSet<>(wanted);
            for (String item : want) {
                Item i = items.get(item);
                if (i == null) {
                    int hash = item.indexOf('#');
                    i = new Item(item.substring(0, hash), item.substring(hash + 1));
                    items.put(item, i);
                }
                if (!inserted.contains(item)) {
                    i.since = now;
                    i.until = 0;
                    i.periods++;
                }
            }
            for (String item : inserted) {
                if (!want.contains(item)) {
                    items.get(item).until = now;
                }
            }
            inserted = want;
            failedSet = null;
            patches++;
            inserts.remove(set.id());
            inserts.put(set.id(), new Insert(set.id(), done.firstSiteId(), set.siteTable()));
            trim();
            waiting = null;
        }
    }

    /** Keeps the history bounded: the oldest items not detailed now and the oldest inserts go first. */
    private void trim() {
        var it = items.entrySet().iterator();
        while (items.size() > HISTORY && it.hasNext()) {
            if (!inserted.contains(it.next().getKey())) {
                it.remove();
            }
        }
        var ins = inserts.keySet().iterator();
        while (inserts.size() > HISTORY && ins.hasNext()) {
            ins.next();
            ins.remove();
        }
    }

    private void remove(RuntimePatcher patcher, long now) {
        try {
            patcher.remove(MODEL);
            synchronized (this) {
                removals++;
            }
        } catch (PatchRefused e) {
            fail("removing the patch", e.getMessage());
        }
        ended(now);
    }

    /** Every item patched now ends its period ({@code now}). */
    private synchronized void ended(long now) {
        for (String item : inserted) {
            items.get(item).until = now;
        }
        inserted = Set.of();
    }

    /**
     * Called by INSTRUMENT, holding {@link #patching}, before it inserts a user's model: detailing's model steps aside
     * (one model at a time), and detailing waits while the user's model is in.
     */
    public void stepAside() {
        RuntimePatcher patcher = RuntimePatcher.get();
        if (patcher != null && MODEL.equals(patcher.activeModel())) {
            remove(patcher, System.currentTimeMillis());
        }
    }

    private synchronized void waiting(String why) {
        waiting = why;
    }

    private synchronized void failed(List<String> wanted, String what, String reason) {
        if (wanted != null) {
            failedSet = new LinkedHashSet<>(wanted);
        }
        fail(what, reason);
    }

    synchronized void fail(String what, String reason) {
        failureCount++;
        count(failures, what, reason);
    }

    private static void count(Map<String, Failure> kinds, String what, String reason) {
        Failure f = kinds.get(what + "\n" + reason);
        if (f == null) {
            if (kinds.size() >= FAILURE_KINDS) {
                kinds.remove(kinds.keySet().iterator().next());
            }
            f = new Failure(what, reason);
            kinds.put(what + "\n" + reason, f);
        }
        f.count++;
        f.last = System.currentTimeMillis();
    }
}
