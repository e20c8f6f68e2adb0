package org.dyper.cli.ui;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.LivePatching;
import org.dyper.cli.fleet.Fleet;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Problem;
import org.dyper.patch.xml.ModelReader;
import org.dyper.runtime.ask.AnswerReport;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The JSON API under {@code /api/} (docs/ui.md) and the page at {@code /}. Every call to a monitor goes through the
 * monitor's own protocol with its token and a deadline; patching goes through {@link LivePatching}, the path
 * {@code dyper ctl PID instrument} takes.
 */
final class Api {
    /** A request as the server hands it on, after its checks. */
    record Request(String method, String path, String query, String body) {
        String param(String name, String otherwise) {
            String v = UiServer.query(query, name);
            return v == null || v.isEmpty() ? otherwise : v;
        }
    }

    /** Where a response goes. */
    interface Reply {
        void send(int status, String type, byte[] body, List<String[]> headers) throws IOException;

        /** A response of status 200 whose body {@code pump} writes for as long as it lasts (Server-Sent Events). */
        void stream(String type, Pump pump) throws IOException;
    }

    /** Writes a streamed response's body. */
    interface Pump {
        void pump(java.io.OutputStream out) throws IOException;
    }

    /** A request that fails with an HTTP status and a message for the page (and problems for a model). */
    static final class Failure extends Exception {
        final int status;
        final List<String> problems;

        Failure(int status, String message) {
            this(status, message, List.of());
        }

        Failure(int status, String message, List<String> problems) {
            super(message, null, false, false);
            this.status = status;
            this.problems = problems;
        }
    }

