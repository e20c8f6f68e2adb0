package org.dyper.cli.report;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.Waiter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.cli.Main;
import org.dyper.patch.build.Weaver;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.Skip;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code dyper report}: its inputs, outputs, file names, collapsed stacks, diffs, live processes and errors. */
class ReportCommandTest {
    @TempDir
    static Path dir;
    static Path bank;

    @BeforeAll
    static void fixture() throws Exception {
        bank = ReportPageBrowserTest.fixture(dir);
    }

    record Result(int code, String out, String err) {}

    static Result dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] resolved = Arrays.stream(args).map(a -> a.replace("{dir}", dir.toString())
                .replace("{bank}", bank.toString())).toArray(String[]::new);
        int code = Main.run(resolved, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8), Map.of());
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    static Stream<Arguments> usageErrors() {
        String see = " (see dyper report --help)\n";
        return Stream.of(
                Arguments.of("report", "give a report file (REPORT.xml, or - for standard input), or --pid PID"),
                Arguments.of("report {bank} {bank}", "one report at a time (got 2; --diff compares two)"),
                Arguments.of("report --diff {bank}", "--diff takes two reports, BEFORE.xml AFTER.xml; got 1"),
                Arguments.of("report --diff --collapsed {bank} {bank}", "--diff and --collapsed do not go together"),
                Arguments.of("report --view LOCK {bank}", "--view goes with --collapsed"),
                Arguments.of("report --thread main {bank}", "--thread goes with --collapsed"),
                Arguments.of("report --dir {dir} {bank}", "--dir goes with --pid or --all"),
                Arguments.of("report --main acme.Main {bank}", "--main goes with --all"),
                Arguments.of("report --all --pid 12", "--all makes one page of every JVM; it does not go with --pid"),
                Arguments.of("report --all {bank}", "--all takes no report file; got '{bank}'"),
                Arguments.of("report --all --timeout 0", "--timeout takes a positive number of milliseconds, not '0'"),
                Arguments.of("report --pid 12 {bank}", "--pid takes no report file; got '{bank}'"),
                Arguments.of("report --pid x", "--pid 'x' is not a process id (try dyper ctl who)"),
                Arguments.of("report --pid 3 --diff", "--diff compares two files; take them with dyper ctl --xml PID "
                        + "REPORT > FILE"),
                Arguments.of("report -", "reading standard input: say where to write with --out FILE"),
                Arguments.of("report {bank} --out {bank}", "--out {bank} is an input report: write to another file"),
                Arguments.of("report --diff {bank} {bank} --whatif p.xml", "--whatif adds a causal profile to one "
                        + "report's page; it does not go with --diff"))
                .map(a -> Arguments.of(a.get()[0], "dyper: error: report: " + a.get()[1] + see));
    }

    @ParameterizedTest(name = "dyper {0}")
    @MethodSource("usageErrors")
    void usageErrorsNameTheOption(String args, String message) {
        System.setIn(new java.io.ByteArrayInputStream("<DYPER_REPORT/>".getBytes(UTF_8)));
        Result r = dyper(args.split(" "));
        assertEquals(new Result(2, "", message.replace("{bank}", bank.toString()).replace("{dir}", dir.toString())), r);
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(new Result(2, "", "dyper: error: report: Unrecognized option: --flame (see dyper report --help)\n"),
                dyper("report", "--flame", "{bank}"));
    }

    @Test
    void pageGoesBesideTheInputAndSaysWhatItHolds() throws Exception {
        Result r = dyper("report", "{bank}");
        Path html = dir.resolve("bank-report.html");
        assertEquals(new Result(0, "dyper: wrote " + html + " (CPU, WALL, LOCK, ALLOC stacks, 42 nodes)\n", ""), r);
        String page = Files.readString(html, UTF_8);
        assertTrue(page.contains("<title>Dyper report: " + bank + "</title>"), page.substring(0, 400));
        assertFalse(page.matches("(?s).*(src|href)=['\"]?https?:.*"), "nothing is fetched from the network");

        Path titled = dir.resolve("out/titled.html");
        assertEquals(0, dyper("report", "{bank}", "-o", titled.toString(), "--title", "Bank <demo>").code());
        assertTrue(Files.readString(titled, UTF_8).contains("<title>Bank &lt;demo&gt;</title>"));
    }

    /** A causal profile (dyper whatif --xml): a page of its own, or a section of a report's page. */
    @Test
    void aCausalProfileGetsItsOwnPageOrASectionOfTheReport() throws Exception {
        Path profile = Files.writeString(dir.resolve("profile.xml"), """
                <?xml version='1.0' encoding='UTF-8'?>
                <WHATIF_PROFILE PID='4242' PROGRESS='a.B.emit(long)' METRIC='THROUGHPUT' WINDOWS='30' MILLIS='6000'
                    DELAY_NS='1' PARKS='1' PARKED_NS='1' CREDITED_NS='0' LOOP_PARKS='0' INTERRUPTED='false'
                    BASELINE_RATE='400.0000' BASELINE_WINDOWS='10'>
                  <CANDIDATE RANK='1' NAME='a.B.parse(long)' CPU_SELF='' CPU_TOTAL='' DELAYED='true'>
                    <POINT SPEEDUP='50' PREDICTED='0.4500' LOW='0.4000' HIGH='0.5000' WINDOWS='10' VISITS='900'/>
                  </CANDIDATE>
                  <CANDIDATE RANK='2' NAME='a.B.render(long)' CPU_SELF='0.2500' CPU_TOTAL='0.3000' DELAYED='true'>
                    <POINT SPEEDUP='50' PREDICTED='0.0100' LOW='-0.0500' HIGH='0.0700' WINDOWS='10' VISITS='800'/>
                  </CANDIDATE>
                </WHATIF_PROFILE>
                """, UTF_8);
        Path page = dir.resolve("profile.html");
        assertEquals(new Result(0, "dyper: wrote " + page + " (a causal profile of 2 candidate(s))\n", ""),
                dyper("report", profile.toString()));
        String html = Files.readString(page, UTF_8);
        assertEquals(2, html.split("<figure>", -1).length - 1, html);
        assertTrue(html.contains("<td>a.B.render(long)</td><td>+1.0 [-5.0,+7.0]</td>"), html);

        Path joined = dir.resolve("joined.html");
        Result r = dyper("report", "{bank}", "--whatif", profile.toString(), "-o", joined.toString());
        assertEquals(new Result(0, "dyper: wrote " + joined + " (CPU, WALL, LOCK, ALLOC stacks, 42 nodes; and the "
                + "causal profile of 2 candidate(s))\n", ""), r);
        String both = Files.readString(joined, UTF_8);
        int section = both.indexOf("<section id='whatif'");
        assertTrue(section > 0 && section < both.lastIndexOf("</body>"), both.substring(Math.max(0, section)));
        assertTrue(both.contains("<h2>Causal profile of process 4242 (dyper whatif)</h2>"));
        assertTrue(both.contains("1. a.B.parse(long)</figcaption>"));

        Path broken = Files.writeString(dir.resolve("broken.xml"), "<WHATIF_PROFILE PID='x'/>", UTF_8);
        assertEquals(new Result(3, "", "dyper: error: " + broken + ": WHATIF_PROFILE: PID is a whole number, not "
                + "'x'\n"), dyper("report", broken.toString()));
    }

    @Test
    void collapsedStacksGoToStandardOutput() {
        Result r = dyper("report", "--collapsed", "{bank}");
        String w = "org.dyper.samples.bank.BankApp$Worker.run";
        String b = "org.dyper.samples.bank.";
        assertEquals(new Result(0, """
                {w};java.util.Random.nextInt 50
                {w};{b}Bank.audit 100
                {w};{b}Bank.audit;{b}Bank.mix 1044
                {w};{b}Bank.transfer 60
                {w};{b}Bank.transfer;org.dyper.runtime.Counting.count 16
                {w};{b}Bank.transfer;org.dyper.runtime.Timing.exit 40
                {w};{b}Bank.transfer;{b}Account.deposit 90
                {w};{b}Bank.transfer;{b}Account.withdraw 120
                {w};{b}Bank.transfer;{b}Bank.fee 30
                {b}BankApp.main;{b}Bank.<init>;{b}Account.<init> 100
                """.replace("{w}", w).replace("{b}", b), ""), r);
        assertEquals(1650, r.out().lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum());
        assertEquals(new Result(0, w + ";" + b + "Bank.transfer;[lock " + b + "Account] 52000000\n" + w + ";" + b
                + "Bank.audit;[lock " + b + "Account] 8000000\n", ""), sortedByName(dyper("report", "--collapsed",
                "--view", "lock", "{bank}")));
        assertEquals(new Result(0, b + "BankApp.main;" + b + "Bank.<init>;" + b + "Account.<init> 100\n", ""),
                dyper("report", "--collapsed", "--thread", "main", "{bank}"));
        Path file = dir.resolve("cpu.collapsed");
        assertEquals(new Result(0, "dyper: wrote " + file + " (10 stacks of the CPU view)\n", ""),
                dyper("report", "--collapsed", "{bank}", "--out", file.toString()));
    }

    private static Result sortedByName(Result r) {
        List<String> lines = new ArrayList<>(r.out().lines().toList());
        lines.sort((x, y) -> y.compareTo(x));
        return new Result(r.code(), String.join("\n", lines) + "\n", r.err());
    }

    @Test
    void collapsedOfWhatIsNotThereSaysWhatIs() {
        assertEquals(new Result(3, "", "dyper: error: " + bank + " has no GPU view (it has: CPU, WALL, LOCK, ALLOC)\n"),
                dyper("report", "--collapsed", "--view", "GPU", "{bank}"));
        assertEquals(new Result(3, "", "dyper: error: " + bank + ": the WALL view has no thread 'main' (threads: none "
                + "listed)\n"), dyper("report", "--collapsed", "--view", "WALL", "--thread", "main", "{bank}"));
    }

    @Test
    void badInputIsReportedWithFileAndLineAndNothingIsWritten() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.xml"), Files.readString(bank, UTF_8)
                .replace("<PATH WEIGHT='100'>org.dyper.samples.bank.BankApp$Worker.run;org.dyper.samples.bank.Bank.audit"
                        + "</PATH>", "<PATH WEIGHT='-100'>org.dyper.samples.bank.BankApp$Worker.run;;x</PATH>"));
        Path out = dir.resolve("bad.html");
        Result r = dyper("report", bad.toString());
        String empty = ": PATH: frame 2 of 3 is empty in 'org.dyper.samples.bank.BankApp$Worker.run;;x'\n";
        assertEquals(new Result(3, "", "dyper: error: " + bad + ":65:29: PATH: WEIGHT='-100' is not positive\n"
                + "dyper: error: " + bad + ":65:29" + empty
                + "dyper: error: " + bad + ":85:29: PATH: WEIGHT='-100' is not positive\n"
                + "dyper: error: " + bad + ":85:29" + empty
                + "dyper: 4 problem(s); nothing was written\n"), r, "the same path in the CPU and WALL views");
        assertFalse(Files.exists(out));
        assertEquals(new Result(5, "", "dyper: error: " + dir.resolve("none.xml") + ": no such file\n"),
                dyper("report", dir.resolve("none.xml").toString()));
        assertEquals(new Result(5, "", "dyper: error: " + dir + ": is a folder, not a report file\n"),
                dyper("report", dir.toString()));
    }

    @Test
    void diffPageGoesBesideTheAfterReport() throws Exception {
        Path after = Files.copy(bank, dir.resolve("after.xml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Result r = dyper("report", "--diff", "{bank}", after.toString());
        Path html = dir.resolve("after.diff.html");
        assertEquals(new Result(0, "dyper: wrote " + html + " (CPU, WALL, LOCK, ALLOC stacks, 42 nodes)\n", ""), r);
        String page = Files.readString(html, UTF_8);
        assertTrue(page.contains("\"mode\":\"diff\""));
        assertTrue(page.contains("<title>Dyper diff: " + bank + " → " + after + "</title>"));
    }

    @Test
    void standardInputIsAReportToo() throws Exception {
        System.setIn(Files.newInputStream(bank));
        Path out = dir.resolve("stdin.html");
        Result r = dyper("report", "-", "--out", out.toString());
        assertEquals(new Result(0, "dyper: wrote " + out + " (CPU, WALL, LOCK, ALLOC stacks, 42 nodes)\n", ""), r);
    }

    @Test
    void pidOfAProcessThatIsNotThere() {
        Result r = dyper("report", "--pid", "999999999", "--dir", dir.resolve("registry").toString());
        assertEquals(7, r.code(), r.toString());
        assertTrue(r.err().startsWith("dyper: error: no monitored process 999999999"), r.err());
    }

    /** A real process with the DYPER monitor: its REPORT and WHORU become the page. */
    @Test
    void pidTakesTheReportOfARunningProcess() throws Exception {
        Path runtime = Weaver.runtimeClasspath().get(0);
        Skip.unless(runtime.toString().endsWith(".jar"), "the dyper-runtime jar is not built (" + runtime
                + "): run the tests with mvn verify");
        Path registry = dir.resolve("registry");
        Path classes = Path.of(Waiter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (Running p = Processes.start(List.of(Processes.currentJava().toString(), "-javaagent:" + runtime
                + "=dir=" + registry, "-cp", classes.toString(), Waiter.class.getName()))) {
            assertEquals("ready", p.line(0, Duration.ofSeconds(60)), p.stderr());
            Path out = dir.resolve("live.html");
            Result r = dyper("report", "--pid", Long.toString(p.pid()), "--dir", registry.toString(), "--out",
                    out.toString());
            assertEquals(0, r.code(), r.toString());
            assertTrue(r.out().startsWith("dyper: wrote " + out + " ("), r.out());
            String page = Files.readString(out, UTF_8);
            assertTrue(page.contains("\"label\":\"process " + p.pid() + " (REPORT at "), "labelled by the process");
            assertTrue(page.contains("\"root\":{\"t\":\"DYPER_REPLY\""), "the reply as it came");
            assertTrue(page.contains("\"t\":\"MONITOR_REPORT\""));
            assertTrue(page.contains("\"agents\":[\"-javaagent:" + runtime + "=dir=" + registry + "\"]"),
                    "WHORU's agents: " + page.substring(page.indexOf("\"process\":"), page.indexOf("\"process\":") + 300));
            Path defaultName = Path.of("dyper-" + p.pid() + ".html");
            assertFalse(Files.exists(defaultName), "--out was given");

            // what dyper ctl --xml prints is a report file too
            Result ctl = dyper("ctl", "--xml", "--dir", registry.toString(), Long.toString(p.pid()), "REPORT");
            assertEquals(0, ctl.code(), ctl.toString());
            Path saved = Files.writeString(dir.resolve("ctl-report.xml"), ctl.out(), UTF_8);
            Result fromFile = dyper("report", saved.toString());
            assertEquals(0, fromFile.code(), fromFile.toString());
            assertTrue(fromFile.out().startsWith("dyper: wrote " + dir.resolve("ctl-report.html") + " ("), fromFile.out());
            assertTrue(Files.readString(dir.resolve("ctl-report.html"), UTF_8).contains("\"root\":{\"t\":\"DYPER_REPLY\""));
            assertEquals(0, p.stop(Duration.ofSeconds(30)), p.stderr());
        }
    }

    @Test
    void runHtmlAddsThePropertyForTheProgramsRuntime() {
        List<String> command = List.of("/usr/bin/java", "-javaagent:x.jar", "-cp", "app.jar", "Main");
        assertEquals(List.of("/usr/bin/java", "-Ddyper.report.html=" + Path.of("r.html").toAbsolutePath(),
                "-javaagent:x.jar", "-cp", "app.jar", "Main"), ReportCommand.withHtml(command, "r.html"));
        assertEquals(command, ReportCommand.withHtml(command, null));
    }
}
