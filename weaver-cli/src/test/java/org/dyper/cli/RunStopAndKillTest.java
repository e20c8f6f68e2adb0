package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stopping {@code dyper run} (a signal, a kill) ends the program with its report, and what a killed weave or run
 * left behind is removed by the next one.
 */
class RunStopAndKillTest extends CliFixture {
    /** One jar of {@code Sleeper} for the tests that stop it, so they share one cache entry (woven once). */
    private static synchronized Path sleeperJar() throws Exception {
        Path jar = dir.resolve("sleeper.jar");
        return Files.exists(jar) ? jar : fixtureJar(jar, "com.acme.cli.Sleeper", List.of("Sleeper", "Tally"));
    }

    /** Whether this JVM was started with {@code signal} ignored (a background job of a shell that has no job control). */
    private static boolean ignored(int signal) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << (signal - 1))) != 0;
            }
        }
        return false;
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalToDyperRunStopsTheProgramWhichEndsWithItsReportBeforeDyperRunReturnsItsExitCode(String signal)
            throws Exception {
        Skip.unless(!(signal.equals("INT") && ignored(2)),
                "SIGINT is ignored in this JVM (started in the background), so its children cannot get it either");
        Path app = sleeperJar();
        Path report = dir.resolve("sleeper-" + signal + ".xml");
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--model", model.toString(),
                "--cache", dir.resolve("sleeper-cache").toString(), "--no-monitor", "--report", "none", "--xml",
                report.toString(), "--", "-jar", app.toString()));
        try (Running cli = Processes.start(cmd)) {
            assertEquals("sleeper: started", cli.line(0, Duration.ofSeconds(60)));
            List<ProcessHandle> programs = cli.process().children().toList();
            assertEquals(1, programs.size(), "dyper run starts the program as its child");
            Processes.signal(cli.pid(), signal);
            int exit = cli.awaitExit(Duration.ofSeconds(60));
            assertFalse(programs.get(0).isAlive(), "dyper run returned while the program still ran");
            assertEquals("sleeper: stopped", cli.line(1, Duration.ofSeconds(10)),
                    "the program's shutdown hooks ran before dyper run returned");
            assertEquals(signal.equals("TERM") ? 128 + 15 : 128 + 2, exit, "the program's exit code");
        }
        assertEquals(Map.of(ADD, "3"), counts(report), "the report was written before dyper run returned");
    }

    @Test
    void whenDyperRunIsKilledTheMonitorEndsTheProgramWhichStillWritesItsReport() throws Exception {
        Path app = sleeperJar();
        Path report = dir.resolve("sleeper-kill.xml");
        Path registry = Files.createDirectories(dir.resolve("sleeper-registry"));
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--model", model.toString(),
                "--cache", dir.resolve("sleeper-cache").toString(), "--monitor", "dir=" + registry, "--report", "none",
                "--xml", report.toString(), "--", "-jar", app.toString()));
        // the program's output goes to a file: a pipe would close with dyper run
        Path out = dir.resolve("sleeper-kill.out");
        Process cli = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(dir.resolve("sleeper-kill.err").toFile()).start();
        Await.until("the program's first line in " + out, () -> Files.readString(out),
                "sleeper: started\n"::equals, Await.MINUTE);
        ProcessHandle program = cli.children().findFirst().orElseThrow();
        try {
            // SIGKILL: dyper run cannot pass it on
            Processes.signal(cli.pid(), "KILL");
            Processes.awaitExit(cli, Duration.ofSeconds(60), "the killed dyper run");
            program.onExit().get(60, TimeUnit.SECONDS);
        } finally {
            program.destroyForcibly();  // if the test failed: no orphan left running
        }
        assertEquals("sleeper: started\nsleeper: stopped\n", Files.readString(out),
                "the program ended normally: its shutdown hooks ran");
        assertEquals(Map.of(ADD, "3"), counts(report));
        assertTrue(Files.readString(dir.resolve("sleeper-kill.err")).contains("dyper: the launcher of this program "
                + "(process " + cli.pid() + ") is gone: ending the program as SIGTERM would\n"),
                Files.readString(dir.resolve("sleeper-kill.err")));
    }

    /** Entries of {@code folder} whose names contain {@code part}. */
    private static List<String> entries(Path folder, String part) throws IOException {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(part)).sorted().toList();
        }
    }

    /** Starts the CLI with {@code java.io.tmpdir} = {@code tmp}, and kills it (SIGKILL) once {@code made} exists. */
    private static void killWhenItMade(Path tmp, List<String> args, java.util.function.LongFunction<Boolean> made)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(),
                "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Await.until("the CLI's temporary files (made before it ends)", () -> made.apply(p.pid()) || !p.isAlive(),
                Await.MINUTE);
        assertTrue(made.apply(p.pid()), "the CLI made no temporary files before it ended");
        Processes.signal(p.pid(), "KILL");
        Processes.awaitExit(p, Duration.ofSeconds(30), "the killed CLI");
    }

    @Test
    void whatAKilledWeaveOrRunLeftBehindIsRemovedByTheNextOne() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("killed-tmp"));
        Path out = Files.createDirectories(dir.resolve("killed-out"));
        Path app = dir.resolve("killed-app.jar");
        jar(app, "com.acme.cli.App", Map.of());
        List<String> weave = List.of("weave", "--model", model.toString(), "--in", app.toString(), "--out",
                out.resolve("woven.jar").toString());
        killWhenItMade(tmp, weave, pid -> {
            try {
                return !entries(tmp, "dyper-src-p" + pid + "-").isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        assertTrue(!entries(tmp, "dyper-").isEmpty(), "the kill left temporary files");

        List<String> again = new ArrayList<>(List.of("-Djava.io.tmpdir=" + tmp));
        again.addAll(weave);
        Child woven = java(withCli(again));
        assertEquals(0, woven.code(), woven.err());
        assertEquals(List.of(), entries(tmp, ""), "the next weave removed them, and its own");
        assertEquals(List.of("woven.jar"), entries(out, ""));

        Path cache = dir.resolve("killed-cache");
        List<String> run = List.of("run", "--model", model.toString(), "--cache", cache.toString(), "--no-monitor",
                "--report", "none", "--", "-jar", app.toString());
        killWhenItMade(tmp, run, pid -> {
            try {
                return Files.isDirectory(cache) && !entries(cache, ".tmp-p" + pid + "-").isEmpty();
            } catch (IOException e) {
                return false;
            }
        });
        assertEquals(1, entries(cache, ".tmp-p").size(), "the kill left a cache entry half made");
        List<String> runAgain = new ArrayList<>(List.of("-Djava.io.tmpdir=" + tmp));
        runAgain.addAll(run);
        Child ran = java(withCli(runAgain));
        assertEquals(new Child(0, "total 15\n", ran.err()), ran);
        assertEquals(List.of(), entries(cache, ".tmp"), "the next run removed the half-made entry");
        assertEquals(1, entries(cache, "").size(), "one complete entry: " + entries(cache, ""));
        assertEquals(List.of(), entries(tmp, ""));
    }
}
