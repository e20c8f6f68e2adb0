package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.dyper.patch.launch.LaunchWeaving;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code dyper run}: the program's output and exit code pass through, the aspects are cached, every way to weave. */
class RunCommandTest extends CliFixture {
    private static final Pattern ASPECTS = Pattern.compile(
            "^dyper: woven classes and aspects (made in|reused from) (\\S+)$", Pattern.MULTILINE);
    private static final String FIRST_RUN = "(first run with these inputs; later runs reuse it) ...";

    @Test
    void runPassesOutputAndExitCodeThroughAndCachesTheAspects() throws Exception {
        Path app = dir.resolve("run-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path runModel = Files.copy(model, dir.resolve("run-model.xml"));
        Path cache = dir.resolve("cache");
        Path report = dir.resolve("run-report.xml");
        List<String> args = List.of("run", "--model", runModel.toString(), "--cache", cache.toString(), "--verbose",
                "--report", "none", "--xml", report.toString(), "--", "-jar", app.toString(), "a", "b");

        Child first = cli(args);
        assertEquals(7, first.code(), first.err());
        assertEquals("total 15\nargs a,b\n", first.out());
        assertEquals(Map.of(ADD, "5"), counts(report));
        Matcher compiled = ASPECTS.matcher(first.err());
        assertTrue(compiled.find(), first.err());
        assertEquals("made in", compiled.group(1));
        assertTrue(first.err().contains(FIRST_RUN), first.err());
        assertTrue(Files.isRegularFile(Path.of(compiled.group(2), LaunchWeaving.PREWOVEN)));
        assertTrue(first.err().lines().noneMatch(l -> l.contains("aspectjweaver")), "no AspectJ weaver agent: "
                + first.err());

        Files.delete(report);
        Child second = cli(args);
        assertEquals(new Child(7, "total 15\nargs a,b\n", second.err()), second);
        Matcher reused = ASPECTS.matcher(second.err());
        assertTrue(reused.find(), second.err());
        assertEquals(List.of("reused from", compiled.group(2)), List.of(reused.group(1), reused.group(2)));
        assertFalse(second.err().contains(FIRST_RUN), second.err());
        assertEquals(Map.of(ADD, "5"), counts(report));

        Files.writeString(runModel, Files.readString(runModel) + "<!-- changed -->\n");
        Child third = cli(args.subList(0, args.size() - 2));  // no program arguments: exit 0
        assertEquals(new Child(0, "total 15\n", third.err()), third);
        Matcher again = ASPECTS.matcher(third.err());
        assertTrue(again.find(), third.err());
        assertEquals("made in", again.group(1));
        assertNotEquals(compiled.group(2), again.group(2));
    }

    /**
     * From a multi-release jar the JVM loads the class of its release: that is the one woven ahead (a base entry would
     * not match what loads, and the class would run unpatched).
     */
    @Test
    void runWeavesTheClassAMultiReleaseJarGivesTheRunningJdk() throws Exception {
        Path app = multiReleaseJar(dir.resolve("mr-app.jar"));
        Path report = dir.resolve("mr-report.xml");
        Child run = cli(List.of("run", "--model", model.toString(), "--cache", dir.resolve("mr-cache").toString(),
                "--no-monitor", "--report", "none", "--xml", report.toString(), "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertTrue(run.err().lines().noneMatch(l -> l.contains("is not the class Dyper prepared")), run.err());
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    /**
     * The weaver agent on a multi-release jar: the running JDK loads the versioned copy, which the replace agent would
     * not take for the class the plain way's calls were planned for; such classes keep AspectJ advice there.
     */
    @Test
    void runWithTheWeaverAgentCountsTheClassAMultiReleaseJarGivesTheRunningJdk() throws Exception {
        Path app = multiReleaseJar(dir.resolve("mr-agent-app.jar"));
        Path report = dir.resolve("mr-agent-report.xml");
        Child run = cli(List.of("run", "--weaver-agent", "--model", model.toString(), "--cache",
                dir.resolve("mr-agent-cache").toString(), "--no-monitor", "--report", "none", "--xml",
                report.toString(), "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertTrue(run.err().lines().noneMatch(l -> l.contains("is not the class Dyper prepared")), run.err());
        assertEquals(Map.of(ADD, "5"), counts(report));
    }

    @Test
    void runWithTheWeaverAgentWeavesAsClassesLoad() throws Exception {
        Path app = dir.resolve("agent-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path report = dir.resolve("agent-report.xml");
        Child run = cli(List.of("run", "--weaver-agent", "--model", model.toString(), "--cache",
                dir.resolve("agent-cache").toString(), "--verbose", "--no-monitor", "--report", "none", "--xml",
                report.toString(), "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertEquals(Map.of(ADD, "5"), counts(report));
        assertTrue(run.err().contains("dyper: aspects made in "), run.err());
        assertTrue(run.err().lines().anyMatch(l -> l.startsWith("dyper: ") && l.contains("-javaagent:")
                && l.contains("aspectjweaver")), "the command names the AspectJ weaver agent: " + run.err());
    }

    @Test
    void aProgramWhosePatchesCallOnlyTheUsersOwnModesEndsWithoutAnEmptyReport() throws Exception {
        Path app = dir.resolve("own-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path modes = write("own-modes.xml", """
                <DYPATCH>
                  <DYPATCH_MODE NAME='SPIN'>
                    <CODE TYPE='CALL' CLASS='java.lang.Thread' METHOD='onSpinWait' SIGNATURE='()'/>
                  </DYPATCH_MODE>
                </DYPATCH>
                """);
        Path own = write("own-model.xml", """
                <MODEL NAME='own'>
                  <FOR CLASS='com.acme.cli.Tally' METHOD='add'>
                    <PATCH WHAT='ENTER' MODE='SPIN'/>
                  </FOR>
                </MODEL>
                """);
        Child run = cli(List.of("run", "--model", own.toString(), "--modes", modes.toString(), "--cache",
                dir.resolve("own-cache").toString(), "--no-monitor", "--", "-jar", app.toString()));
        assertEquals(new Child(0, "total 15\n", run.err()), run);
        assertTrue(run.err().lines().allMatch(l -> l.startsWith("dyper: ")), "only Dyper's own progress lines, no "
                + "report that says nothing: " + run.err());
    }

    /** Without a model; {@code --report none} asks for nothing more, so it is taken and changes nothing. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"no report option", "--report none"})
    void runWithoutAModelRunsTheProgramUnderTheMonitorAlone(String report) throws Exception {
        Path app = dir.resolve("plain-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path registry = Files.createDirectories(dir.resolve("plain-registry-" + report.length()));
        List<String> args = new ArrayList<>(List.of("run", "--verbose", "--monitor", "dir=" + registry));
        if (report.startsWith("--")) {
            args.addAll(List.of(report.split(" ")));
        }
        args.addAll(List.of("--", "-jar", app.toString(), "x"));
        Child run = cli(args);
        assertEquals(7, run.code(), run.err());
        assertEquals("total 15\nargs x\n", run.out());
        List<String> err = run.err().lines().toList();
        assertEquals(2, err.size(), run.err());
        assertTrue(err.get(0).startsWith("dyper: ") && err.get(0).contains(" -javaagent:")
                && err.get(0).contains("dyper-runtime") && err.get(0).endsWith(" -jar " + app + " x"),
                "the java command, with the monitor agent and nothing else of Dyper: " + err.get(0));
        assertFalse(err.get(0).contains("replace=") || err.get(0).contains("aspectjweaver")
                || err.get(0).contains("-Ddyper."), err.get(0));
        Matcher started = Pattern.compile("dyper: no model, nothing patched: the program \\(process (\\d+)\\) runs "
                + "under the DYPER monitor alone; dyper ctl (\\d+) REPORT shows where its time goes").matcher(err.get(1));
        assertTrue(started.matches(), err.get(1));
        assertEquals(started.group(1), started.group(2));
        try (Stream<Path> entries = Files.list(registry)) {
            assertEquals(List.of(), entries.toList(), "the monitor ran and removed its entry at exit");
        }
    }

    @Test
    void runWithoutAModelWritesTheMonitorsReportAsXmlAndHtml() throws Exception {
        Path app = dir.resolve("plain-report-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        Path registry = Files.createDirectories(dir.resolve("plain-report-registry"));
        Path xml = dir.resolve("plain.xml");
        Path html = dir.resolve("plain.html");
        Child run = cli(List.of("run", "--xml", xml.toString(), "--html", html.toString(), "--monitor",
                "dir=" + registry, "--", "-jar", app.toString(), "x"));
        assertEquals(7, run.code(), run.err());
        assertEquals("total 15\nargs x\n", run.out());
        String report = Files.readString(xml);
        assertTrue(report.startsWith("<DYPER_REPORT ") && report.contains("<MONITOR_REPORT ")
                && report.contains(" MAIN='" + app + "'"), report);
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>") && page.contains("<title>Dyper report: " + app + " (pid "),
                "an HTML page of the monitor's report: " + page.substring(0, Math.min(400, page.length())));
    }
}
