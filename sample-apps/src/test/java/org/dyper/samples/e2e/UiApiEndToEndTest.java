package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.dyper.cli.Main;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.hotspot.HotspotApp;
import org.dyper.samples.hotspot.HotspotFacts;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code dyper ui}'s JSON API against the hotspot sample under {@code dyper run} on JDK 25: the JVM list,
 * stacks of a window, measuring a method (exact counts equal to what the program says it did), measuring a second one
 * in the same model, stopping, a pasted model with a mistake, a model of one's own, pinning, what the UI takes out
 * when it ends, a process that ended; and attaching an unmonitored JVM, on JDK 17 and 25.
 */
class UiApiEndToEndTest {
    @TempDir
    Path dir;
    @TempDir
    static Path shared;

    static final Duration LINE = MonitorEndToEndTest.LINE;

    private Path registry() throws Exception {
        Path r = dir.resolve("registry");
        if (!Files.isDirectory(r)) {
            Files.createDirectories(r, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return r;
    }

    /** The hotspot sample under {@code dyper run} (no model: the monitor alone) on {@code jdk}. */
    static Running underDyperRun(Jdk jdk, Path registry, Path cache) throws Exception {
        MonitorEndToEndTest.runtimeJar();
        return MonitorEndToEndTest.start(List.of(Processes.currentJava().toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", "--cache",
                cache.resolve("cache").toString(), "--monitor", "dir=" + registry, "--", "-cp",
                E2e.appClasses().toString(), HotspotApp.class.getName()), jdk.home().toString());
    }

    Run ctl(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("ctl", "--dir", registry().toString()));
        all.addAll(List.of(args));
        return E2e.dyper(all.toArray(String[]::new));
    }

    /** The pid of the one monitored process (the program's JVM is a child of dyper run's). */
    long monitored() throws Exception {
        return Await.until("the program's registry entry", () -> ctl("who").out().trim(), s -> !s.isEmpty()
                && !s.startsWith("No "), Await.MINUTE).lines().map(l -> Long.parseLong(l.split("\\s+")[0]))
                .findFirst().orElseThrow();
    }

    /** The exact figures once they come from a REPORT taken after {@code afterMillis}. */
    static Map<String, Object> exactAfter(Ui ui, long pid, long afterMillis) throws Exception {
        return Await.until("exact figures taken after " + afterMillis, () -> ui.get("/api/jvms/" + pid + "/exact"),
                a -> a.status() == 200 && ((Number) a.map().get("takenMillis")).longValue() > afterMillis,
                Await.MINUTE).map();
    }

    @SuppressWarnings("unchecked")
    static long calls(Map<String, Object> exact, String method) {
        for (Map<String, Object> m : (List<Map<String, Object>>) exact.get("methods")) {
            if (m.get("method").equals(method)) {
                return ((Number) m.get("calls")).longValue();
            }
        }
        return -1;
    }

    @SuppressWarnings("unchecked")
    static long called(Map<String, Object> exact, String name) {
        for (Map<String, Object> c : (List<Map<String, Object>>) exact.get("calls")) {
            if (c.get("name").equals(name)) {
                return ((Number) c.get("count")).longValue();
            }
        }
        return -1;
    }

    /** A burst of n calls; returns when the program said it made them (epoch ms). */
    static long burst(Running app, int line, int n, long total) throws Exception {
        app.send("burst " + n);
        assertEquals(HotspotFacts.burst(n, total), app.line(line, LINE));
        return System.currentTimeMillis();
    }

    /**
     * The CPU stacks since the start once the flight recorder samples (its first samples replace the thread dumps' of
     * the first second) and Hot.work has {@link #ENOUGH} samples: enough for its 3:1 split between its callers to show.
     */
    @SuppressWarnings("unchecked")
    static Ui.Answer hotStacks(Ui ui, long pid) throws Exception {
        return Await.until(ENOUGH + " samples of Hot.work from the flight recorder", () -> ui.get("/api/jvms/" + pid
                + "/stacks?view=CPU&window=start"), a -> a.status() == 200 && "JFR".equals(a.map().get("source"))
                && ((List<List<Object>>) a.map().get("stacks")).stream().filter(s -> ((String) s.get(0)).endsWith(
                ";" + HotspotFacts.HOT)).mapToLong(s -> ((Number) s.get(1)).longValue()).sum() >= ENOUGH,
                Await.MINUTE);
    }

    static final int ENOUGH = 60;

    /** Hot.work's weight (its own frame at the leaf) in a stacks answer. */
    @SuppressWarnings("unchecked")
    static long hot(Ui.Answer stacks) {
        assertEquals(200, stacks.status(), stacks.text());
        return ((List<List<Object>>) stacks.map().get("stacks")).stream().filter(s -> ((String) s.get(0)).endsWith(
                ";" + HotspotFacts.HOT)).mapToLong(s -> ((Number) s.get(1)).longValue()).sum();
    }

    /** The CPU view's total since the start at a mark. */
    @SuppressWarnings("unchecked")
    static long cpuTotal(Ui.Answer mark) {
        assertEquals(200, mark.status(), mark.text());
        return ((Number) ((Map<String, Object>) mark.map().get("totals")).get("CPU")).longValue();
    }

    /** A stacks answer's paths (key "stacks" or "before") as a map of weights. */
    @SuppressWarnings("unchecked")
    static Map<String, Long> weights(Ui.Answer stacks, String key) {
        Map<String, Long> m = new java.util.HashMap<>();
        ((List<List<Object>>) stacks.map().get(key)).forEach(s -> m.put((String) s.get(0), ((Number) s.get(1))
                .longValue()));
        return m;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> gcPauses(Ui.Answer summary) {
        assertEquals(200, summary.status(), summary.text());
        return (List<Map<String, Object>>) ((Map<String, Object>) summary.map().get("gc")).get("pauses");
    }

    static Map<String, Long> nonZero(Map<String, Long> paths) {
        Map<String, Long> m = new java.util.HashMap<>(paths);
        m.values().removeIf(w -> w == 0);
        return m;
    }

    /** A {@code format=tree} answer's paths again: each node's own weight (less its children's) under its path. */
    @SuppressWarnings("unchecked")
    static Map<String, Long> pathsOf(Ui.Answer tree, String weights) {
        assertEquals(200, tree.status(), tree.text());
        Map<String, Object> t = (Map<String, Object>) tree.map().get("tree");
        List<String> names = (List<String>) t.get("names");
        List<Number> f = (List<Number>) t.get("f");
        List<Number> d = (List<Number>) t.get("d");
        List<Number> w = (List<Number>) t.get(weights);
        int n = f.size();
        long[] self = new long[n];
        String[] path = new String[n];
        int[] last = new int[n + 1];
        for (int i = 0; i < n; i++) {
            int depth = d.get(i).intValue();
            self[i] += w.get(i).longValue();
            String name = names.get(f.get(i).intValue());
            if (depth > 0) {
                int parent = last[depth - 1];
                self[parent] -= w.get(i).longValue();
                path[i] = path[parent] + ";" + name;
            } else {
                path[i] = name;
            }
            last[depth] = i;
        }
        Map<String, Long> m = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            if (self[i] != 0) {
                m.put(path[i], self[i]);
            }
        }
        return m;
    }

    static boolean isExact(Ui.Event e) {
        return "changed".equals(e.name()) && e.data().get("exact") != null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> exactOf(Ui.Event e) {
        return (Map<String, Object>) e.data().get("exact");
    }

    static String measure(String method) {
        return "{\"method\":\"" + method + "\"}";
    }

    /**
     * On a JDK 25 target only: the UI's own logic is the same for both JDKs, and the browser test
     * ({@link UiBrowserEndToEndTest}) drives a JDK 17 target through the same endpoints; running this one on both cost
     * 32 s of the suite. What differs per JDK (attaching) runs on both below.
     */
    @Test
    @SuppressWarnings("unchecked")
    void everyEndpoint() throws Exception {
        Jdk jdk = Jdk.JDK25;
        Running app = underDyperRun(jdk, registry(), shared);
        Ui ui = null;
        try {
            assertEquals(HotspotFacts.READY, app.line(0, LINE));
            long pid = monitored();
            ui = Ui.start(registry(), shared);
            Ui api = ui;
            String jvm = "/api/jvms/" + pid;

            Ui.Answer list = ui.get("/api/jvms");
            assertEquals(200, list.status(), list.text());
            Map<String, Object> entry = list.list("jvms").stream().filter(j -> ((Number) j.get("pid")).longValue()
                    == pid).findFirst().orElseThrow(() -> new AssertionError(list.text()));
            assertEquals(HotspotApp.class.getName(), entry.get("main"));
            assertTrue(((String) entry.get("java")).matches(jdk.feature() + "(\\..*)?"), entry.toString());
            assertEquals(List.of(), entry.get("patched"));
            assertFalse(list.list("attachable").stream().anyMatch(j -> ((Number) j.get("pid")).longValue() == pid),
                    "a monitored JVM is not offered for attaching");

            // the hot method is the widest frame of its level, under its busier caller
            Ui.Answer stacks = hotStacks(api, pid);
            List<Object> heaviest = ((List<List<Object>>) stacks.map().get("stacks")).get(0);
            assertTrue(((String) heaviest.get(0)).endsWith(HotspotFacts.LEFT + ";" + HotspotFacts.HOT), heaviest
                    .toString());
            assertEquals("SAMPLES", stacks.map().get("unit"));
            assertEquals(-1L, ((Number) stacks.map().get("coveredMs")).longValue(), "since the start");
            Ui.Answer collapsed = ui.get(jvm + "/stacks?view=CPU&window=start&format=collapsed");
            assertTrue(collapsed.text().lines().allMatch(l -> l.matches("\\S+ \\d+")), collapsed.text());
            Ui.Answer window = Await.until("a 10 s window of two REPORTs", () -> api.get(jvm + "/stacks?window=10s"),
                    a -> ((Number) a.map().get("coveredMs")).longValue() > 0, Await.MINUTE);
            assertTrue(((Number) window.map().get("total")).longValue() <= ((Number) stacks.map().get("total"))
                    .longValue() + 10_000, window.text());
            assertEquals(400, ui.get(jvm + "/stacks?window=2h").status());

            // one JVM: its threads, GC and detailing; detailing on and off; the saved report
            Ui.Answer summary = ui.get(jvm);
            assertEquals(200, summary.status(), summary.text());
            assertTrue(summary.list("threads").stream().anyMatch(t -> t.get("name").equals(HotspotFacts.WORKER)
                    && "RUNNING".equals(t.get("mostly"))), summary.text());
            assertTrue(((Map<String, Object>) summary.map().get("gc")).containsKey("collections"), summary.text());
            assertEquals("OFF", ((Map<String, Object>) summary.map().get("detail")).get("state"), summary.text());
            assertEquals(Map.of("pid", pid, "detail", true), ui.post(jvm + "/detail", "{\"on\":true}").map());
            Ui.Answer detailing = Await.until("detailing on", () -> api.get(jvm), a -> !"OFF".equals(
                    ((Map<String, Object>) a.map().get("detail")).get("state")), Await.MINUTE);
            assertTrue(List.of("ON", "WAITING").contains(((Map<String, Object>) detailing.map().get("detail"))
                    .get("state")), detailing.text());
            assertEquals(Map.of("pid", pid, "detail", false), ui.post(jvm + "/detail", "{\"on\":false}").map());
            Await.until("detailing off", () -> api.get(jvm), a -> "OFF".equals(((Map<String, Object>) a.map()
                    .get("detail")).get("state")), Await.MINUTE);
            Ui.Answer xml = ui.get(jvm + "/report.xml");
            assertEquals(200, xml.status());
            assertTrue(xml.text().startsWith("<DYPER_REPLY ID='" + pid + "'><MONITOR_REPORT ")
                    || xml.text().startsWith("<DYPER_REPLY ID=\"" + pid + "\"><MONITOR_REPORT "), xml.text()
                    .substring(0, 80));
            Ui.Answer html = ui.get(jvm + "/report.html");
            assertEquals(200, html.status());
            assertTrue(html.text().startsWith("<!DOCTYPE html>") && html.text().contains("dyper-data"),
                    html.text().substring(0, 80));

            // windows picked by hand: the program spins from mark 1 to mark 2 and is paused from mark 2 to mark 3
            Ui.Answer m1 = ui.post(jvm + "/marks", "{\"label\":\"spinning\"}");
            assertEquals(200, m1.status(), m1.text());
            assertEquals(List.of(1L, "spinning"), List.of(((Number) m1.map().get("id")).longValue(),
                    m1.map().get("label")));
            Await.until("more samples of Hot.work after mark 1", () -> hot(api.get(jvm + "/stacks?window=1..")),
                    w -> w >= 20, Await.MINUTE);
            app.send("pause");
            assertEquals(HotspotFacts.PAUSED, app.line(1, LINE));
            long[] last = {-1, 0};
            Await.until("Hot.work's samples all in (the same for 3 s)", () -> {
                long now = hot(api.get(jvm + "/stacks?window=start"));
                if (now != last[0]) {
                    last[0] = now;
                    last[1] = System.nanoTime();
                }
                return System.nanoTime() - last[1] >= 3_000_000_000L;
            }, Await.MINUTE);
            Ui.Answer m2 = ui.post(jvm + "/marks", "{}");
            assertEquals("mark 2", m2.map().get("label"), m2.text());
            long m2Millis = ((Number) m2.map().get("takenMillis")).longValue();
            Await.until("a REPORT 2 s after mark 2 (the program paused)", () -> ((Number) api.get(jvm
                    + "/stacks?window=start").map().get("takenMillis")).longValue() >= m2Millis + 2000, Await.MINUTE);
            Ui.Answer m3 = ui.post(jvm + "/marks", "{\"label\":\"paused\"}");
            Ui.Answer spun = ui.get(jvm + "/stacks?window=1..2");
            Ui.Answer paused = ui.get(jvm + "/stacks?window=2..3");
            assertEquals(200, spun.status(), spun.text());
            assertEquals(cpuTotal(m2) - cpuTotal(m1), ((Number) spun.map().get("total")).longValue(),
                    "mark 1 to mark 2: what the monitor counted between them");
            assertEquals(cpuTotal(m3) - cpuTotal(m2), ((Number) paused.map().get("total")).longValue());
            assertTrue(hot(spun) >= 20, spun.text());
            assertEquals(0, hot(paused), "paused: " + paused.text());
            Ui.Answer both3 = ui.get(jvm + "/stacks?window=1..3");
            Map<String, Long> sum = weights(spun, "stacks");
            weights(paused, "stacks").forEach((p, w) -> sum.merge(p, w, Long::sum));
            assertEquals(sum, weights(both3, "stacks"), "mark 1 to 3 is 1 to 2 and 2 to 3");
            Ui.Answer diff = ui.get(jvm + "/stacks?window=2..3&compare=1..2");
            assertEquals(weights(paused, "stacks"), weights(diff, "stacks"));
            assertEquals(weights(spun, "stacks"), weights(diff, "before"), "before: mark 1 to mark 2");
            assertEquals(spun.map().get("total"), diff.map().get("beforeTotal"));
            assertEquals("1..2", diff.map().get("compare"));
            // the page's form: the same windows as pre-ordered trees built by the server
            Ui.Answer spunTree = ui.get(jvm + "/stacks?window=1..2&format=tree");
            assertEquals(nonZero(weights(spun, "stacks")), pathsOf(spunTree, "w"), spunTree.text());
            assertEquals(spun.map().get("total"), spunTree.map().get("total"));
            assertFalse(spunTree.map().containsKey("stacks"), "a tree instead of the paths");
            Ui.Answer diffTree = ui.get(jvm + "/stacks?window=2..3&compare=1..2&format=tree");
            assertEquals(nonZero(weights(paused, "stacks")), pathsOf(diffTree, "w"), diffTree.text());
            assertEquals(nonZero(weights(spun, "stacks")), pathsOf(diffTree, "w0"), diffTree.text());
            assertEquals(400, ui.get(jvm + "/stacks?format=svg").status());
            assertEquals("window 2..1: mark 1 must come after mark 2", ui.get(jvm + "/stacks?window=2..1").map()
                    .get("error"));
            Ui.Answer none9 = ui.get(jvm + "/stacks?window=9..");
            assertEquals(404, none9.status(), none9.text());
            assertEquals("process " + pid + " has no mark 9 (marks: 1, 2, 3)", none9.map().get("error"));
            assertEquals(Map.of("pid", pid, "deleted", 3L), ui.delete(jvm + "/marks?id=3", "").map());
            assertEquals(List.of(1L, 2L), ui.get(jvm + "/marks").list("marks").stream().map(m -> ((Number) m.get(
                    "id")).longValue()).toList());

            // opening the process wove its hottest method ahead of a click: the click finds it in the cache
            Await.until("Hot.work woven ahead of a click", () -> api.get(jvm), a -> HotspotFacts.HOT.equals(
                    a.map().get("preweaved")), Await.MINUTE);
            Ui.Answer in = ui.post(jvm + "/measure", measure(HotspotFacts.HOT));
            assertEquals(200, in.status(), in.text());
            assertEquals(true, in.map().get("cached"), in.text());
            assertEquals(List.of(HotspotFacts.HOT), in.map().get("measured"));
            assertEquals("dyper-ui", in.map().get("model"));
            assertEquals(1L, ((Number) in.map().get("classes")).longValue(), in.text());
            Map<String, Object> exact;
            long said;
            try (Ui.Events events = ui.events(jvm + "/events")) {
                assertEquals(200, events.status);
                // an event with the exact figures (the model went in: Hot.work, no calls yet), then the burst's
                Ui.Event before = events.next("Hot.work measured", e -> isExact(e) && calls(exactOf(e),
                        HotspotFacts.HOT) == 0, Await.MINUTE);
                said = burst(app, 2, 1000, 1000);
                // (a REPORT during the burst may see part of it: counts only grow, up to the program's)
                List<Long> counts = new ArrayList<>();
                Ui.Event after = events.next("Hot.work's 1000 calls", e -> isExact(e) && counts.add(calls(exactOf(e),
                        HotspotFacts.HOT)) && counts.get(counts.size() - 1) >= 1000, Await.MINUTE);
                assertEquals(1000, calls(exactOf(after), HotspotFacts.HOT), "exact: " + after);
                for (int i = 1; i < counts.size(); i++) {
                    assertTrue(counts.get(i) > counts.get(i - 1), "each event with new figures, growing: " + counts);
                }
                assertEquals(1000L * HotspotFacts.MIX_CALLS, called(exactOf(after), HotspotFacts.MIX));
                assertTrue(((Number) exactOf(after).get("takenMillis")).longValue() >= said - 1000, after.toString());
                assertTrue(((Number) after.data().get("tick")).longValue() > ((Number) before.data().get("tick"))
                        .longValue());
                // a second stream hears the same poller: its ticks go on from the first's (a poller of its own would
                // start at 0), and it gets the same events (the same REPORT)
                Ui.Event late = events.next("a REPORT after tick 5", e -> "changed".equals(e.name()) && e.data()
                        .get("report") != null && ((Number) e.data().get("tick")).longValue() >= 5, Await.MINUTE);
                try (Ui.Events second = ui.events(jvm + "/events")) {
                    Ui.Event seen = second.next("a REPORT", e -> "changed".equals(e.name()) && e.data().get("report")
                            != null, Await.MINUTE);
                    assertTrue(((Number) seen.data().get("tick")).longValue() > ((Number) late.data().get("tick"))
                            .longValue(), seen + " after " + late);
                    Ui.Event same = events.next("the same REPORT", e -> e.data().get("tick") != null && e.data()
                            .get("tick").equals(seen.data().get("tick")), Await.MINUTE);
                    assertEquals(seen.data().get("report"), same.data().get("report"));
                    assertTrue(((Map<String, Object>) seen.data().get("report")).get("totals") instanceof Map<?, ?> t
                            && ((Number) t.get("CPU")).longValue() > 0, seen.toString());
                }
            }
            exact = exactAfter(ui, pid, said);
            assertEquals(1000, calls(exact, HotspotFacts.HOT), exact.toString());
            assertEquals(1000L * HotspotFacts.MIX_CALLS, called(exact, HotspotFacts.MIX), exact.toString());

            // a second method: one model with both, replaced in one step
            Ui.Answer both = ui.post(jvm + "/measure", measure(HotspotFacts.LEFT));
            assertEquals(200, both.status(), both.text());
            assertEquals(List.of(HotspotFacts.HOT, HotspotFacts.LEFT), both.map().get("measured"));
            exact = exactAfter(ui, pid, burst(app, 3, 10, 1010));
            assertEquals(1010, calls(exact, HotspotFacts.HOT), exact.toString());
            assertEquals(HotspotFacts.left(10), calls(exact, HotspotFacts.LEFT), exact.toString());

            Ui.Answer one = ui.delete(jvm + "/measure", measure(HotspotFacts.HOT));
            assertEquals(List.of(HotspotFacts.LEFT), one.map().get("measured"), one.text());
            Ui.Answer none = ui.delete(jvm + "/measure?method=" + HotspotFacts.LEFT, "");
            assertEquals(200, none.status(), none.text());
            assertEquals(List.of(), none.map().get("measured"));
            assertFalse(ctl(Long.toString(pid), "instrumented").out().contains(" in since "), "nothing is in");
            exact = exactAfter(ui, pid, burst(app, 4, 10, 1020));
            assertEquals(1010, calls(exact, HotspotFacts.HOT), "stopped: " + exact);
            assertEquals(HotspotFacts.left(10), calls(exact, HotspotFacts.LEFT), "stopped: " + exact);

            assertEquals(400, ui.post(jvm + "/measure", "{\"method\":\"no method\"}").status());
            assertEquals(404, ui.get("/api/jvms/999999999/exact").status());
            Ui.Answer bad = ui.post(jvm + "/model", "{\"model\":\"<MODEL NAME='m'>\\n  <FOR CLAS='x'/></MODEL>\"}");
            assertEquals(422, bad.status(), bad.text());
            assertEquals("2:3: FOR: unknown attribute CLAS (allowed: CLASS, METHOD, UPDATE)",
                    ((List<String>) bad.map().get("problems")).get(0), bad.text());
            Ui.Answer mine = ui.post(jvm + "/model", "{\"model\":\"<MODEL NAME='mine'><FOR CLASS='"
                    + "org.dyper.samples.hotspot.Right' METHOD='call'><PATCH WHAT='ENTER' MODE='COUNT'/></FOR>"
                    + "</MODEL>\"}");
            assertEquals(200, mine.status(), mine.text());
            Ui.Answer refused = ui.post(jvm + "/measure", measure(HotspotFacts.HOT));
            assertEquals(409, refused.status(), refused.text());
            assertEquals("model 'mine' (applied from the UI) is in: one model at a time; remove it first",
                    refused.map().get("error"));
            Ui.Answer out = ui.delete(jvm + "/model", "");
            assertEquals("model 'mine' removed", out.map().get("message"), out.text());

            // "ask about this" (issue 25): a question about the method, answered through the same path as ctl ask
            Ui.Answer typo = ui.post(jvm + "/ask", "{\"question\":\"time of org.dyper.samples.hotspot.Hot.wrok\"}");
            assertEquals(400, typo.status(), typo.text());
            assertTrue(((String) typo.map().get("error")).startsWith("question, column 39: "
                    + "org.dyper.samples.hotspot.Hot has no method 'wrok'"), typo.text());
            String asked = "time of " + HotspotFacts.HOT + " by caller";
            Ui.Answer ask = ui.post(jvm + "/ask", "{\"question\":\"" + asked + "\"}");
            assertEquals(200, ask.status(), ask.text());
            assertEquals(List.of("dyper-ask", 2L), List.of(ask.map().get("model"), ((Number) ask.map().get("sites"))
                    .longValue()), "the calls in Left.call and Right.call, not Hot.work itself");
            burst(app, 5, 10, 1030);
            Ui.Answer answers = ui.get(jvm + "/answers");
            assertEquals(200, answers.status(), answers.text());
            Map<String, Object> q = answers.list("questions").get(0);
            assertEquals(List.of(asked, 2L, 10L, 10L), List.of(q.get("text"), ((Number) q.get("sites")).longValue(),
                    ((Number) q.get("checks")).longValue(), ((Number) q.get("records")).longValue()), answers.text());
            Map<String, Long> byCaller = new java.util.TreeMap<>();
            ((List<Map<String, Object>>) q.get("groups")).forEach(g -> byCaller.put((String) g.get("name"),
                    ((Number) g.get("count")).longValue()));
            assertEquals(Map.of(HotspotFacts.LEFT + "(int)", 5L, HotspotFacts.RIGHT + "(int)", 5L), byCaller,
                    "a burst of 10: every other call through Left");
            assertTrue(((String) answers.map().get("text")).contains("  " + asked + "\n  2 sites patched; 10 checks, "
                    + "10 records; 2 groups\n"), answers.text());
            assertEquals("model 'dyper-ask' removed", ui.delete(jvm + "/model", "").map().get("message"));

            // what the UI inserted comes out when it ends
            assertEquals(200, ui.post(jvm + "/measure", measure(HotspotFacts.HOT)).status());
            assertEquals(143, ui.stop());
            assertTrue(ui.process.stderr().contains("dyper: ui: model 'dyper-ui' taken out of process " + pid),
                    ui.process.stderr());
            assertFalse(ctl(Long.toString(pid), "instrumented").out().contains(" in since "), "taken out");
            ui.close();

            // unless pinned
            ui = Ui.start(registry(), shared);
            assertEquals(200, ui.post(jvm + "/measure", measure(HotspotFacts.HOT)).status());
            assertEquals(Map.of("pid", pid, "pinned", true), ui.post(jvm + "/pin", "{\"pinned\":true}").map());
            assertEquals(143, ui.stop());
            assertTrue(ui.process.stderr().contains("dyper: ui: model 'dyper-ui' stays in process " + pid
                    + " (pinned)"), ui.process.stderr());
            assertTrue(ctl(Long.toString(pid), "instrumented").out().contains("model dyper-ui (patch "), "pinned");
            ui.close();

            // a process that ends is said to have ended
            ui = Ui.start(registry(), shared);
            assertEquals(200, ui.get(jvm).status());

            // a planted System.gc(): listed among the GC pauses, with its cause
            long gcAt = System.currentTimeMillis();
            app.send("gc");
            assertEquals(HotspotFacts.COLLECTED, app.line(6, LINE));
            long gcDone = System.currentTimeMillis();
            Ui api2 = ui;
            Map<String, Object> pause = Await.until("the System.gc() among the pauses", () -> gcPauses(api2.get(jvm))
                    .stream().filter(p -> HotspotFacts.GC_CAUSE.equals(p.get("cause"))).findFirst().orElse(null),
                    p -> p != null, Await.MINUTE);
            long when = ((Number) pause.get("time")).longValue();
            assertTrue(when >= gcAt - 1000 && when <= gcDone, when + " not in " + gcAt + ".." + gcDone);
            assertTrue(((Number) pause.get("pauseNs")).longValue() > 0, pause.toString());
            assertFalse(((String) pause.get("collector")).isBlank(), pause.toString());

            try (Ui.Events events = ui.events(jvm + "/events")) {
                events.next("a first event", e -> "changed".equals(e.name()), Await.MINUTE);
                app.send("quit");
                assertEquals(0, app.awaitExit(LINE), app.stderr());
                Ui.Event gone = events.next("the process ended", e -> e.name() == null || !"changed".equals(
                        e.name()), Await.MINUTE);
                assertEquals("ended", gone.name(), gone.toString());
                assertEquals("process " + pid + " (" + HotspotApp.class.getName() + ") ended", gone.data().get(
                        "error"));
                assertEquals(410L, ((Number) gone.data().get("status")).longValue());
                assertEquals(null, events.next("the stream's end", e -> true, Await.MINUTE).name(), "it ends");
            }
            Ui.Answer ended = ui.get(jvm + "/exact");
            assertEquals(410, ended.status(), ended.text());
            assertEquals("process " + pid + " (" + HotspotApp.class.getName() + ") ended", ended.map().get("error"));
        } finally {
            if (ui != null) {
                ui.close();
            }
            app.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void attachesAnUnmonitoredJvm(Jdk jdk) throws Exception {
        MonitorEndToEndTest.runtimeJar();
        List<String> cmd = new ArrayList<>(List.of(jdk.java().toString()));
        if (jdk.feature() >= 21) {
            cmd.add("-XX:+EnableDynamicAgentLoading");
        }
        cmd.addAll(List.of("-cp", E2e.appClasses().toString(), HotspotApp.class.getName()));
        Running app = Processes.start(cmd);
        try (Ui ui = Ui.start(registry(), shared)) {
            assertEquals(HotspotFacts.READY, app.line(0, LINE));
            long pid = app.pid();
            Await.until("process " + pid + " among the attachable JVMs", () -> ui.get("/api/jvms"),
                    a -> a.list("attachable").stream().anyMatch(j -> ((Number) j.get("pid")).longValue() == pid),
                    Await.MINUTE);
            Ui.Answer attached = ui.post("/api/jvms/" + pid + "/attach", "{}");
            assertEquals(200, attached.status(), attached.text());
            assertEquals(Map.of("pid", pid, "main", HotspotApp.class.getName(), "monitored", true), attached.map());
            Ui.Answer list = ui.get("/api/jvms");
            assertTrue(list.list("jvms").stream().anyMatch(j -> ((Number) j.get("pid")).longValue() == pid),
                    list.text());
            app.send("quit");
            assertEquals(0, app.awaitExit(LINE), app.stderr());
        } finally {
            app.close();
        }
    }
}
