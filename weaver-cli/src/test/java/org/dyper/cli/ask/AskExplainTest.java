package org.dyper.cli.ask;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dyper.cli.ExitCode;
import org.dyper.cli.Main;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dyper ask --explain}: the sites a question patches and the model it becomes, and every way a question can
 * be wrong, each an error naming the column (or {@code file:line:col} in a questions file) with a caret under it.
 */
class AskExplainTest {
    @TempDir
    static Path dir;
    static String classpath;

    @BeforeAll
    static void plant() throws Exception {
        classpath = Path.of(acme.BankMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    record Result(int code, String out, String err) {
    }

    static Result dyper(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, UTF_8); PrintStream e = new PrintStream(err, true, UTF_8)) {
            code = Main.run(args, o, e, Map.of());
        }
        return new Result(code, out.toString(UTF_8), err.toString(UTF_8));
    }

    @Test
    void explainListsEachSiteAndPrintsTheModelModesAndTable() {
        Result r = dyper("ask", "--explain", "--classpath", classpath, "time of acme.Bank.transfer by caller",
                "count of calls to acme.Account.withdraw from acme.Bank.transfer where arg1 > 1000");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.startsWith("""
                question 1: time of acme.Bank.transfer by caller
                  3 sites:
                    CALL in acme.Bank.payroll() of acme.Bank.transfer (line 31)
                    CALL in acme.Bank.audit() of acme.Bank.transfer (line 39)
                    CALL in acme.Worker.run() of acme.Bank.transfer (line 15)
                question 2: count of calls to acme.Account.withdraw from acme.Bank.transfer where arg1 > 1000
                  1 site:
                    CALL in acme.Bank.transfer(int,int,long) of acme.Account.withdraw (line 22)

                sites in all: 4
                """), out);
        // the callee is never patched: the relation is answered at the call sites
        assertTrue(out.contains("<FOR CLASS='acme.Bank' METHOD='transfer(int,int,long)'>\n"
                + "    <PATCH WHAT='CALL' MODE='ASK_Q1_POINT'>\n"
                + "      <WHEN CASE='METHOD' ARG='acme.Account.withdraw'/>"), out);
        assertTrue(!out.contains("WHAT='ENTER'") && !out.contains("FOR CLASS='acme.Account'"), out);
        assertTrue(out.contains("id=1\tmeasure=COUNT\tstat=COUNT\tvalue=-1\tgroup=NONE\tgroupSlot=-1\tgroupTitle=\t"
                + "valueTitle=\ttop=0\tduring=-1\tthread=\tbefore=0:GT:1000\tafter=\tsites=1\ttext=count of calls to "
                + "acme.Account.withdraw from acme.Bank.transfer where arg1 > 1000\n"), out);
    }

    /** A JDK method's own code is never woven: its calls are measured where the program makes them, and it says so. */
    @Test
    void aJdkMethodIsMeasuredAtTheProgramsCallsToIt() {
        Result r = dyper("ask", "--explain", "--classpath", classpath, "count of calls to java.lang.Thread.join");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("""
                question 1: count of calls to java.lang.Thread.join
                  2 sites:
                    CALL in acme.BankMain.main(java.lang.String[]) of java.lang.Thread.join (line 30)
                    CALL in acme.BankMain.main(java.lang.String[]) of java.lang.Thread.join (line 34)
                """), r.out());
        assertEquals("dyper: warning: java.lang.Thread.join: a JDK method; its calls are measured in the callers on "
                + "the class path (calls from the JDK's own code are not seen)\n", r.err());
    }

    @Test
    void duringSetsItsFlagOnlyInItsMethodAndTestsArgumentsBeforeAndReturnsAfter() {
        Result r = dyper("ask", "--explain", "--classpath", classpath,
                "time of acme.Bank.transfer during acme.Bank.audit by thread",
                "count of acme.Bank.moved where return > 5", "count of acme.Bank.fee where thread = main");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("""
                  <FOR CLASS='acme.Bank' METHOD='audit()'>
                    <PATCH WHAT='ENTER' MODE='ASK_DURING0_ENTER'/>
                    <PATCH WHAT='EXIT' MODE='ASK_DURING0_EXIT'/>
                  </FOR>
                """), r.out());
        assertTrue(r.out().contains("  2 sites:\n    ENTER/EXIT acme.Bank.transfer(int,int,long)\n"
                + "    ENTER/EXIT acme.Bank.audit() (the during flag)\n"), r.out());
        // a condition on the returned value is tested at the exit, the only site that has it
        assertTrue(r.out().contains("  1 site:\n    EXIT acme.Bank.moved()\n"), r.out());
        assertTrue(r.out().contains("\tthread=\tbefore=\tafter=0:GT:5\t"), r.out());
        // a condition on the thread is tested at the entry
        assertTrue(r.out().contains("  1 site:\n    ENTER acme.Bank.fee()\n"), r.out());
        assertTrue(r.out().contains("\tthread=main\tbefore=\tafter=\t"), r.out());
    }

    @Test
    void aQuestionAboutHowCallsEndIsAnsweredAtTheirEndWithTheException() {
        Result r = dyper("ask", "--explain", "--classpath", classpath, "count of acme.Bank.transfer where exception",
                "time of acme.Bank.transfer where exception = java.lang.IllegalStateException",
                "count of acme.Bank.transfer by caller where normal");
        assertEquals(0, r.code(), r.err());
        // a count needs only the exit, which sees the exception; a time needs the entry too
        assertTrue(r.out().startsWith("""
                question 1: count of acme.Bank.transfer where exception
                  1 site:
                    EXIT acme.Bank.transfer(int,int,long)
                question 2: time of acme.Bank.transfer where exception = java.lang.IllegalStateException
                  1 site:
                    ENTER/EXIT acme.Bank.transfer(int,int,long)
                question 3: count of acme.Bank.transfer by caller where normal
                  3 sites:
                """), r.out());
        assertTrue(r.out().contains("""
                  <DYPATCH_MODE NAME='ASK_Q0_POINT'>
                    <CODE TYPE='CALL' CLASS='org.dyper.runtime.ask.Ask' METHOD='point' SIGNATURE='void (int, int, java.lang.Object, long, long, long)'>
                      <ARG TYPE='INTEGER' VALUE='0'/>
                      <ARG TYPE='METHODID'/>
                      <ARG TYPE='EXCEPTION'/>
                """), r.out());
        assertTrue(r.out().contains("\tthread=\texit=EXCEPTION\tbefore=\tafter=\tsites=1\ttext=count of acme.Bank.transfer "
                + "where exception\n"), r.out());
        assertTrue(r.out().contains("\texit=EXCEPTION\texception=java.lang.IllegalStateException\tbefore=\t"), r.out());
        assertTrue(r.out().contains("<PATCH WHAT='CALL' MODE='ASK_Q2_POINT'>"), r.out());
        assertTrue(r.out().contains("\texit=NORMAL\tbefore=\tafter=\tsites=3\t"), r.out());
    }

    @Test
    void aFieldIsReadAtTheEventByItsNameInItsClassOrByItsClassWhenStatic() {
        Result r = dyper("ask", "--explain", "--classpath", classpath,
                "count of acme.Bank.transfer where acme.Bank.moved > 100 by field acme.risk.Vault.mode");
        assertEquals(0, r.code(), r.err());
        // the condition is tested at the entry, the first site that has the field
        assertTrue(r.out().startsWith("question 1: count of acme.Bank.transfer where acme.Bank.moved > 100 by field "
                + "acme.risk.Vault.mode\n  1 site:\n    ENTER acme.Bank.transfer(int,int,long)\n"), r.out());
        assertTrue(r.out().contains("""
                      <ARG TYPE='FIELD' VALUE='moved'/>
                      <ARG TYPE='FIELD' VALUE='acme.risk.Vault.mode'/>
                      <ARG TYPE='INTEGER' VALUE='0'/>
                """), r.out());
        assertTrue(r.out().contains("\tgroup=SLOT\tgroupSlot=1\tgroupTitle=acme.risk.Vault.mode\t"), r.out());
        assertTrue(r.out().contains("\tbefore=0:GT:100\tafter=\t"), r.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            time of acme.Bank.transfr by caller | 19 | acme.Bank has no method 'transfr' (it has: audit, fee, moved, payroll, transfer)
            count of acme.Bnk.audit | 10 | no class 'acme.Bnk' in the classes on the class path
            time of acme.Bank.transfer during java.lang.Thread.start | 35 | no class 'java.lang.Thread' in the classes on the class path (a JDK class: its own code is not woven, only the calls to it)
            count of calls to java.lang.Runnable.rn from acme.BankMain.main | 38 | java.lang.Runnable has no method 'rn'
            max arg4 of acme.Bank.transfer | 5 | arg4: acme.Bank.transfer(int,int,long) has 3 parameters
            max return of acme.Bank.payroll | 5 | return: acme.Bank.payroll() returns nothing (void)
            time acme.Bank.transfer | 6 | expected 'of' or a statistic of time (total, mean, min, max, p50, p99), found 'acme.Bank.transfer'
            count of acme.Bank.audit by colour | 29 | expected caller, method, thread, receiver class, exception or argN after 'by', found 'colour'
            count of calls to acme.Account.withdraw from acme.Bank.audit | 46 | no call of acme.Account.withdraw in acme.Bank.audit
            count of acme.Bank.audit where arg1 > 5 | 32 | arg1: acme.Bank.audit() has 0 parameters
            count of new acme.Nothing | 14 | no 'new acme.Nothing' in the classes on the class path (and no such class there)
            wait of lock in acme.Bank.audit | 17 | acme.Bank.audit takes no lock (no synchronized block, not synchronized)
            wait of acme.Bank.audit | 1 | wait: only a lock is waited for (use 'wait of lock in Class.method')
            count of acme.Bank.transfer where arg1 >> 5 | 41 | expected a whole number, found '>'
            count of acme.Bank.transfer top 0 | 33 | top takes a number from 1 to 1000000, found 0
            count of acme.Bank.transfer by receiver by thread | 41 | a second 'by' (one grouping per question)
            count of acme.Bank.transfer(int) | 28 | acme.Bank.transfer has no overload (int)
            sum arg1 of acme.Bank.transfer where thread = w* | 38 | thread = compares the whole name; for a pattern with * use thread ~
            count of new acme.Order by receiver | 28 | by receiver: an allocation has no receiver (use 'by method' or 'by thread')
            count | 6 | the question ends where 'of' was expected
            count of writes to acme.Account.balanse | 33 | acme.Account has no field 'balanse' (it has: balance)
            count of writes to acme.Nope.x | 20 | no class 'acme.Nope' in the classes on the class path
            max value of acme.Bank.transfer | 5 | value: only a field write has a written value (ask about 'writes to Class.field')
            max arg1 of writes to acme.Account.balance | 5 | arg1: a field write has no arguments or return value (use 'value', the value written)
            time of writes to acme.Account.balance | 1 | time: a field write has no duration (use count)
            hold of acme.Bank.transfer | 1 | hold: only a lock is held (use 'hold of lock in Class.method')
            count of new acme.Order where exception | 31 | exception: only calls of a method end normally or by an exception (an allocation is asked about where it happens)
            max return of acme.Bank.moved where exception | 37 | exception: a question about the returned value sees normal returns only
            count of acme.Bank.transfer where exception = acme.Nope | 47 | no class 'acme.Nope' in the classes on the class path or the JDK
            count of acme.Bank.transfer where exception = 5 | 47 | expected an exception class (fully qualified) after 'exception =', found '5'
            count of acme.Bank.transfer by receiver where exception | 32 | by receiver: a question about how calls end cannot group by receiver (ask it without the condition on the exception, or group otherwise)
            count of acme.Bank.transfer where normal by exception | 45 | by exception: 'where normal' leaves only normal returns, one group
            count of acme.Bank.transfer where normal and exception | 46 | a second condition on how the event ends
            time p99 of acme.Bank.transfer last 60 seconds | 1 | p99: a window keeps count, sum, min and max of each slot, no percentiles (ask total, mean, min or max)
            count of acme.Bank.transfer last 0 seconds | 34 | last takes 1 to 86400 seconds, found 0
            count of acme.Bank.transfer last 5 minutes | 36 | expected 'seconds' after the number, found 'minutes'
            count of acme.Bank.transfer since start last 5 seconds | 41 | a second window ('last N seconds' or 'since start')
            count of acme.Bank.transfer since 5 | 35 | expected 'start' after 'since', found '5'
            count of acme.Bank.transfer every 5 seconds | 29 | expected where, during, by, top, last or since, found 'every'
            count of acme.Bank.transfer by caller where acme.Account.balance > 0 | 45 | acme.Account.balance is an instance field: it is read from the object a method runs on, so ask about the method's executions (no 'by caller', no 'calls to'), or use a static field
            count of acme.Bank.transfer where acme.Account.balance > 0 | 35 | acme.Account.balance is an instance field, and acme.Bank.transfer(int,int,long) does not run on an object of its class
            count of acme.Bank.transfer where acme.Bank.ledger = 0 | 35 | acme.Bank.ledger is a java.lang.Object: questions compare, sum and group whole numbers only (int, long, short, byte, char)
            count of acme.Bank.transfer where acme.Bank.nope = 0 | 45 | acme.Bank has no field 'nope' (it has: accounts, ledger, moved)
            count of acme.Bank.transfer by field arg1 | 38 | expected a field (Class.field) after 'by field', found 'arg1'
            max value of writes to acme.Bank.ledger | 5 | value: acme.Bank.ledger is a java.lang.Object: questions compare, sum and group whole numbers only (int, long, short, byte, char)
            """)
    void aQuestionThatCannotBeAnsweredIsAnErrorNamingTheColumn(String question, int column, String problem) {
        Result r = dyper("ask", "--explain", "--classpath", classpath, question);
        assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
        assertEquals("dyper: error: --ask #1, column " + column + ": " + problem + "\n"
                + "dyper:   " + question + "\n"
                + "dyper:   " + " ".repeat(column - 1) + "^\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void aQuestionsFileNamesTheFileLineAndColumn() throws Exception {
        Path file = Files.writeString(dir.resolve("questions.txt"), """
                # the bank's questions
                count of acme.Bank.audit

                time of acme.Bank.audit by thred
                """);
        Result r = dyper("ask", "--explain", "--classpath", classpath, "--ask-file", file.toString());
        assertEquals(ExitCode.INVALID_INPUT, r.code(), r.err());
        assertEquals(List.of("dyper: error: " + file + ":4:28: expected caller, method, thread, receiver class, "
                + "exception or argN after 'by', found 'thred'", "dyper:   time of acme.Bank.audit by thred",
                "dyper:                              ^"), r.err().lines().toList());
    }

    @Test
    void anXmlQuestionsFileIsReadAndItsProblemsNameFileLineAndColumn() throws Exception {
        Path file = Files.writeString(dir.resolve("questions.xml"), """
                <QUESTIONS>
                  <QUESTION>count of acme.Bank.audit</QUESTION>
                  <QUESTION>
                    count of calls to acme.Account.withdraw from acme.Bank.transfer where arg1 &gt; 1000
                  </QUESTION>
                </QUESTIONS>
                """);
        Result ok = dyper("ask", "--explain", "--classpath", classpath, "--ask-file", file.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("question 2: count of calls to acme.Account.withdraw from acme.Bank.transfer "
                + "where arg1 > 1000\n  1 site:\n"), ok.out());
        assertTrue(ok.out().contains("sites in all: 2\n"), ok.out());

        Files.writeString(file, """
                <QUESTIONS>
                  <QUESTION>count of acme.Bank.audit by colour</QUESTION>
                </QUESTIONS>
                """);
        Result bad = dyper("ask", "--explain", "--classpath", classpath, "--ask-file", file.toString());
        assertEquals(ExitCode.INVALID_INPUT, bad.code(), bad.err());
        assertEquals("dyper: error: " + file + ":2:41: expected caller, method, thread, receiver class, exception or "
                + "argN after 'by', found 'colour'", bad.err().lines().findFirst().orElse(""));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            <QUESTIONS><Q>count of acme.Bank.audit</Q></QUESTIONS>                       | :1:15: Q: unexpected element (QUESTIONS holds QUESTION elements, each a question as text)
            <QUESTIONS><QUESTION ID='1'>count of acme.Bank.audit</QUESTION></QUESTIONS> | :1:29: QUESTION: unexpected attribute ID
            <QUESTIONS>count</QUESTIONS>                                                 | :1:19: QUESTIONS: text outside a QUESTION
            <QUESTIONS><QUESTION> </QUESTION></QUESTIONS>                                | :1:34: QUESTION: the question is empty
            <ASK/>                                                                       | :1:7: ASK: the root must be QUESTIONS
            <QUESTIONS/>                                                                 | :1:1: QUESTIONS: no QUESTION in the file
            <!DOCTYPE q [<!ENTITY e 'x'>]><QUESTIONS/>                                   | :1:10: DTDs and entities are not allowed in Dyper XML
            """)
    void aBrokenXmlQuestionsFileIsAUsageErrorAtItsPlace(String xml, String problem) throws Exception {
        Path file = Files.writeString(dir.resolve("broken.xml"), xml);
        Result r = dyper("ask", "--explain", "--classpath", classpath, "--ask-file", file.toString());
        assertEquals(ExitCode.USAGE, r.code(), r.err());
        assertEquals("dyper: error: ask: --ask-file " + file + problem, r.err().lines().findFirst().orElse(""));
    }

    @Test
    void withoutExplainOrAQuestionItIsAUsageError() {
        Result none = dyper("ask", "--explain", "--classpath", classpath);
        assertEquals(ExitCode.USAGE, none.code());
        assertTrue(none.err().contains("no question"), none.err());
        Result noExplain = dyper("ask", "--classpath", classpath, "count of acme.Bank.audit");
        assertEquals(ExitCode.USAGE, noExplain.code());
        assertTrue(noExplain.err().contains("give --explain"), noExplain.err());
    }

    @Test
    void askAndModelTogetherAreAUsageError() {
        Result r = dyper("run", "--model", "m.xml", "--ask", "count of acme.Bank.audit", "--", "-cp", classpath,
                "acme.BankMain");
        assertEquals(ExitCode.USAGE, r.code());
        assertTrue(r.err().contains("--ask and --ask-file make their own model"), r.err());
    }
}