    /** How long a REPORT is reused by the requests of one refresh (the page asks for stacks and figures at once). */
    static final long FRESH_MILLIS = 900;
    /**
     * While live streams are open on a process, its poller takes the REPORTs ({@link Live}): a request reuses the
     * poller's newest one up to this age, so a page that fetches what an event announced costs the target nothing
     * more.
     */
    static final long LIVE_FRESH_MILLIS = Live.TICK_MILLIS * Live.REPORT_TICKS + 2000;
    static final long LIVE_EXACT_MILLIS = Live.TICK_MILLIS + 1000;
    static final int REPORT_MILLIS = 15_000;
    static final int QUICK_MILLIS = 3_000;
    static final int PATCH_MILLIS = 120_000;
    private static final Pattern JVM = Pattern.compile("/api/jvms/(\\d{1,10})(/[a-z.]+)?");
    /** A JVM on the NATS server: its id there (host, pid, start) instead of a pid (docs/fleet.md). */
    private static final Pattern FLEET_JVM = Pattern.compile("/api/jvms/([A-Za-z0-9-]{1,200}_\\d{1,10}_\\d{1,15})"
            + "(/[a-z.]+)?");
    /** How long the list of a fleet's JVMs is reused (a broker's WHO waits its whole deadline). */
    static final long FLEET_FRESH_MILLIS = 5_000;
    static final java.time.Duration FLEET_WHO = java.time.Duration.ofSeconds(1);
    /** A window picked by hand: from mark A to mark B ({@code A..B}) or to now ({@code A..}). */
    private static final Pattern MARKS = Pattern.compile("(\\d{1,6})\\.\\.(\\d{0,6})");
    private static final Pattern METHOD = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)+");

    private final Path dir;
    private final Path cache;
    private final Page page;
    private final Map<Long, Target> targets = new HashMap<>();
    /** The JVMs on a NATS server beside this machine's (dyper ui --nats), or null. */
    private final Fleet remote;
    private final Map<String, Target> remoteTargets = new HashMap<>();
    private List<Fleet.Member> fleetMembers = List.of();
    private long fleetMillis;
    private final Live live = new Live(new Live.Source() {
        @Override
        public Map<String, Object> exact(Target t) throws Failure {
            return Api.this.exact(t, FRESH_MILLIS);
        }

        @Override
        public Map<String, Object> report(Target t) throws Failure {
            synchronized (t.snapshots) {
                Api.this.report(t, FRESH_MILLIS);
                Snapshots.Snapshot s = t.snapshots.latest();
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("takenMillis", s.millis());
                j.put("totals", totals(s));
                return j;
            }
        }
    });

    Api(Path dir, Path cache, Page page) {
        this(dir, cache, page, null);
    }

    /** With {@code remote}: the JVMs a NATS server reaches are listed and opened beside this machine's. */
    Api(Path dir, Path cache, Page page, Fleet remote) {
        this.dir = dir;
        this.cache = cache;
        this.page = page;
        this.remote = remote;
    }

    Live live() {
        return live;
    }

    void serve(Request r, Reply reply) throws IOException {
        try {
            if (r.path().equals("/") && r.method().equals("GET")) {
                Page.Rendered p = page.render();
                reply.send(200, "text/html; charset=utf-8", p.html().getBytes(StandardCharsets.UTF_8),
                        List.<String[]>of(new String[] {"Content-Security-Policy", p.policy()}));
                return;
            }
            Object body = route(r);
            if (body instanceof Live.Stream s) {
                try (s) {
                    reply.stream("text/event-stream; charset=utf-8", s::pump);
                }
                return;
            }
            if (body instanceof Download d) {
                reply.send(200, d.type(), d.bytes(), List.<String[]>of(new String[] {"Content-Disposition",
                        "attachment; filename=\"" + d.name() + "\""}));
                return;
            }
            json(reply, 200, body);
        } catch (Failure f) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("error", f.getMessage());
            if (!f.problems.isEmpty()) {
                m.put("problems", f.problems);
            }
            json(reply, f.status, m);
        }
    }

    private static void json(Reply reply, int status, Object body) throws IOException {
        reply.send(status, "application/json; charset=utf-8", Json.write(body).getBytes(StandardCharsets.UTF_8),
                List.of());
    }

    record Download(String name, String type, byte[] bytes) {
    }

    private Object route(Request r) throws Failure {
        if (r.path().equals("/api/jvms")) {
            only(r, "GET");
            return jvms();
        }
        Matcher f = FLEET_JVM.matcher(r.path());
        if (f.matches()) {
            return routeRemote(r, remoteTarget(f.group(1)), f.group(2) == null ? "" : f.group(2));
        }
        Matcher m = JVM.matcher(r.path());
        if (!m.matches()) {
            throw new Failure(404, "no such address: " + r.path() + " (the API is under /api/jvms, docs/ui.md)");
        }
        long pid = Long.parseLong(m.group(1));
        String what = m.group(2) == null ? "" : m.group(2);
        switch (what) {
            case "" -> {
                only(r, "GET");
                return summary(target(pid));
            }
            case "/stacks" -> {
                only(r, "GET");
                return stacks(target(pid), r);
            }
            case "/exact" -> {
                only(r, "GET");
                Target t = target(pid);
                return exact(t, t.streams > 0 ? LIVE_EXACT_MILLIS : FRESH_MILLIS);
            }
            case "/events" -> {
                only(r, "GET");
                return live.open(target(pid));
            }
            case "/measure" -> {
                only(r, "POST", "DELETE");
                return measure(target(pid), r);
            }
            case "/model" -> {
                only(r, "POST", "DELETE");
                return r.method().equals("POST") ? applyModel(target(pid), r) : removeModel(target(pid));
            }
            case "/pin" -> {
                only(r, "POST");
                Target t = target(pid);
                synchronized (t.patching) {
                    t.pinned = Boolean.TRUE.equals(object(r).get("pinned"));
                }
                return Map.of("pid", pid, "pinned", t.pinned);
            }
            case "/detail" -> {
                only(r, "POST");
                boolean on = Boolean.TRUE.equals(object(r).get("on"));
                command(target(pid), "SET", "<VAR NAME='DETAIL' VALUE='" + on + "'/>", QUICK_MILLIS);
                return Map.of("pid", pid, "detail", on);
            }
            case "/attach" -> {
                only(r, "POST");
                return attach(pid);
            }
            case "/marks" -> {
                only(r, "GET", "POST", "DELETE");
                return marks(target(pid), r);
            }
            case "/ask" -> {
                only(r, "POST");
                return ask(target(pid), r);
            }
            case "/answers" -> {
                only(r, "GET");
                return answers(target(pid));
            }
            case "/report.html", "/report.xml" -> {
                only(r, "GET");
                return save(target(pid), what.endsWith("html"));
            }
            default -> throw new Failure(404, "no such address: " + r.path() + " (docs/ui.md lists the API)");
        }
    }

    /**
     * A JVM on the NATS server: what goes through REPORT (summary, stacks, exact figures, live updates, marks, the
     * saved report), and measuring or applying a model, which goes through its control subject with the class files
     * inline (the UI's user needs control rights on the server; a reader gets 403 with the server's words).
     */
    private Object routeRemote(Request r, Target t, String what) throws Failure {
        switch (what) {
            case "" -> {
                only(r, "GET");
                return summary(t);
            }
            case "/stacks" -> {
                only(r, "GET");
                return stacks(t, r);
            }
            case "/exact" -> {
                only(r, "GET");
                return exact(t, t.streams > 0 ? LIVE_EXACT_MILLIS : FRESH_MILLIS);
            }
            case "/events" -> {
                only(r, "GET");
                return live.open(t);
            }
            case "/marks" -> {
                only(r, "GET", "POST", "DELETE");
                return marks(t, r);
            }
            case "/answers" -> {
                only(r, "GET");
                return answers(t);
            }
            case "/report.html", "/report.xml" -> {
                only(r, "GET");
                return save(t, what.endsWith("html"));
            }
            case "/measure" -> {
                only(r, "POST", "DELETE");
                return measure(t, r);
            }
            case "/model" -> {
                only(r, "POST", "DELETE");
                return r.method().equals("POST") ? applyModel(t, r) : removeModel(t);
            }
            default -> throw new Failure(501, r.path() + ": not for a JVM on the NATS server from this page (yet); "
                    + "dyper ctl --nats URL " + t.member.id() + " does it (docs/fleet.md)");
        }
    }

    /** The target of a fleet member, once WHO on the server has listed it. */
    private Target remoteTarget(String id) throws Failure {
        if (remote == null) {
            throw new Failure(404, "no JVM " + id + ": this UI reaches no NATS server (dyper ui --nats URL)");
        }
        Fleet.Member member = null;
        for (Fleet.Member m : fleet()) {
            if (m.id().equals(id)) {
                member = m;
            }
        }
        synchronized (this) {
            Target t = remoteTargets.get(id);
            if (member == null) {
                if (t != null) {
                    throw new Failure(410, remote.describe(t.member) + " ended (it no longer answers WHO)");
                }
                throw new Failure(404, "no JVM " + id + " answers WHO on " + remote.describe());
            }
            if (t == null) {
                t = new Target(member);
                t.main = member.mainClass();
                remoteTargets.put(id, t);
            }
            return t;
        }
    }

    /** The fleet's JVMs, asked again when the last answer is older than {@link #FLEET_FRESH_MILLIS}. */
    private List<Fleet.Member> fleet() throws Failure {
        synchronized (remote) {
            long now = System.currentTimeMillis();
            if (now - fleetMillis > FLEET_FRESH_MILLIS) {
                try {
                    fleetMembers = remote.who(FLEET_WHO);
                    fleetMillis = System.currentTimeMillis();
                } catch (IOException e) {
                    throw new Failure(502, remote.describe() + ": " + e.getMessage());
                }
            }
            return fleetMembers;
        }
    }

    /** One command to a fleet member through the fleet; no answer is a 502 (410 once it left WHO's list). */
    private Element remoteCommand(Target t, String command, String data, int millis) throws Failure {
        String name = command.toUpperCase(java.util.Locale.ROOT);
        boolean control = !READS.contains(name);
        Fleet.Answer a;
        try {
            a = remote.send(List.of(t.member), "<DYPER COMMAND='" + Xml.esc(name) + "'>" + (data == null ? "" : data)
                    + "</DYPER>", control, java.time.Duration.ofMillis(millis)).get(0);
        } catch (IOException e) {
            throw new Failure(502, remote.describe(t.member) + ": " + command + " failed: " + e.getMessage());
        }
        if (!a.ok()) {
            throw new Failure(502, a.error());
        }
        try {
            return LivePatching.answer(t.pid, a.reply());
        } catch (CommandFailure f) {
            throw new Failure(409, remote.describe(t.member) + ": " + f.getMessage().replaceFirst("^process \\d+: ", ""));
        } catch (IOException e) {
            throw new Failure(502, remote.describe(t.member) + ": " + e.getMessage());
        }
    }

    /** The commands the page sends that only read (a broker answers them on the JVM's read subject). */
    private static final java.util.Set<String> READS = java.util.Set.of("REPORT", "INSTRUMENTED", "WHORU", "PING",
            "GET", "SHOWSTACK");

    private static void only(Request r, String... methods) throws Failure {
        for (String m : methods) {
            if (m.equals(r.method())) {
                return;
            }
        }
        throw new Failure(405, r.method() + " is not allowed on " + r.path() + " (" + String.join(", ", methods) + ")");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Request r) throws Failure {
        try {
            Object o = Json.parse(r.body() == null || r.body().isBlank() ? "{}" : r.body());
            if (o instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
            throw new Failure(400, "the request body must be a JSON object");
        } catch (Json.BadJson e) {
            throw new Failure(400, e.getMessage());
        }
    }

    private synchronized Target known(long pid) {
        return targets.computeIfAbsent(pid, Target::new);
    }

    /** The process's state, once its registry entry is there. */
    private Target target(long pid) throws Failure {
        entry(known(pid));
        return known(pid);
    }

    private MonitorEntry entry(Target t) throws Failure {
        if (t.member != null) {
            // a JVM on the NATS server: no registry entry; what the summary reads of one comes from WHO
            return new MonitorEntry(t.member.pid(), null, t.member.mainClass(), t.member.startMillis(), "", null);
        }
        try {
            MonitorEntry e = MonitorEntry.of(dir, t.pid);
            t.main = e.mainClass();
            return e;
        } catch (IOException e) {
            if (t.main != null) {
                throw new Failure(410, "process " + t.pid + " (" + t.main + ") ended");
            }
            throw new Failure(404, "no monitored process " + t.pid + " in " + dir + " (attach it first)");
        }
    }

    /** One command to a process's monitor under a deadline; an ERROR reply is a 409 with its text. */
    private Element command(Target t, String command, String data, int millis) throws Failure {
        if (t.member != null) {
            return remoteCommand(t, command, data, millis);
        }
        MonitorEntry e = entry(t);
        // one connection per process, kept between requests: a new one costs the monitor a thread and the token
        // check each time, which at the page's refresh rate cost the target more than the commands themselves
        synchronized (t.wireLock) {
            try {
                for (int attempt = 0; ; attempt++) {
                    boolean fresh = false;
                    if (t.wire == null || !e.token().equals(t.wireToken)) {
                        closeWire(t);
                        t.wire = LivePatching.connect(e, millis);
                        t.wireToken = e.token();
                        fresh = true;
                    }
                    String reply;
                    try {
                        t.wire.timeout(millis);
                        reply = t.wire.command(command, data);
                    } catch (WireClient.Ended ended) {
                        closeWire(t);
                        throw ended;
                    } catch (IOException io) {
                        closeWire(t);
                        if (fresh || attempt > 0) {
                            throw io;
                        }
                        continue;  // the monitor closed a kept connection (idletimeout): once more on a new one
                    }
                    return LivePatching.answer(t.pid, reply);
                }
            } catch (CommandFailure f) {
                throw failure(t, f);
            } catch (WireClient.Ended ended) {
                throw new Failure(410, "process " + t.pid + " (" + t.main + ") ended");
            } catch (IOException io) {
                throw new Failure(502, "process " + t.pid + ": " + command + " failed: " + io.getMessage());
            }
        }
    }

    private static void closeWire(Target t) {
        if (t.wire != null) {
            try {
                t.wire.close();
            } catch (IOException ignored) {
                // it is gone either way
            }
            t.wire = null;
        }
    }

    private Failure failure(Target t, CommandFailure f) {
        return new Failure(f.code == ExitCode.NO_PROCESS ? 502 : 409, f.getMessage());
    }

    /**
     * The newest REPORT, taken now unless one younger than {@link #FRESH_MILLIS} is there (or than
     * {@link #LIVE_FRESH_MILLIS} while live streams' poller takes them).
     */
    private Element report(Target t) throws Failure {
        return report(t, t.streams > 0 ? LIVE_FRESH_MILLIS : FRESH_MILLIS);
    }

    /** The newest REPORT, taken now unless one younger than {@code maxAge} ms is there (0: a mark, of this moment). */
    private Element report(Target t, long maxAge) throws Failure {
        synchronized (t.snapshots) {
            long millis = System.currentTimeMillis();
            if (maxAge > 0 && t.snapshots.latest() != null && millis - t.fetchedMillis < maxAge
                    && t.lastReport != null) {
                return t.lastReport;
            }
            Element report = monitorReport(t, "ALL");
            t.fetchedMillis = System.currentTimeMillis();
            t.snapshots.add(report, t.fetchedMillis);
            t.lastReport = report;
            return report;
        }
    }

    /**
     * The exact figures alone (REPORT TYPE='INSTRUMENTATION': a few hundred bytes and next to no work in the target,
     * where a whole REPORT costs its stacks), so the page can ask for them more often than for the flame graph.
     */
    private Element exactReport(Target t, long maxAge) throws Failure {
        synchronized (t.exactLock) {
            long now = System.currentTimeMillis();
            if (t.exactReport != null && now - t.exactMillis < maxAge) {
                return t.exactReport;
            }
            Element report = monitorReport(t, "INSTRUMENTATION");
            t.exactMillis = System.currentTimeMillis();
            t.exactReport = report;
            return report;
        }
    }

    private Element monitorReport(Target t, String type) throws Failure {
        Element reply = command(t, "REPORT", "<REPORT TYPE='" + type + "'/>", REPORT_MILLIS);
        Element report = Xml.child(reply, "MONITOR_REPORT");
        if (report == null) {
            throw new Failure(502, "process " + t.pid + " answered REPORT without a MONITOR_REPORT");
        }
        return report;
    }

    /** Every monitored process of the registry, and the JVMs of this user that could be attached. */
    private Object jvms() throws Failure {
        List<MonitorEntry> entries;
        try {
            entries = MonitorEntry.list(dir, true);
        } catch (IOException e) {
            throw new Failure(500, "cannot read the registry " + dir + ": " + e.getMessage());
        }
        List<Object> monitored = new ArrayList<>();
        java.util.Set<String> pids = new java.util.HashSet<>();
        long now = System.currentTimeMillis();
        for (MonitorEntry e : entries) {
            pids.add(Long.toString(e.pid()));
            Target t = known(e.pid());
            t.main = e.mainClass();
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("pid", e.pid());
            j.put("main", e.mainClass());
            j.put("startMillis", e.startMillis());
            j.put("uptimeMs", Math.max(0, now - e.startMillis()));
            j.put("java", java(e));
            j.put("monitored", true);
            try {
                j.put("patched", patched(t, QUICK_MILLIS));
            } catch (Failure f) {
                j.put("error", f.getMessage());
            }
            synchronized (t.patching) {
                j.put("measured", List.copyOf(t.measured));
                j.put("pinned", t.pinned);
            }
            monitored.add(j);
        }
        pids.add(Long.toString(ProcessHandle.current().pid()));
        List<Object> attachable = new ArrayList<>();
        for (com.sun.tools.attach.VirtualMachineDescriptor d : com.sun.tools.attach.VirtualMachine.list()) {
            String name = d.displayName() == null ? "" : d.displayName().split(" ")[0];
            if (!pids.contains(d.id()) && !isDyper(name)) {
                attachable.add(Map.of("pid", Long.parseLong(d.id()), "main", name, "monitored", false));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("dir", dir.toString());
        out.put("jvms", monitored);
        out.put("attachable", attachable);
        if (remote != null) {
            out.put("fleetUrl", remote.describe());
            List<Object> members = new ArrayList<>();
            try {
                for (Fleet.Member m : fleet()) {
                    Map<String, Object> j = new LinkedHashMap<>();
                    j.put("id", m.id());
                    j.put("host", m.host());
                    j.put("pid", m.pid());
                    j.put("main", m.mainClass());
                    j.put("startMillis", m.startMillis());
                    j.put("uptimeMs", Math.max(0, now - m.startMillis()));
                    j.put("java", m.jdk());
                    members.add(j);
                }
            } catch (Failure f) {
                out.put("fleetError", f.getMessage());
            }
            out.put("fleet", members);
        }
        return out;
    }

    private String java(MonitorEntry e) {
        if (e.file() == null) {
            synchronized (this) {
                for (Target t : remoteTargets.values()) {
                    if (t.member.pid() == e.pid() && t.member.startMillis() == e.startMillis()) {
                        return t.member.jdk();
                    }
                }
            }
            return "";
        }
        try {
            return RegistryFiles.read(e.file()).getOrDefault("java", "");
        } catch (IOException x) {
            return "";
        }
    }

    /** The models in the process (INSTRUMENTED): name, since when, classes, and whether the UI inserted it. */
    private List<Object> patched(Target t, int millis) throws Failure {
        Element patches = Xml.child(command(t, "INSTRUMENTED", null, millis), "PATCHES");
        List<Object> out = new ArrayList<>();
        for (Element m : Xml.children(patches, "MODEL")) {
            if (!"true".equals(m.getAttribute("ACTIVE"))) {
                continue;
            }
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("model", m.getAttribute("NAME"));
            j.put("since", m.getAttribute("SINCE"));
            j.put("classes", Xml.children(m, "CLASS").stream().map(c -> c.getAttribute("NAME")).toList());
            j.put("sites", Xml.children(m, "SITE").size());
            synchronized (t.patching) {
                j.put("byUi", m.getAttribute("NAME").equals(t.inserted));
            }
            out.add(j);
        }
        return out;
    }

    /** One process: uptime, JDK, what is patched, threads, GC pauses, detailing and Dyper's own cost. */
    private Object summary(Target t) throws Failure {
        MonitorEntry e = entry(t);
        // a process is open: "Measure exactly" may come, and the UI's first weave would also load ajc and walk the
        // JDK's module image; started now on a thread of its own, once per UI (docs/ui.md, "Click to measure")
        if (t.member == null) {
            org.dyper.patch.build.Ajc.warmUp();
        }
        Element report = report(t);
        preweave(t);
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("pid", t.pid);
        j.put("main", e.mainClass());
        j.put("java", java(e));
        j.put("uptimeMs", Math.max(0, System.currentTimeMillis() - e.startMillis()));
        j.put("patched", patched(t, QUICK_MILLIS));
        synchronized (t.patching) {
            j.put("measured", List.copyOf(t.measured));
            j.put("inserted", t.inserted);
            j.put("pinned", t.pinned);
            j.put("preweaved", t.preweaved == null || t.preweaved.isEmpty() ? null : t.preweaved);
        }
        Element cpu = Xml.child(report, "CPU");
        if (cpu != null) {
            j.put("sampler", cpu.getAttribute("SOURCE") + (cpu.hasAttribute("EVENT") ? " " + cpu.getAttribute("EVENT")
                    : ""));
            j.put("monitorCpuNs", number(cpu, "MONITOR_CPU_NS"));
            j.put("dyperSamples", number(cpu, "DYPER_SAMPLES"));
            j.put("samples", number(cpu, "SAMPLES"));
        }
        j.put("threads", Summary.threads(report));
        j.put("gc", Summary.gc(report));
        j.put("detail", Summary.detail(report));
        return j;
    }

    static long number(Element e, String attribute) {
        try {
            return Long.parseLong(e.getAttribute(attribute));
        } catch (NumberFormatException x) {
            return 0;
        }
    }

    /** {@code 10s}, {@code 1m}, {@code start}. */
    static long windowMillis(String w) throws Failure {
        return switch (w) {
            case "start" -> -1;
            case "10s" -> 10_000;
            case "1m", "60s" -> 60_000;
            default -> throw new Failure(400, "window must be 10s, 1m, start, or marks A..B or A.. (from mark A to mark"
                    + " B, or to now), not '" + w + "'");
        };
    }

    /** A window by its length ({@code 10s}, {@code 1m}, {@code start}) or between marks ({@code A..B}, {@code A..}). */
    private static Snapshots.Window window(Target t, String view, String thread, String window) throws Failure {
        Matcher m = MARKS.matcher(window);
        if (!m.matches()) {
            return t.snapshots.window(view, thread, windowMillis(window));
        }
        int from = Integer.parseInt(m.group(1));
        int to = m.group(2).isEmpty() ? 0 : Integer.parseInt(m.group(2));
        if (to != 0 && to <= from) {
            throw new Failure(400, "window " + window + ": mark " + to + " must come after mark " + from);
        }
        synchronized (t.snapshots) {
            for (int id : to == 0 ? new int[] {from} : new int[] {from, to}) {
                if (t.snapshots.markOf(id) == null) {
                    throw new Failure(404, "process " + t.pid + " has no mark " + id + " (marks: " + markIds(t) + ")");
                }
            }
            return t.snapshots.between(view, thread, from, to);
        }
    }

    private static String markIds(Target t) {
        List<String> ids = new ArrayList<>();
        t.snapshots.marks().forEach(m -> ids.add(Integer.toString(m.id())));
        return ids.isEmpty() ? "none" : String.join(", ", ids);
    }

    /** GET: the marks; POST {"label"}: a mark now (a REPORT taken now); DELETE ?id=N (or {"id": N}): forget one. */
    private Object marks(Target t, Request r) throws Failure {
        switch (r.method()) {
            case "POST" -> {
                Object label = object(r).get("label");
                if (label != null && !(label instanceof String)) {
                    throw new Failure(400, "label must be a string");
                }
                if (label != null && ((String) label).length() > 100) {
                    throw new Failure(400, "label is longer than 100 characters");
                }
                synchronized (t.snapshots) {
                    report(t, 0);
                    Snapshots.Mark m = t.snapshots.mark((String) label);
                    if (m == null) {
                        throw new Failure(409, "process " + t.pid + " has " + Snapshots.MAX_MARKS
                                + " marks already: delete one first");
                    }
                    return markJson(m);
                }
            }
            case "DELETE" -> {
                String id = r.param("id", null);
                if (id == null) {
                    Object o = object(r).get("id");
                    id = o == null ? "" : o.toString().replaceAll("\\.0$", "");
                }
                if (!id.matches("\\d{1,6}") || !t.snapshots.unmark(Integer.parseInt(id))) {
                    throw new Failure(404, "process " + t.pid + " has no mark '" + id + "' (marks: " + markIds(t)
                            + ")");
                }
                return Map.of("pid", t.pid, "deleted", Integer.parseInt(id));
            }
            default -> {
                List<Object> list = new ArrayList<>();
                t.snapshots.marks().forEach(m -> list.add(markJson(m)));
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("pid", t.pid);
                j.put("max", Snapshots.MAX_MARKS);
                j.put("marks", list);
                return j;
            }
        }
    }

    /** A mark: {id, label, takenMillis, totals: {view: weight since the start, all threads}}. */
    private static Map<String, Object> markJson(Snapshots.Mark m) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("id", m.id());
        j.put("label", m.label());
        j.put("takenMillis", m.snapshot().millis());
        j.put("totals", totals(m.snapshot()));
        return j;
    }

    /** Per view, the weight since the start over all threads. */
    private static Map<String, Object> totals(Snapshots.Snapshot s) {
        Map<String, Object> totals = new LinkedHashMap<>();
        s.views().forEach((name, v) -> totals.put(name, Snapshots.sum(v.paths().getOrDefault("", Map.of()))));
        return totals;
    }

    private Object stacks(Target t, Request r) throws Failure {
        String view = r.param("view", "CPU").toUpperCase(java.util.Locale.ROOT);
        String window = r.param("window", "10s");
        long millis = MARKS.matcher(window).matches() ? -1 : windowMillis(window);
        String thread = r.param("thread", "");
        report(t);
        Snapshots.Window w = window(t, view, thread, window);
        Snapshots.Snapshot latest = t.snapshots.latest();
        if (w == null) {
            if (latest != null && !latest.views().containsKey(view)) {
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("pid", t.pid);
                j.put("view", view);
                j.put("views", List.copyOf(latest.views().keySet()));
                j.put("note", "no " + view + " events yet (views now: " + String.join(", ", latest.views().keySet())
                        + ")");
                j.put("stacks", List.of());
                j.put("total", 0);
                if (r.param("format", "json").equals("tree")) {
                    j.put("tree", FlameTree.of(Map.of(), null));
                }
                return j;
            }
            throw new Failure(502, "process " + t.pid + " gave no stacks");
        }
        String format = r.param("format", "json");
        if (!List.of("json", "tree", "collapsed").contains(format)) {
            throw new Failure(400, "format must be json, tree or collapsed, not '" + format + "'");
        }
        boolean tree = format.equals("tree");
        List<Map.Entry<String, Long>> sorted = tree ? List.of() : Snapshots.sorted(w.paths());
        if (format.equals("collapsed")) {
            StringBuilder s = new StringBuilder();
            sorted.forEach(e -> s.append(e.getKey()).append(' ').append(e.getValue()).append('\n'));
            return new Download("dyper-" + t.pid + "-" + view + ".collapsed", "text/plain; charset=utf-8",
                    s.toString().getBytes(StandardCharsets.UTF_8));
        }
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("pid", t.pid);
        j.put("view", view);
        j.put("unit", w.view().unit());
        j.put("source", w.view().source());
        j.put("window", window);
        j.put("coveredMs", w.coveredMillis());
        j.put("note", w.note());
        j.put("thread", thread);
        j.put("takenMillis", latest.millis());
        j.put("views", List.copyOf(latest.views().keySet()));
        j.put("total", Snapshots.sum(w.paths()));
        List<Object> threads = new ArrayList<>();
        w.view().threadNames().forEach((id, name) -> threads.add(Map.of("id", id, "name", name)));
        j.put("threads", threads);
        if (!tree) {
            List<Object> stacks = new ArrayList<>(sorted.size());
            sorted.forEach(e -> stacks.add(List.of(e.getKey(), e.getValue())));
            j.put("stacks", stacks);
        }
        Snapshots.Window compared = null;
        String compare = r.param("compare", "");
        if (!compare.isEmpty()) {
            Snapshots.Window b;
            String missing;
            if (compare.equals("before")) {
                if (millis < 0) {
                    throw new Failure(400, "compare=before needs a window of 10s or 1m, not '" + window + "'");
                }
                b = t.snapshots.window(view, thread, millis, millis);
                missing = "the UI has not watched this process for two windows yet";
            } else if (MARKS.matcher(compare).matches()) {
                b = window(t, view, thread, compare);
                missing = "no " + view + " events in the window " + compare;
            } else {
                throw new Failure(400, "compare must be before, or marks A..B or A.., not '" + compare + "'");
            }
            compared = b == null ? new Snapshots.Window(null, Map.of(), 0, null) : b;
            j.put("compare", compare);
            if (!tree) {
                List<Object> before = new ArrayList<>();
                if (b != null) {
                    Snapshots.sorted(b.paths()).forEach(e -> before.add(List.of(e.getKey(), e.getValue())));
                }
                j.put("before", before);
            }
            j.put("beforeTotal", b == null ? 0 : Snapshots.sum(b.paths()));
            j.put("beforeNote", b == null ? missing : b.note());
        }
        if (tree) {
            j.put("paths", w.paths().size());
            j.put("tree", FlameTree.of(w.paths(), compared == null ? null : compared.paths()));
        }
        return j;
    }

    private Map<String, Object> exact(Target t, long maxAge) throws Failure {
        Element report = exactReport(t, maxAge);
        java.util.Set<String> measured;
        synchronized (t.patching) {
            measured = new java.util.LinkedHashSet<>(t.measured);
        }
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("pid", t.pid);
        synchronized (t.exactLock) {
            j.put("takenMillis", t.exactMillis);
        }
        j.putAll(Exact.of(report, measured));
        return j;
    }

    /** Set to {@code false}, no method is woven ahead of a click ({@link #preweave}; to compare the two). */
    static final String PREWEAVE_PROPERTY = "dyper.ui.preweave";
    /** Held while ajc weaves for this UI (a click, or a weave ahead of one): ajc runs once at a time in a JVM. */
    private static final Object WEAVING = new Object();
    /** The model the questions asked from the page make (as {@code dyper ctl PID ask}'s). */
    static final String ASK_MODEL = "dyper-ask";

    /**
     * When a process is first opened: weaves the model "Measure exactly" would insert for its hottest method (the
     * heaviest leaf of its CPU stacks that can be patched) into the patch cache, on a thread of its own, inserting
     * nothing; the click on that method then finds the patch set woven (docs/ui.md, "Click to measure"). Once per
     * process; its cost is one weave in this JVM and one fetch of the class from the monitor.
     */
    private void preweave(Target t) {
        synchronized (t.patching) {
            // a fleet member is not patched from the page (501): nothing to weave ahead
            if (t.preweaved != null || t.member != null || "false".equals(System.getProperty(PREWEAVE_PROPERTY))) {
                return;
            }
            t.preweaved = "";
        }
        Snapshots.Snapshot s = t.snapshots.latest();
        Snapshots.View cpu = s == null ? null : s.views().get("CPU");
        String hottest = null;
        long most = 0;
        for (Map.Entry<String, Long> e : cpu == null ? List.<Map.Entry<String, Long>>of()
                : cpu.paths().getOrDefault("", Map.of()).entrySet()) {
            String leaf = e.getKey().substring(e.getKey().lastIndexOf(';') + 1);
            if (e.getValue() > most && patchable(leaf)) {
                most = e.getValue();
                hottest = leaf;
            }
        }
        if (hottest == null) {
            return;
        }
        String method = hottest;
        Thread th = new Thread(() -> {
            try {
                Model model = ModelReader.read(Target.MODEL, new ByteArrayInputStream(measureModel(List.of(method))
                        .getBytes(StandardCharsets.UTF_8)));
                synchronized (WEAVING) {
                    LivePatching.prepare(entry(t), ModeCatalog.load(List.of()), model, cache, PATCH_MILLIS);
                }
                synchronized (t.patching) {
                    t.preweaved = method;
                }
            } catch (Exception | LinkageError e) {
                // only ahead of a click: the click weaves, and says what failed
            }
        }, "dyper-ui-preweave-" + t.pid);
        th.setDaemon(true);
        th.setPriority(Thread.MIN_PRIORITY);
        th.start();
    }

    /** A frame "Measure exactly" could patch: a method of the program's own (not the JDK's, not Dyper's). */
    static boolean patchable(String frame) {
        return METHOD.matcher(frame).matches() && !frame.contains("$$") && !frame.startsWith("java.")
                && !frame.startsWith("javax.") && !frame.startsWith("jdk.") && !frame.startsWith("sun.")
                && !frame.startsWith("com.sun.") && !frame.startsWith("org.dyper.runtime.");
    }

    /** The model measuring {@code methods}: exact timing at ENTER and EXIT, and a count of every call they make. */
    static String measureModel(java.util.Collection<String> methods) {
        StringBuilder x = new StringBuilder("<MODEL NAME='" + Target.MODEL + "'>");
        for (String m : methods) {
            int dot = m.lastIndexOf('.');
            x.append("<FOR CLASS='").append(MonitorReply.escape(m.substring(0, dot))).append("' METHOD='")
                    .append(MonitorReply.escape(m.substring(dot + 1))).append("'><PATCH WHAT='ENTER' MODE='TIME_ENTER'/>")
                    .append("<PATCH WHAT='EXIT' MODE='TIME_EXIT'/><PATCH WHAT='CALL' MODE='COUNT_CALLS'/></FOR>");
        }
        return x.append("</MODEL>").toString();
    }

    /** POST adds a method to the measured ones, DELETE takes it out: the model goes in again (or out) in one step. */
    private Object measure(Target t, Request r) throws Failure {
        Object given = r.method().equals("POST") || r.body() != null && !r.body().isBlank()
                ? object(r).get("method") : r.param("method", null);
        if (!(given instanceof String method) || !METHOD.matcher(method).matches()) {
            throw new Failure(400, "say which method as {\"method\": \"pkg.Class.method\"}, not " + Json.write(given));
        }
        if (method.contains("$$Lambda") || method.contains("$$")) {
            throw new Failure(422, method + ": a hidden class (a lambda) cannot be patched; measure the method that "
                    + "calls it");
        }
        long start = System.nanoTime();
        MonitorEntry e = entry(t);
        synchronized (t.patching) {
            java.util.LinkedHashSet<String> wanted = new java.util.LinkedHashSet<>(t.measured);
            boolean add = r.method().equals("POST");
            if (add ? !wanted.add(method) : !wanted.remove(method)) {
                return measureReply(t, add ? method + " is measured already" : method + " was not measured", null,
                        List.of(), start);
            }
            if (t.inserted != null && !t.inserted.equals(Target.MODEL)) {
                throw new Failure(409, "model '" + t.inserted + "' (applied from the UI) is in: one model at a time; "
                        + "remove it first");
            }
            try {
                if (wanted.isEmpty()) {
                    Element reply = remove(t, e, Target.MODEL);
                    t.measured.clear();
                    t.inserted = null;
                    return measureReply(t, "nothing measured now: model '" + Target.MODEL + "' removed", reply,
                            List.of(), start);
                }
                Model model = ModelReader.read(Target.MODEL, new ByteArrayInputStream(measureModel(wanted)
                        .getBytes(StandardCharsets.UTF_8)));
                LivePatching.Inserted in;
                synchronized (WEAVING) {
                    in = insert(t, e, ModeCatalog.load(List.of()), model);
                }
                t.measured.clear();
                t.measured.addAll(wanted);
                t.inserted = Target.MODEL;
                Map<String, Object> j = measureReply(t, add ? "measuring " + method : "stopped measuring " + method,
                        in.reply(), in.warnings(), start);
                j.put("cached", in.cached());
                return j;
            } catch (CommandFailure f) {
                throw failure(t, f);
            } catch (InvalidInputException x) {
                throw new Failure(422, "the model for " + method + " is not valid", problems(x));
            } catch (WeaveException x) {
                throw new Failure(422, "weaving " + method + " failed: " + x.getMessage());
            } catch (WireClient.Ended x) {
                throw new Failure(410, "process " + t.pid + " (" + t.main + ") ended");
            } catch (IOException x) {
                throw ioFailure(t, x);
            }
        }
    }

    private static Map<String, Object> measureReply(Target t, String what, Element reply, List<String> warnings,
            long start) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("pid", t.pid);
        j.put("message", what);
        j.put("measured", List.copyOf(t.measured));
        j.put("model", t.inserted);
        j.put("warnings", warnings);
        if (reply != null) {
            j.put("classes", number(reply, "CLASSES"));
            j.put("pending", number(reply, "PENDING"));
            j.put("jvmNanos", number(reply, "NANOS"));
        }
        j.put("millis", (System.nanoTime() - start) / 1_000_000);
        return j;
    }

    /** {@code line:col: ELEMENT: message} per problem (the file is the text the user pasted). */
    static List<String> problems(InvalidInputException e) {
        List<String> out = new ArrayList<>();
        for (Problem p : e.problems()) {
            out.add(p.at().line() + ":" + p.at().column() + ": " + (p.warning() ? "warning: " : "") + p.element()
                    + ": " + p.message());
        }
        return out;
    }

    /** A model (and modes) pasted into the page: checked, then inserted as the process's one run-time model. */
    private Object applyModel(Target t, Request r) throws Failure {
        Map<String, Object> body = object(r);
        if (!(body.get("model") instanceof String xml) || xml.isBlank()) {
            throw new Failure(400, "send {\"model\": \"<MODEL ...>\", \"modes\": \"<DYPATCH>...\" (optional)}");
        }
        String modes = body.get("modes") instanceof String s && !s.isBlank() ? s : null;
        long start = System.nanoTime();
        MonitorEntry e = entry(t);
        Path modeFile = null;
        try {
            ModeCatalog catalog;
            List<Problem> problems = new ArrayList<>();
            Model model = null;
            try {
                model = ModelReader.read("model", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
            } catch (InvalidInputException x) {
                problems.addAll(x.problems());
            }
            catalog = ModeCatalog.load(List.of());
            if (modes != null) {
                modeFile = Files.createTempFile("dyper-ui-modes-p" + ProcessHandle.current().pid() + "-", ".xml");
                Files.writeString(modeFile, modes);
                try {
                    catalog = ModeCatalog.load(List.of(modeFile));
                } catch (InvalidInputException x) {
                    problems.addAll(x.problems());
                }
            }
            if (!problems.isEmpty()) {
                throw new Failure(422, problems.size() + " problem(s); nothing was applied",
                        problems(new InvalidInputException(problems)));
            }
            synchronized (t.patching) {
                if (t.inserted != null && !t.inserted.equals(model.name())) {
                    throw new Failure(409, "model '" + t.inserted + "' is in (inserted from the UI): one model at a "
                            + "time; stop it first");
                }
                LivePatching.Inserted in;
                synchronized (WEAVING) {
                    in = insert(t, e, catalog, model);
                }
                t.inserted = model.name();
                if (!model.name().equals(Target.MODEL)) {
                    t.measured.clear();
                }
                Map<String, Object> j = measureReply(t, "model '" + model.name() + "' is in", in.reply(),
                        in.warnings(), start);
                return j;
            }
        } catch (CommandFailure f) {
            throw failure(t, f);
        } catch (InvalidInputException x) {
            throw new Failure(422, "the model is not valid", problems(x));
        } catch (WeaveException x) {
            throw new Failure(422, "weaving the model failed: " + x.getMessage());
        } catch (IOException x) {
            throw ioFailure(t, x);
        } finally {
            if (modeFile != null) {
                try {
                    Files.deleteIfExists(modeFile);
                } catch (IOException ignored) {
                    // a temporary file the next run's clean-up finds
                }
            }
        }
    }

    /**
     * A question ("ask about this", docs/questions.md) put to the process as {@code dyper ctl PID ask} puts it: it
     * goes in as the process's one run-time model, replacing questions asked before; another model the UI put in must
     * come out first. A question that cannot be answered is 400 with its column.
     */
    private Object ask(Target t, Request r) throws Failure {
        if (!(object(r).get("question") instanceof String question) || question.isBlank()) {
            throw new Failure(400, "send {\"question\": \"time of pkg.Class.method by caller\"} (docs/questions.md)");
        }
        long start = System.nanoTime();
        MonitorEntry e = entry(t);
        synchronized (t.patching) {
            if (t.inserted != null && !t.inserted.equals(ASK_MODEL)) {
                throw new Failure(409, "model '" + t.inserted + "' is in (inserted from the UI): one model at a time; "
                        + "stop it first");
            }
            LivePatching.Asked asked;
            try {
                synchronized (WEAVING) {
                    asked = LivePatching.ask(e, List.of(new org.dyper.cli.ask.AskedQuestions.Asked(question.strip(),
                            "question", false, 0)), cache, PATCH_MILLIS, false);
                }
            } catch (CommandFailure f) {
                if (f.code == ExitCode.INVALID_INPUT) {
                    throw new Failure(400, f.getMessage().lines().findFirst().orElse(""));
                }
                throw failure(t, f);
            } catch (InvalidInputException x) {
                throw new Failure(422, "the questions' model is not valid", problems(x));
            } catch (WeaveException x) {
                throw new Failure(422, "weaving the questions' model failed: " + x.getMessage());
            } catch (IOException x) {
                throw new Failure(502, "process " + t.pid + ": " + x.getMessage());
            }
            t.inserted = asked.inserted().model();
            t.measured.clear();
            List<String> warnings = new ArrayList<>(asked.compiled().warnings());
            warnings.addAll(asked.inserted().warnings());
            Map<String, Object> j = measureReply(t, "asked: " + question.strip(), asked.inserted().reply(), warnings,
                    start);
            j.put("question", question.strip());
            j.put("sites", asked.compiled().sites());
            return j;
        }
    }

    /**
     * The answers of the questions asked in the process (REPORT TYPE='ANSWERS'): {@code text} as {@code dyper ctl PID
     * answers} prints it, and {@code questions} with their groups.
     */
    private Object answers(Target t) throws Failure {
        Element answers = Xml.child(monitorReport(t, "ANSWERS"), "ANSWERS");
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("pid", t.pid);
        j.put("takenMillis", System.currentTimeMillis());
        j.put("text", answers == null ? "" : AnswerReport.text(answers, 120).stripLeading());
        List<Object> questions = new ArrayList<>();
        for (Element q : answers == null ? List.<Element>of() : Xml.children(answers, "QUESTION")) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("text", q.getAttribute("TEXT"));
            one.put("measure", q.getAttribute("MEASURE"));
            one.put("groupBy", q.getAttribute("GROUP_BY"));
            for (String a : List.of("SITES", "CHECKS", "RECORDS")) {
                one.put(a.toLowerCase(java.util.Locale.ROOT), number(q, a));
            }
            List<Object> groups = new ArrayList<>();
            for (Element g : Xml.children(q, "GROUP")) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("name", g.getAttribute("NAME"));
                for (String a : List.of("COUNT", "SUM", "MIN", "MAX", "P50", "P99")) {
                    if (g.hasAttribute(a)) {
                        row.put(a.toLowerCase(java.util.Locale.ROOT), number(g, a));
                    }
                }
                groups.add(row);
            }
            one.put("groups", groups);
            questions.add(one);
        }
        j.put("questions", questions);
        return j;
    }

    /**
     * Inserts {@code model} into {@code t}: through its socket ({@code e}), or for a JVM on the NATS server through
     * the fleet's control subject with the class files inline, as {@code dyper ctl --nats URL ID instrument} does.
     */
    private LivePatching.Inserted insert(Target t, MonitorEntry e, ModeCatalog catalog, Model model)
            throws CommandFailure, IOException, InvalidInputException, WeaveException {
        return t.member == null ? LivePatching.insert(e, catalog, model, cache, PATCH_MILLIS)
                : LivePatching.insert(t.pid, broker(t), catalog, model, cache, true, null);
    }

    /** Takes model {@code name} out of {@code t} (null: the one that is in), as {@link #insert} reaches it. */
    private Element remove(Target t, MonitorEntry e, String name) throws CommandFailure, IOException {
        return t.member == null ? LivePatching.remove(e, name, PATCH_MILLIS)
                : LivePatching.remove(t.pid, broker(t), name);
    }

    /** Commands to a JVM on the NATS server, on its control subject; no answer or a refusal is an IOException. */
    private org.dyper.cli.MonitorTargets.Requests broker(Target t) {
        return (command, data) -> {
            Fleet.Answer a = remote.send(List.of(t.member), "<DYPER PID='" + t.pid + "' COMMAND='" + Xml.esc(command)
                    + "'>" + (data == null ? "" : data) + "</DYPER>", true, java.time.Duration.ofMillis(PATCH_MILLIS))
                    .get(0);
            if (!a.ok()) {
                throw new IOException(a.error());
            }
            return a.reply();
        };
    }

    /** An I/O failure while patching: the server refusing this user is 403, anything else 502. */
    private Failure ioFailure(Target t, IOException x) {
        if (t.member != null) {
            return new Failure(x.getMessage().contains("the NATS server refused") ? 403 : 502, x.getMessage());
        }
        return new Failure(502, "process " + t.pid + ": " + x.getMessage());
    }

    private Object removeModel(Target t) throws Failure {
        long start = System.nanoTime();
        MonitorEntry e = entry(t);
        synchronized (t.patching) {
            try {
                Element reply = remove(t, e, t.inserted);
                String name = reply.getAttribute("MODEL");
                if (name.equals(t.inserted)) {
                    t.inserted = null;
                    t.measured.clear();
                }
                return measureReply(t, "model '" + name + "' removed", reply, List.of(), start);
            } catch (CommandFailure f) {
                throw failure(t, f);
            } catch (IOException x) {
                throw ioFailure(t, x);
            }
        }
    }

    private Object attach(long pid) throws Failure {
        try {
            MonitorEntry e = LivePatching.attach(dir, pid, null);
            known(pid).main = e.mainClass();
            return Map.of("pid", pid, "main", e.mainClass(), "monitored", true);
        } catch (CommandFailure f) {
            throw new Failure(409, f.getMessage());
        } catch (IOException x) {
            throw new Failure(502, "attach to process " + pid + ": " + x.getMessage());
        }
    }

    /** The self-contained HTML report (or the XML) of the process's REPORT now. */
    private Object save(Target t, boolean html) throws Failure {
        Element reply = command(t, "REPORT", "<REPORT TYPE='ALL'/>", REPORT_MILLIS);
        String xml = Xml.serialize(reply);
        if (!html) {
            return new Download("dyper-" + t.pid + ".xml", "application/xml; charset=utf-8",
                    xml.getBytes(StandardCharsets.UTF_8));
        }
        try {
            String label = t.member != null ? remote.describe(t.member) : "process " + t.pid + " (" + t.main + ")";
            String page = HtmlReport.page(HtmlReport.read(label, xml), "Dyper: " + label);
            return new Download("dyper-" + t.pid + ".html", "text/html; charset=utf-8",
                    page.getBytes(StandardCharsets.UTF_8));
        } catch (org.dyper.runtime.report.BadReportException x) {
            throw new Failure(502, "process " + t.pid + ": " + String.join("; ", x.problems()));
        }
    }

    /**
     * When the UI ends: takes out what it inserted into each process, unless pinned; returns one line per process
     * for the terminal.
     */
    List<String> close() {
        live.close();
        List<Target> all;
        synchronized (this) {
            all = List.copyOf(targets.values());
        }
        List<String> lines = new ArrayList<>();
        for (Target t : all) {
            synchronized (t.wireLock) {
                closeWire(t);
            }
            synchronized (t.patching) {
                if (t.inserted == null) {
                    continue;
                }
                if (t.pinned) {
                    lines.add("dyper: ui: model '" + t.inserted + "' stays in process " + t.pid + " (pinned)");
                    continue;
                }
                try {
                    LivePatching.remove(MonitorEntry.of(dir, t.pid), t.inserted, REPORT_MILLIS);
                    lines.add("dyper: ui: model '" + t.inserted + "' taken out of process " + t.pid);
                    t.inserted = null;
                    t.measured.clear();
                } catch (CommandFailure | IOException e) {
                    lines.add("dyper: ui: could not take model '" + t.inserted + "' out of process " + t.pid + ": "
                            + e.getMessage());
                }
            }
        }
        return lines;
    }

    /**
     * Whether a JVM the attach API lists is one of Dyper's own commands (the launcher of {@code dyper run}, a
     * {@code ctl}, {@code patchd} or another {@code ui}): a monitor there would measure Dyper, so it is not offered.
     */
    static boolean isDyper(String main) {
        return main.equals("org.dyper.cli.Main");
    }
}
