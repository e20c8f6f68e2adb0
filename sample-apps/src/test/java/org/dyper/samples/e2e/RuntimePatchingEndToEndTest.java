package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.dyper.cli.Main;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.phases.PhaseFacts;
import org.dyper.samples.phases.PhasedApp;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.XmlReports.ExitReport;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Run-time patching of the phases sample, on JDK 17 and 25, started by {@code dyper run} or reached with
 * {@code dyper ctl attach}: phase 1 unpatched, {@code ctl instrument}, phase 2, {@code ctl uninstrument}, phase 3,
 * {@code ctl instrument} again, phase 4. The report must hold exactly the counts of phases 2 and 4, the program's
 * output must be its own. And each refusal: the program runs on, nothing changed, the error says why.
 */
class RuntimePatchingEndToEndTest {
    @TempDir
    Path dir;
    @TempDir
    static Path shared;

    enum Start { DYPER_RUN, ATTACH }

    static Stream<Arguments> ways() {
        return Stream.of(Jdk.values()).flatMap(j -> Stream.of(Start.values()).map(s -> Arguments.of(j, s)));
    }

    /** The sample's classes without the plug-in, and the plug-in apart: it is not on the class path. */
    static Path[] layout(Path root) throws IOException {
        Path app = root.resolve("app");
        Path plugins = root.resolve("plugins");
        Path classes = E2e.appClasses();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                String rel = classes.relativize(f).toString().replace('\\', '/');
                Path to = (rel.startsWith("org/dyper/samples/phases/plugin/") ? plugins : app).resolve(rel);
                Files.createDirectories(to.getParent());
                Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return new Path[] {app, plugins};
    }

