package org.dyper.cli.ask;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.dyper.cli.Main;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

/**
 * {@code dyper run --ask} on planted programs whose answers are known exactly ({@code acme.BankMain}, and the seed's
 * experiment {@code acme.seed.SeedMain}), on JDK 17 and 25: for each question the number of patched sites (the
 * instrumentation is minimal), the checks and records, and every group's count and value. One run per program and
 * JDK asks all of its questions; each question is its own test case.
 */
class AskRunTest {
    /** A question and its exact answer: sites, checks, records, and per group "COUNT" or "COUNT SUM MIN MAX". */
    record Case(String program, String question, int sites, long checks, long records, Map<String, String> groups) {
        @Override
        public String toString() {
            return question;
        }
    }

    private static Map<String, String> groups(String... nameThenValue) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenValue.length; i += 2) {
            m.put(nameThenValue[i], nameThenValue[i + 1]);
        }
        return m;
    }

    static final String BANK = "acme.BankMain";
    static final String SEED = "acme.seed.SeedMain";
    static final String RISK = "acme.risk.RiskMain";
    static final String IAE = "java.lang.IllegalArgumentException";
    static final String ISE = "java.lang.IllegalStateException";
    static final String TRANSFER = "acme.Bank.transfer(int,int,long)";
    static final String[] WORKERS = {"w1", "1", "w2", "1", "w3", "1", "w4", "1", "w5", "1", "w6", "1"};

    static final List<Case> CASES = List.of(
            // the six examples
            new Case(BANK, "time of acme.Bank.transfer by caller", 3, 44, 44,
                    groups("acme.Bank.payroll()", "30", "acme.Bank.audit()", "8", "acme.Worker.run()", "6")),
            new Case(BANK, "count of calls to acme.Account.withdraw from acme.Bank.transfer where arg1 > 1000", 1, 44,
                    20, groups("(all)", "20")),
            // JDK methods: their calls, at the call sites in the program (the JDK's own code is never woven)
            new Case(BANK, "count of calls to java.lang.Thread.start from acme.BankMain.main by thread", 2, 7, 7,
                    groups("main", "7")),
            new Case(BANK, "count of calls to java.lang.Thread.join by caller", 2, 7, 7,
                    groups("acme.BankMain.main(java.lang.String[])", "7")),
            new Case(BANK, "time of acme.Bank.transfer during acme.Bank.audit by thread", 2, 44, 8,
                    groups("auditor", "8")),
            new Case(BANK, "max arg2 of acme.Bank.transfer by thread top 5", 1, 44, 44,
                    groups("auditor", "8 240 30 30", "main", "30 135 0 9", "w6", "1 6 6 6", "w5", "1 5 5 5", "w4",
                            "1 4 4 4", "(others)", "3 6 1 3")),
            new Case(BANK, "count of new acme.Order by method", 2, 46, 46,
                    groups(TRANSFER, "44", "acme.Bank.audit()", "2")),
            new Case(BANK, "wait of lock in acme.Bank.transfer by thread", 1, 44, 44,
                    groups(Stream.concat(Stream.of("auditor", "8", "main", "30"), Stream.of(WORKERS))
                            .toArray(String[]::new))),
            new Case(BANK, "hold of lock in acme.Bank.transfer by thread", 1, 44, 44,
                    groups(Stream.concat(Stream.of("auditor", "8", "main", "30"), Stream.of(WORKERS))
                            .toArray(String[]::new))),
            // the other measures, targets, conditions and groupings
            new Case(BANK, "count of acme.Bank.transfer where thread ~ \"w*\"", 1, 44, 6, groups("(all)", "6")),
            new Case(BANK, "sum arg3 of acme.Bank.transfer by caller", 3, 44, 44,
                    groups("acme.Bank.payroll()", "30 28500 500 1400", "acme.Bank.audit()", "8 16000 2000 2000",
                            "acme.Worker.run()", "6 600 100 100")),
            new Case(BANK, "mean arg3 of acme.Bank.transfer by receiver class", 1, 44, 44,
                    groups("acme.Bank", "44 45100 100 2000")),
            new Case(BANK, "count of acme.Account.withdraw by arg1 top 2", 1, 46, 46,
                    groups("2000", "8", "100", "6", "(others)", "32")),
            // 32 accounts made with 1,000,000; account 31 only withdrawn from (46), others only deposited to (44)
            new Case(BANK, "count of writes to acme.Account.balance by method", 3, 122, 122,
                    groups("acme.Account.withdraw(long)", "46", "acme.Account.deposit(long)", "44",
                            "acme.Account.<init>(long)", "32")),
            new Case(BANK, "count of writes to acme.Account.balance where value < 1000000", 3, 122, 46,
                    groups("(all)", "46")),
            new Case(BANK, "rate of acme.Bank.transfer by thread top 2", 1, 44, 44,
                    groups("main", "30", "auditor", "8", "(others)", "6")),
            // 100 x6; 500 x3; 600..1000 x15; 1100..1400 x12 and 2000 x8; 5000 x2 (fee)
            new Case(BANK, "count of acme.Account.withdraw by arg1 bucket", 1, 46, 46,
                    groups("[1024, 2048)", "20", "[512, 1024)", "15", "[64, 128)", "6", "[256, 512)", "3",
                            "[4096, 8192)", "2")),
            new Case(BANK, "max return of acme.Bank.moved", 1, 1, 1, groups("(all)", "1 45100 45100 45100")),
            new Case(BANK, "time p99 of acme.Bank.payroll by thread", 1, 3, 3, groups("main", "3")),
            new Case(BANK, "count of calls to acme.Bank.transfer from acme.Bank.payroll where arg2 >= 5 and arg3 < 1400",
                    1, 30, 12, groups("(all)", "12")),
            new Case(BANK, "count of acme.Bank.transfer by method where thread = main", 1, 44, 30,
                    groups(TRANSFER, "30")),
            // the remaining statistics and targets: min orders smallest first; a time's stat orders its groups
            new Case(BANK, "min arg3 of acme.Bank.transfer by caller", 3, 44, 44,
                    groups("acme.Worker.run()", "6 600 100 100", "acme.Bank.payroll()", "30 28500 500 1400",
                            "acme.Bank.audit()", "8 16000 2000 2000")),
            new Case(BANK, "time max of acme.Bank.fee", 1, 2, 2, groups("(all)", "2")),
            new Case(BANK, "time mean of calls to acme.Account.withdraw from acme.Bank.fee", 1, 2, 2,
                    groups("(all)", "2")),
            new Case(BANK, "count of calls to acme.Account.deposit", 1, 44, 44, groups("(all)", "44")),
            // the seed's experiment: 200 updates; pruning and run-time filtering, apart and together
            new Case(SEED, "count of acme.seed.Store.update", 1, 200, 200, groups("(all)", "200")),
            new Case(SEED, "count of calls to acme.seed.Store.update from acme.seed.Ledger.post", 1, 103, 103,
                    groups("(all)", "103")),
            new Case(SEED, "count of acme.seed.Store.update during acme.seed.Ledger.post where arg1 > 900", 2, 200, 24,
                    groups("(all)", "24")),
            new Case(SEED, "count of calls to acme.seed.Store.update from acme.seed.Ledger.post where arg1 > 900", 1,
                    103, 24, groups("(all)", "24")),
            // how calls end (acme.risk: 20 takes, 15 from serve and 5 from check; 12 return, 5 + 3 throw)
            new Case(RISK, "count of acme.risk.Vault.take where exception", 1, 20, 8, groups("(all)", "8")),
            new Case(RISK, "time of acme.risk.Vault.take where normal", 1, 20, 12, groups("(all)", "12")),
            new Case(RISK, "count of acme.risk.Vault.take by exception", 1, 20, 20,
                    groups("(normal)", "12", IAE, "5", ISE, "3")),
            new Case(RISK, "count of calls to acme.risk.Vault.take from acme.risk.Teller.check where exception = " + IAE,
                    1, 5, 2, groups("(all)", "2")),
            new Case(RISK, "count of acme.risk.Vault.take by caller where exception = java.lang.RuntimeException", 2,
                    20, 8, groups("acme.risk.Teller.serve()", "5", "acme.risk.Teller.check()", "3")),
            new Case(RISK, "time of calls to acme.risk.Vault.take from acme.risk.Teller.serve by exception", 1, 15, 15,
                    groups("(normal)", "10", IAE, "3", ISE, "2")),
            new Case(RISK, "sum arg1 of calls to acme.risk.Vault.take from acme.risk.Teller.check where arg1 > 0 and "
                    + "exception", 1, 5, 1, groups("(all)", "1 5000 5000 5000")),
            new Case(RISK, "max return of acme.risk.Vault.take where normal", 1, 12, 12,
                    groups("(all)", "12 355 1 200")),
            new Case(RISK, "count of acme.risk.Vault.take where return >= 100", 1, 12, 2, groups("(all)", "2")),
            new Case(RISK, "time min of acme.risk.Teller.check", 1, 1, 1, groups("(all)", "1")),
            // a window (its slots are exact in AskRuntimeTest, on a clock the test sets): the whole run is in it
            new Case(RISK, "count of acme.risk.Vault.take where exception last 3600 seconds", 1, 20, 8,
                    groups("(all)", "8")),
            new Case(RISK, "count of acme.risk.Vault.take by exception since start", 1, 20, 20,
                    groups("(normal)", "12", IAE, "5", ISE, "3")),
            // a field's value read at another event (Vault.mode: 1 while serving, 2 while checking; Vault.kind: 7)
            new Case(RISK, "count of acme.risk.Vault.take where acme.risk.Vault.mode == 2", 1, 20, 5,
                    groups("(all)", "5")),
            new Case(RISK, "count of acme.risk.Vault.take by field acme.risk.Vault.mode", 1, 20, 20,
                    groups("1", "15", "2", "5")),
            new Case(RISK, "sum acme.risk.Vault.kind of acme.risk.Vault.take", 1, 20, 20,
                    groups("(all)", "20 140 7 7")),
            new Case(RISK, "count of acme.risk.Vault.take by caller where acme.risk.Vault.mode = 1", 2, 20, 15,
                    groups("acme.risk.Teller.serve()", "15")));

    @TempDir
    static Path dir;
    static Path classes;
    /** The XML report of each program on each JDK, made once. */
    static final Map<Jdk, Map<String, Element>> REPORTS = new EnumMap<>(Jdk.class);

    @BeforeAll
    static void plant() throws Exception {
        Path compiled = Path.of(acme.BankMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        classes = dir.resolve("classes");
        try (Stream<Path> files = Files.walk(compiled.resolve("acme"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path to = classes.resolve(compiled.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Jdk jdk : Jdk.values()) {
            for (Case c : CASES) {
                out.add(Arguments.of(jdk, c));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "JDK {0}: {1}")
    @MethodSource("cases")
    void eachAnswerIsExactAndEachQuestionPatchesOnlyTheSitesThatCanContribute(Jdk jdk, Case c) throws Exception {
        Element answers = report(jdk, run(c.program()));
        Element q = XmlReports.all(answers, "QUESTION").stream().filter(e -> e.getAttribute("TEXT").equals(c.question()))
                .findFirst().orElseThrow(() -> new AssertionError("no answer to '" + c.question() + "'"));
        assertEquals(List.of(c.sites(), c.checks(), c.records()), List.of(Integer.parseInt(q.getAttribute("SITES")),
                Long.parseLong(q.getAttribute("CHECKS")), Long.parseLong(q.getAttribute("RECORDS"))),
                "sites, checks, records");
        Map<String, String> actual = new LinkedHashMap<>();
        for (Element g : XmlReports.children(q, "GROUP")) {
            String value = c.groups().getOrDefault(g.getAttribute("NAME"), "").contains(" ")
                    ? String.join(" ", g.getAttribute("COUNT"), g.getAttribute("SUM"), g.getAttribute("MIN"),
                    g.getAttribute("MAX"))
                    : g.getAttribute("COUNT");
            actual.put(g.getAttribute("NAME"), value);
        }
        assertEquals(c.groups(), actual, "groups, in the report's order");
    }

    static Path html(Jdk jdk, String program) {
        return dir.resolve(jdk + "-" + program + ".html");
    }

    @ParameterizedTest(name = "JDK {0}")
    @org.junit.jupiter.params.provider.EnumSource(Jdk.class)
    void theHtmlPageCarriesTheAnswersForItsTables(Jdk jdk) throws Exception {
        report(jdk, SEED);
        String page = Files.readString(html(jdk, SEED));
        assertTrue(page.contains("{\"t\":\"ANSWERS\",\"a\":{\"MAX_GROUPS\":\"1000\"},\"c\":[{\"t\":\"QUESTION\",\"a\":"),
                "the ANSWERS element in the page's data");
        assertTrue(page.contains("\"TEXT\":\"count of calls to acme.seed.Store.update from acme.seed.Ledger.post where "
                + "arg1 \\u003e 900\""), "the question, escaped for the page");
        assertTrue(page.contains("tag: \"ANSWERS\", id: \"answers\", title: \"Answers\""), "the script's table");
    }

    /** The program whose run answers questions about {@code program}: BankMain runs RiskMain too (one JVM less). */
    static String run(String program) {
        return program.equals(RISK) ? BANK : program;
    }

    /** The ANSWERS of one run of {@code program} with every question about it, on {@code jdk}. */
    static synchronized Element report(Jdk jdk, String program) throws Exception {
        Map<String, Element> byProgram = REPORTS.computeIfAbsent(jdk, j -> new LinkedHashMap<>());
        Element done = byProgram.get(program);
        if (done != null) {
            return done;
        }
        Path java = jdk.java();
        Path xml = dir.resolve(jdk + "-" + program + ".xml");
        List<String> cmd = new ArrayList<>(List.of(Processes.currentJava().toString(), "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", "--cache",
                dir.resolve("cache").toString(), "--report", "none", "--xml", xml.toString(), "--html",
                html(jdk, program).toString(), "--no-monitor"));
        for (Case c : CASES) {
            if (run(c.program()).equals(program)) {
                cmd.add("--ask");
                cmd.add(c.question());
            }
        }
        cmd.addAll(List.of("--", "-cp", classes.toString(), program));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().put("JAVA_HOME", java.getParent().getParent().toString());
        Processes.Result r = Processes.run(pb, Duration.ofMinutes(3));
        assertEquals(0, r.exit(), r.err());
        assertEquals(program.equals(BANK) ? "moved 45100\nserved 355 refused 8\n" : "sum 41035\n", r.out(),
                "the program's own result");
        assertTrue(r.err().lines().noneMatch(l -> l.contains("warning")), r.err());
        Element answers = XmlReports.section(XmlReports.parse(xml), "ANSWERS");
        byProgram.put(program, answers);
        return answers;
    }
}
