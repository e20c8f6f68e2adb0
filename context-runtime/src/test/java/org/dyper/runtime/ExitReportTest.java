package org.dyper.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dyper.testsupport.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report written by the shutdown hook of a separate JVM, configured only by system properties. */
class ExitReportTest {
    @TempDir
    Path dir;

    record Run(int exitCode, String stdout, String stderr) {
    }

    private Run run(List<String> jvmOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Processes.currentJava().toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(location(Dyper.class) + File.pathSeparator + location(ExitReportMain.class));
        command.add(ExitReportMain.class.getName());
        command.addAll(List.of(args));
        Processes.Result r = Processes.run(command, Duration.ofSeconds(60));
        return new Run(r.exit(), r.out(), r.err());
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void reportFilesAtExitAndOnlyJdkClassesLoaded() throws Exception {
        Path text = dir.resolve("report.txt");
        Path xml = dir.resolve("report.xml");
        Path classLog = dir.resolve("classes.log");
        Run run = run(List.of("-Ddyper.report=" + text, "-Ddyper.report.xml=" + xml,
                "-Xlog:class+load=info:file=" + classLog));
        assertEquals(0, run.exitCode(), run.stderr());
        assertEquals("", run.stdout());
        assertEquals("dyper: hook failed at org.x.Bank.audit(): java.lang.IllegalStateException: boom "
                + "(further failures are counted)" + System.lineSeparator(), run.stderr());

        String report = Files.readString(text, StandardCharsets.UTF_8);
        assertTrue(report.startsWith("Dyper report — pid "), report);
        assertTrue(report.contains("  org.x.Bank.transfer(int,int,long)  3,000\n"), report);
        String x = Files.readString(xml, StandardCharsets.UTF_8);
        assertTrue(x.contains("<SITE ID='1' NAME='org.x.Bank.transfer(int,int,long)' COUNT='3000'/>"), x);
        assertTrue(x.contains("<SITE ID='2' NAME='org.x.Bank.audit()' COUNT='3000' SAMPLES='"), x);
        assertTrue(x.contains("<FAILURES TOTAL='1'>"), x);

        List<String> foreign = new ArrayList<>();
        List<String> loaded = new ArrayList<>();
        for (String line : Files.readAllLines(classLog)) {
            int at = line.indexOf("[class,load] ");
            if (at < 0) {
                continue;
            }
            String name = line.substring(at + "[class,load] ".length()).split(" ", 2)[0];
            loaded.add(name);
            if (!name.matches("(java|javax|jdk|sun|com\\.sun)\\..*") && !name.startsWith("org.dyper.runtime.")) {
                foreign.add(line);
            }
        }
        assertTrue(loaded.contains("org.dyper.runtime.internal.ReportHook"), "the class log was read");
        assertEquals(List.of(), foreign, "classes loaded from outside the JDK and Dyper's runtime");
    }

    @Test
    void aRunThatRecordedNothingEndsQuietlyUnlessAReportWasAskedFor() throws Exception {
        // Dyper was loaded (as by patches that call only the user's own modes) but recorded nothing
        Run quiet = run(List.of(), "empty");
        assertEquals(new Run(0, "", ""), quiet);
        Run asked = run(List.of("-Ddyper.report=stderr"), "empty");
        assertEquals(0, asked.exitCode());
        assertTrue(asked.stderr().startsWith("Dyper report — pid "), asked.stderr());
        assertTrue(asked.stderr().contains("No events were recorded."), asked.stderr());
        assertEquals("", asked.stdout());
        Path xml = dir.resolve("empty.xml");
        assertEquals(new Run(0, "", ""), run(List.of("-Ddyper.report.xml=" + xml), "empty"));
        assertTrue(Files.readString(xml).startsWith("<DYPER_REPORT VERSION='1'"), "an XML report asked for is written");
    }

    @Test
    void reportNoneAndDisabledPrintNothing() throws Exception {
        Run run = run(List.of("-Ddyper.report=none"), "empty");
        assertEquals("", run.stderr());
        assertEquals("", run.stdout());

        Run disabled = run(List.of("-Ddyper.enabled=false", "-Ddyper.report=stdout"));
        assertTrue(disabled.stdout().contains("No events were recorded."), disabled.stdout());
        assertFalse(disabled.stdout().contains("org.x.Bank.transfer"), disabled.stdout());
    }

    @Test
    void sampleEveryOneIsExact() throws Exception {
        Path xml = dir.resolve("report.xml");
        run(List.of("-Ddyper.report=none", "-Ddyper.report.xml=" + xml, "-Ddyper.sample.every=1"));
        String x = Files.readString(xml, StandardCharsets.UTF_8);
        assertTrue(x.contains("<SAMPLED_TIMING EVERY='1'>"), x);
        assertTrue(x.contains("COUNT='3000' SAMPLES='3000'"), x);
        assertTrue(x.contains("ERROR_NS='0' EXACT='true'/>"), x);
    }

    /** -Ddyper.report.html: the runtime renders the page itself (no other jar on the class path), with no XML file. */
    @Test
    void htmlPageAtExitFromTheRuntimeAlone() throws Exception {
        Path html = dir.resolve("out/report.html");
        Run run = run(List.of("-Ddyper.report=none", "-Ddyper.report.html=" + html));
        assertEquals(0, run.exitCode(), run.stderr());
        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertTrue(page.startsWith("<!DOCTYPE html>"), page.substring(0, Math.min(200, page.length())));
        assertTrue(page.contains("<title>Dyper report: " + ExitReportMain.class.getName() + " (pid "), page);
        assertTrue(page.contains("{\"t\":\"SITE\",\"a\":{\"ID\":\"1\",\"NAME\":\"org.x.Bank.transfer(int,int,long)\","
                + "\"COUNT\":\"3000\"}}"), page);
        assertTrue(page.contains("\"process\":{\"start\":"), "what the page says of the process: " + page);
        try (var files = Files.list(html.getParent())) {
            assertEquals(List.of(html), files.toList(), "no temporary file left beside it");
        }
    }
}