    private Running start(Jdk jdk, Start how, Path report, String... extra) throws Exception {
        Path[] paths = layout(dir);
        List<String> program = new ArrayList<>(List.of("-cp", paths[0].toString(), PhasedApp.class.getName(),
                paths[1].toString()));
        program.addAll(List.of(extra));
        List<String> cmd = new ArrayList<>();
        if (how == Start.DYPER_RUN) {
            cmd.addAll(List.of(Processes.currentJava().toString(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "run", "--model",
                    E2e.MODELS.resolve("phases-launch.xml").toString(), "--report", "none", "--xml", report.toString(),
                    "--cache", shared.resolve("cache").toString(), "--monitor", "dir=" + dir.resolve("registry"),
                    "--"));
            MonitorEndToEndTest.runtimeJar();
        } else {
            cmd.addAll(List.of(jdk.java().toString(), "-Ddyper.report=none", "-Ddyper.report.xml=" + report));
        }
        cmd.addAll(program);
        return MonitorEndToEndTest.start(cmd, jdk.home().toString());
    }

    /** The pid of the one monitored process (under dyper run, the program's JVM is a child of the CLI's). */
    private long monitored() {
        Run who = ctl("who");
        assertEquals(1, who.out().lines().count(), who.out());
        return Long.parseLong(who.out().trim().split("\\s+")[0]);
    }

    private Run ctl(String... args) {
        List<String> all = new ArrayList<>(List.of("ctl", "--dir", dir.resolve("registry").toString()));
        all.addAll(List.of(args));
        return E2e.dyper(all.toArray(String[]::new));
    }

    private Run instrument(long pid, String model) {
        return ctl(Long.toString(pid), "instrument", "--model", E2e.MODELS.resolve(model).toString(), "--cache",
                shared.resolve("cache").toString());
    }

    private static void phase(Running t, int n) throws Exception {
        t.send("phase");
        assertEquals(PhaseFacts.output(n, true).get(n - 1), t.line(n - 1, MonitorEndToEndTest.LINE));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("ways")
    void theReportHoldsExactlyThePatchedPhases(Jdk jdk, Start how) throws Exception {
        Path report = dir.resolve("report.xml");
        Running t = start(jdk, how, report);
        try {
            phase(t, 1);
            long pid = t.process().pid();
            if (how == Start.ATTACH) {
                Run attach = ctl("attach", Long.toString(pid));
                assertEquals(0, attach.exit(), attach.err());
            } else {
                pid = monitored();
            }
            Run bad = ctl(Long.toString(pid), "instrument", "--model", E2e.MODELS.resolve("phases.xml").toString(),
                    "--modes", writeModes("<DYPATCH><DYPATCH_MODE NAME='TIME_ENTER'><CODE TYPE='CALL' "
                            + "CLASS='java.lang.Math' METHOD='abs' SIGNATURE='(int)'><ARG TYPE='RETURN'/></CODE>"
                            + "</DYPATCH_MODE></DYPATCH>").toString(), "--cache", shared.resolve("cache").toString());
            assertEquals(3, bad.exit(), "a mode error: " + bad.err());
            assertTrue(bad.err().contains("ARG: TYPE='RETURN' has no value at WHAT='ENTER'"), bad.err());
            assertTrue(bad.err().endsWith("problem(s); nothing was instrumented\n"), bad.err());
            assertTrue(ctl(Long.toString(pid), "instrumented").out().startsWith("No model was instrumented"));

            Run first = instrument(pid, "phases.xml");
            assertEquals(0, first.exit(), first.err());
            assertTrue(first.out().startsWith("dyper: model 'phases' instrumented in process " + pid + ": 2 class(es)"
                    + " patched now, 1 when they load (site ids "), first.out());
            String ids = first.out().lines().findFirst().orElseThrow().replaceAll(".*\\(site ids ", "(site ids ");
            Run other = ctl(Long.toString(pid), "instrument", "--model", E2e.MODELS.resolve("phases-launch.xml")
                    .toString(), "--cache", shared.resolve("cache").toString());
            assertEquals(6, other.exit(), other.err());
            assertEquals("dyper: error: process " + pid + ": INSTRUMENT refused, nothing changed: model 'phases' is "
                    + "instrumented now: one model at a time; remove it first (INSERT='FALSE'), or instrument a new "
                    + "version of it under the same name\n", other.err());
            phase(t, 2);
            Run out = ctl(Long.toString(pid), "uninstrument");
            assertEquals(0, out.exit(), out.err());
            assertEquals("dyper: model 'phases' removed from process " + pid + ": 3 class(es) restored in",
                    out.out().substring(0, out.out().lastIndexOf(" in ") + 3));
            phase(t, 3);
            // the second time with the class files' bytes inside INSTRUMENT (as to a monitor on another machine)
            Run again = ctl(Long.toString(pid), "instrument", "--inline", "--model", E2e.MODELS.resolve("phases.xml")
                    .toString(), "--cache", shared.resolve("cache").toString());
            assertEquals(0, again.exit(), again.err());
            assertTrue(again.out().startsWith("dyper: model 'phases' instrumented in process " + pid + ": 3 class(es)"
                    + " patched now, 0 when they load " + ids), again.out() + " / " + ids);
            assertTrue(again.out().contains("patched class files reused from"), again.out());
            phase(t, 4);
            Run listed = ctl(Long.toString(pid), "instrumented");
            assertEquals(0, listed.exit(), listed.err());
            assertTrue(listed.out().contains("model phases (patch "), listed.out());
            assertTrue(listed.out().lines().anyMatch(l -> l.matches("  org\\.dyper\\.samples\\.phases\\.plugin\\."
                    + "Plugin +plugins \\S+ +PATCHED .*")), listed.out());
            assertTrue(listed.out().lines().anyMatch(l -> l.matches("  " + PhaseFacts.WORK.replace(".", "\\.")
                    .replace("(", "\\(").replace(")", "\\)") + " +\\d+ +\\d{4}-.* patched")), listed.out());
            assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
            assertEquals(PhaseFacts.output(4, true), t.lines());
        } finally {
            t.close();
        }
        checkCounts(ExitReport.of(report));
    }

    /** Exactly phases 2 and 4. */
    private static void checkCounts(ExitReport r) {
        long calls = 2L * PhaseFacts.CALLS;
        long taken = PhaseFacts.multiplesOfThree(2) + PhaseFacts.multiplesOfThree(4);
        String block = PhaseFacts.WORK + " block ";
        assertAll(
                () -> assertEquals(calls, r.value("TIMING", PhaseFacts.WORK, "COUNT"), "ENTER/EXIT timing"),
                () -> assertEquals(calls, r.value("CALLS", PhaseFacts.WEIGH, "COUNT"), "CALL"),
                () -> assertEquals(calls, r.value("ALLOCATIONS", "TYPE:" + PhaseFacts.ITEM, "COUNT"), "OBJECT_ALLOC"),
                () -> assertEquals(calls, r.value("LOCKS", PhaseFacts.WORK, "ACQUISITIONS"), "SYNC_*"),
                () -> assertEquals(calls, r.value("FIELDS", "FIELD:" + PhaseFacts.TOTAL, "WRITES"), "FIELD_WRITE"),
                () -> assertEquals(0, r.value("FIELDS", "FIELD:" + PhaseFacts.TOTAL, "UNLOCKED_WRITES")),
                () -> assertEquals(2L * PhaseFacts.LATER_CALLS, r.value("COUNTS", PhaseFacts.TWICE, "COUNT"),
                        "a class loaded after the patch went in"),
                () -> assertEquals(2L * PhaseFacts.PLUGIN_CALLS, r.value("SAMPLED_TIMING", PhaseFacts.PLUGIN,
                        "COUNT"), "a class of a child class loader"),
                () -> assertEquals(Map.of("0", calls, "1", taken, "2", calls - taken, "3", calls, "5", calls),
                        blocks(r, block), "BLOCK_START"),
                () -> assertEquals("0", r.failures().get("TOTAL")));
    }

    private static Map<String, Long> blocks(ExitReport r, String prefix) {
        Map<String, Long> counts = new java.util.TreeMap<>();
        r.sections().get("COUNTS").forEach((name, site) -> {
            if (name.startsWith(prefix)) {
                counts.merge(name.substring(prefix.length()).split(" ")[0], Long.parseLong(site.get("COUNT")),
                        Long::sum);
            }
        });
        return counts;
    }

    private Path writeModes(String xml) throws IOException {
        Path f = dir.resolve("modes.xml");
        Files.writeString(f, xml);
        return f;
    }

    @Test
    void aClassWovenAtLaunchIsNotTheClassThePatchWasMadeFor() throws Exception {
        Path report = dir.resolve("report.xml");
        Path[] paths = layout(dir);
        Path launch = dir.resolve("launch.xml");
        Files.writeString(launch, "<MODEL NAME='launch'><FOR CLASS='org.dyper.samples.phases.Worker' METHOD='weigh'>"
                + "<PATCH WHAT='ENTER' MODE='COUNT'/></FOR></MODEL>");
        MonitorEndToEndTest.runtimeJar();
        Running t = MonitorEndToEndTest.start(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--model", launch.toString(),
                "--report", "none", "--xml", report.toString(), "--cache", shared.resolve("cache").toString(),
                "--monitor", "dir=" + dir.resolve("registry"), "--", "-cp", paths[0].toString(),
                PhasedApp.class.getName(), paths[1].toString()), null);
        try {
            phase(t, 1);
            long pid = monitored();
            Run refused = instrument(pid, "phases.xml");
            assertEquals(6, refused.exit(), refused.err());
            assertEquals("dyper: error: process " + pid + ": INSTRUMENT refused, nothing changed: "
                    + "org.dyper.samples.phases.Worker (class loader app) is not the class file the patch was made "
                    + "for: its code in this JVM differs from ORIG (another agent changed it, or it was redefined "
                    + "since)\n", refused.err());
            unchanged(t, pid, report);
        } finally {
            t.close();
        }
    }

    @Test
    void aJvmThatCannotRedefineRefuses() throws Exception {
        Path report = dir.resolve("report.xml");
        Path agent = dir.resolve("no-redefine.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", "org.dyper.runtime.monitor.MonitorAgent");
        try (OutputStream file = Files.newOutputStream(agent); JarOutputStream jar = new JarOutputStream(file, m)) {
            jar.flush();
        }
        Path[] paths = layout(dir);
        Running t = MonitorEndToEndTest.start(List.of(Jdk.JDK17.java().toString(), "-javaagent:" + agent + "=dir="
                + dir.resolve("registry"), "-Ddyper.report=none", "-Ddyper.report.xml=" + report, "-cp", paths[0]
                + java.io.File.pathSeparator + String.join(java.io.File.pathSeparator, runtime()),
                PhasedApp.class.getName(), paths[1].toString()), null);
        try {
            phase(t, 1);
            long pid = t.process().pid();
            Run refused = instrument(pid, "phases.xml");
            assertEquals(6, refused.exit(), refused.err());
            assertEquals("dyper: error: process " + pid + ": INSTRUMENT refused, nothing changed: this JVM cannot "
                    + "redefine classes (its Instrumentation does not support it)\n", refused.err());
            String patches = org.dyper.testsupport.Await.until("the warm-up of run-time patching decided", () -> ctl(
                    "--xml", Long.toString(pid), "instrumented").out(), out -> !out.contains("WARMUP='NOT_STARTED'")
                    && !out.contains("WARMUP='RUNNING'"), org.dyper.testsupport.Await.MINUTE);
            assertTrue(patches.contains("<PATCHES WARMUP='SKIPPED' WARMUP_NOTE='this JVM cannot redefine and "
                    + "retransform classes'>"), "nothing to warm where nothing can be patched: " + patches);
            unchanged(t, pid, report);
        } finally {
            t.close();
        }
    }

    @Test
    void aClassLoaderThatCannotSeeTheRuntimeRefuses() throws Exception {
        Path report = dir.resolve("report.xml");
        Running t = start(Jdk.JDK17, Start.ATTACH, report, "isolated");
        try {
            phase(t, 1);
            long pid = t.process().pid();
            assertEquals(0, ctl("attach", Long.toString(pid)).exit());
            Run refused = instrument(pid, "phases.xml");
            assertEquals(6, refused.exit(), refused.err());
            assertTrue(refused.err().startsWith("dyper: error: process " + pid + ": INSTRUMENT refused, nothing changed: "
                    + "org.dyper.samples.phases.plugin.Plugin: its class loader plugins "), refused.err());
            assertTrue(refused.err().endsWith(" does not see the Dyper runtime this monitor reports from "
                    + "(org.dyper.runtime on the application class path)\n"), refused.err());
            unchanged(t, pid, report);
        } finally {
            t.close();
        }
    }

    /**
     * The seed's loop by hand, as a front end (or the monitor itself) would run it: {@code dyper patchd --pid} makes
     * the patched class files (MODEL, PATCH), INSTRUMENT puts them in with the lines the PATCH reply listed, then
     * INSERT='FALSE' takes them out. The report holds exactly phase 2.
     */
    @Test
    void patchdAndInstrumentByProtocol() throws Exception {
        Path report = dir.resolve("report.xml");
        Running t = start(Jdk.JDK17, Start.DYPER_RUN, report);
        Thread service = null;
        try {
            phase(t, 1);
            long pid = monitored();
            Path registry = dir.resolve("registry");
            service = new Thread(() -> E2e.dyper("patchd", "--pid", Long.toString(pid), "--dir", registry.toString(),
                    "--directory", dir.resolve("patches").toString()), "patchd");
            service.setDaemon(true);
            service.start();
            Path entry = registry.resolve(pid + ".patchd");
            Await.until("the patch service's entry " + entry, () -> Files.exists(entry), Await.MINUTE);
            String patchReply;
            try (org.dyper.runtime.wire.WireClient c = org.dyper.runtime.wire.WireClient.connect(entry, "DYPATCH", pid,
                    "patch service")) {
                c.timeout(120_000);
                assertEquals("<DYPATCH_REPLY ID='" + pid + "'>PONG</DYPATCH_REPLY>", c.command("PING", null));
                String model = Files.readString(E2e.MODELS.resolve("phases.xml"));
                assertEquals("<DYPATCH_REPLY ID='" + pid + "'><MODEL NAME='phases'/></DYPATCH_REPLY>",
                        c.command("MODEL", model.substring(model.indexOf("<MODEL"))));
                patchReply = c.command("PATCH", "<PATCH ALL='TRUE' MODEL='phases'/>");
            }
            org.w3c.dom.Element patch = MonitorEndToEndTest.all(MonitorEndToEndTest.xml(patchReply), "PATCH").get(0);
            StringBuilder instrument = new StringBuilder("<MODEL NAME='phases' INSERT='TRUE' ID='"
                    + patch.getAttribute("ID") + "' SITES='" + patch.getAttribute("SITES") + "'>");
            for (org.w3c.dom.Element c : MonitorEndToEndTest.all(patch, "CLASS")) {
                instrument.append("<PATCH CLASS='").append(c.getAttribute("NAME")).append("' ORIG='")
                        .append(c.getAttribute("ORIG")).append("' PATCH='").append(c.getAttribute("PATCH"))
                        .append("'/>");
            }
            for (org.w3c.dom.Element a : MonitorEndToEndTest.all(patch, "ASPECT")) {
                instrument.append("<ASPECT NAME='").append(a.getAttribute("NAME")).append("' FILE='")
                        .append(a.getAttribute("FILE")).append("'/>");
            }
            instrument.append("</MODEL>");
            Run in = ctl("--xml", Long.toString(pid), "INSTRUMENT", instrument.toString());
            assertEquals(0, in.exit(), in.err() + in.out());
            assertTrue(in.out().matches("<DYPER_REPLY ID='" + pid + "'><PATCH TIME='\\d+' NANOS='\\d+' "
                    + "REDEFINE_NANOS='\\d+' MODEL='phases' ID='" + patch.getAttribute("ID") + "' CLASSES='2' "
                    + "PENDING='1' RESTORED='0' FIRSTID='\\d+' LASTID='\\d+'></PATCH></DYPER_REPLY>\n"), in.out());
            phase(t, 2);
            Run out = ctl("--xml", Long.toString(pid), "INSTRUMENT", "<MODEL NAME='phases' INSERT='FALSE'/>");
            assertEquals(0, out.exit(), out.err());
            assertTrue(out.out().contains("MODEL='phases' CLASSES='3'/>"), out.out());
            phase(t, 3);
            assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
            assertEquals(PhaseFacts.output(3, true), t.lines());
            service.join(10_000);
            assertTrue(!service.isAlive() && !Files.exists(entry), "patchd stops when its process ends");
        } finally {
            t.close();
        }
        ExitReport r = ExitReport.of(report);
        assertEquals(PhaseFacts.CALLS, r.value("TIMING", PhaseFacts.WORK, "COUNT"));
        assertEquals(PhaseFacts.LATER_CALLS, r.value("COUNTS", PhaseFacts.TWICE, "COUNT"));
        assertEquals(PhaseFacts.PLUGIN_CALLS, r.value("SAMPLED_TIMING", PhaseFacts.PLUGIN, "COUNT"));
    }

    /**
     * Questions put to a running program ({@code dyper ctl PID ask}, docs/questions.md): compiled against its class
     * path, inserted with their table in one INSTRUMENT, answered exactly for the phase they were in; a question with
     * a mistake is refused naming its column, and changes nothing.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(Jdk.class)
    void questionsAskedOfARunningProgramAreAnsweredExactly(Jdk jdk) throws Exception {
        Path report = dir.resolve("report.xml");
        Running t = start(jdk, Start.ATTACH, report);
        try {
            phase(t, 1);
            long pid = t.process().pid();
            assertEquals(0, ctl("attach", Long.toString(pid)).exit());
            Run none = ctl(Long.toString(pid), "answers");
            assertEquals("No question was asked in process " + pid + " (dyper ctl " + pid + " ask 'QUESTION', or "
                    + "dyper run --ask).\n", none.out(), none.err());
            Run typo = ctl(Long.toString(pid), "ask", "count of org.dyper.samples.phases.Worker.wrok", "--cache",
                    shared.resolve("cache").toString());
            assertEquals(3, typo.exit(), typo.err());
            assertTrue(typo.err().startsWith("dyper: error: question #1, column 42: org.dyper.samples.phases.Worker "
                    + "has no method 'wrok' (it has: total, weigh, work)\n"), typo.err());
            String calls = "count of calls to org.dyper.samples.phases.Worker.weigh from "
                    + "org.dyper.samples.phases.Worker.work";
            String sum = "sum arg1 of org.dyper.samples.phases.Worker.work";
            Run ask = ctl(Long.toString(pid), "ask", calls, sum, "--inline", "--cache",
                    shared.resolve("cache").toString());
            assertEquals(0, ask.exit(), ask.err());
            assertTrue(ask.out().startsWith("dyper: 2 question(s) asked in process " + pid + ": 2 site(s), 1 class(es) "
                    + "patched now, 0 when they load (model 'dyper-ask')"), ask.out());
            phase(t, 2);
            Run xml = ctl("--xml", Long.toString(pid), "answers");
            assertEquals(0, xml.exit(), xml.err());
            org.w3c.dom.Element answers = MonitorEndToEndTest.xml(xml.out());
            List<org.w3c.dom.Element> questions = MonitorEndToEndTest.all(answers, "QUESTION");
            assertEquals(List.of(calls, sum), questions.stream().map(q -> q.getAttribute("TEXT")).toList());
            org.w3c.dom.Element counted = MonitorEndToEndTest.all(questions.get(0), "GROUP").get(0);
            assertEquals(List.of("(all)", "3000", "1"), List.of(counted.getAttribute("NAME"),
                    counted.getAttribute("COUNT"), questions.get(0).getAttribute("SITES")));
            org.w3c.dom.Element summed = MonitorEndToEndTest.all(questions.get(1), "GROUP").get(0);
            // phase 2 calls work(i + 2) for i = 0..2999
            assertEquals(List.of("3000", "4504500", "2", "3001"), List.of(summed.getAttribute("COUNT"),
                    summed.getAttribute("SUM"), summed.getAttribute("MIN"), summed.getAttribute("MAX")));
            Run text = ctl(Long.toString(pid), "answers");
            assertTrue(text.out().startsWith("Answers (checks: events whose conditions were tested; records: events "
                    + "recorded)\n\n  " + calls + "\n  1 site patched; 3,000 checks, 3,000 records\n"), text.out());
            assertEquals(0, ctl(Long.toString(pid), "uninstrument").exit());
            phase(t, 3);
            // SECONDS (the span a rate is counted over) goes on; the counts must not
            assertEquals(xml.out().replaceAll(" SECONDS=.[0-9.]+.", ""), ctl("--xml", Long.toString(pid), "answers")
                    .out().replaceAll("\\s+$", "\n").replaceAll(" SECONDS=.[0-9.]+.", ""),
                    "nothing counted once the questions were taken out");
            assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
            assertEquals(PhaseFacts.output(3, true), t.lines());
        } finally {
            t.close();
        }
    }

    /** After a refusal: nothing is instrumented, the program runs on as before, and nothing was measured. */
    private void unchanged(Running t, long pid, Path report) throws Exception {
        assertTrue(ctl(Long.toString(pid), "instrumented").out().startsWith("No model was instrumented"));
        phase(t, 2);
        assertEquals(0, t.stop(MonitorEndToEndTest.STOP), t.stderr());
        assertEquals(PhaseFacts.output(2, true), t.lines());
        if (Files.exists(report)) {
            ExitReport r = ExitReport.of(report);
            assertTrue(r.sections().getOrDefault("TIMING", Map.of()).isEmpty(), r.sections().toString());
        }
    }

    private static List<String> runtime() {
        return org.dyper.patch.build.Weaver.runtimeClasspath().stream().map(Path::toString).toList();
    }
}
