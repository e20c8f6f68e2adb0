package org.dyper.runtime.ask;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The run time of questions: bounded groups with an others row, conditions, during flags, the table and report. */
class AskRuntimeTest {
    /** The question table is the JVM's: the other tests of this JVM see no answers. */
    @AfterEach
    void noQuestionsLeft() {
        Questions.define("");
        assertEquals("", AnswerReport.xml());
    }
    @Test
    void groupsAreBoundedAndLaterGroupsGoToOthers() {
        Groups g = new Groups(3, false);
        for (int k = 1; k <= 5; k++) {
            for (int n = 0; n < k; n++) {
                g.of(k, null, Groups.VALUE_LABEL).add(k);
            }
        }
        assertEquals(3, g.size());
        assertEquals(List.of("1", "2", "3"), g.rows().stream().map(Groups.Row::name).sorted().toList());
        assertEquals(4 + 5, g.others().cells.get(Groups.COUNT));
        assertEquals(4 * 4 + 5 * 5, g.others().cells.get(Groups.SUM));
        assertSame(g.of(2, null, Groups.VALUE_LABEL), g.of(2, null, Groups.VALUE_LABEL));
    }

    @Test
    void manyThreadsCountExactlyWithoutLosingAnEvent() throws Exception {
        Groups g = new Groups(1000, true);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    g.of(i % 7, null, Groups.VALUE_LABEL).add(i % 1000);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(7, g.size());
        long count = g.rows().stream().mapToLong(r -> r.cells.get(Groups.COUNT)).sum();
        assertEquals(400_000, count);
        long buckets = 0;
        for (Groups.Row r : g.rows()) {
            for (int b = 0; b < Groups.BUCKETS; b++) {
                buckets += r.cells.get(Groups.HIST + b);
            }
        }
        assertEquals(400_000, buckets, "every duration in one histogram bucket");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            w*     | w1     | true
            w*     | main   | false
            *pool* | a-pool-1 | true
            main   | main   | true
            main   | main2  | false
            a*b*c  | axxbyyc | true
            a*b*c  | axxbyy  | false
            """)
    void threadPatterns(String pattern, String name, boolean matches) {
        assertEquals(matches, Glob.matches(pattern, name));
    }

    @Test
    void aQuestionTestsItsConditionsRecordsItsGroupsAndReportsThem() throws Exception {
        Questions.define("# a table\n"
                + "id=0\tmeasure=VALUE\tstat=MAX\tvalue=1\tgroup=SLOT\tgroupSlot=0\tgroupTitle=arg1\tvalueTitle=arg2\t"
                + "top=2\tduring=3\tthread=\tbefore=1:GE:10\tafter=\tsites=4\ttext=max arg2 of p.C.m by arg1 top 2\n"
                + "id=1\tmeasure=COUNT\tstat=COUNT\n"
                + "broken line\n");
        for (int k = 0; k < 4; k++) {
            Ask.point(0, 1, null, k, 100 + k, 0);   // not during: no record
        }
        Ask.enterDuring(3);
        Ask.enterDuring(3);
        Ask.exitDuring(3);   // still inside once (recursion counts)
        for (int k = 0; k < 4; k++) {
            Ask.point(0, 1, null, k, 100 + k, 0);
            Ask.point(0, 1, null, k, 5, 0);   // arg2 < 10: fails the condition
        }
        Ask.exitDuring(3);
        Ask.point(0, 1, null, 9, 500, 0);   // outside again
        Question q = Questions.get(0);
        assertEquals(4 + 8 + 1, q.checks.sum());
        assertEquals(4, q.records());
        String xml = AnswerReport.xml().replaceAll(" SECONDS=.[0-9.]+.", "");   // its time: RATE's span
        assertTrue(xml.contains("<QUESTION ID='0' TEXT='max arg2 of p.C.m by arg1 top 2' MEASURE='VALUE' STAT='MAX' "
                + "GROUP_BY='arg1' VALUE='arg2' SITES='4' CHECKS='13' RECORDS='4' GROUPS='4'>\n"
                + "      <GROUP NAME='3' COUNT='1' SUM='103' MIN='103' MAX='103' MEAN='103.000'/>\n"
                + "      <GROUP NAME='2' COUNT='1' SUM='102' MIN='102' MAX='102' MEAN='102.000'/>\n"
                + "      <GROUP NAME='(others)' COUNT='2' SUM='201' MIN='100' MAX='101' MEAN='100.500' OTHERS='2'/>\n"
                + "    </QUESTION>"), xml);
        assertTrue(xml.contains("<PROBLEM TEXT='the question table:4: not key=value: broken line'/>"), xml);
        String text = AnswerReport.text(0);
        assertTrue(text.contains("""
                  max arg2 of p.C.m by arg1 top 2
                  4 sites patched; 13 checks, 4 records; 4 groups
                  arg1                     count  sum arg2  min arg2  max arg2  mean arg2
                  3                            1       103       103       103     103.00
                  2                            1       102       102       102     102.00
                  (others: 2 more groups)      2       201       100       101     100.50
                """), text);
        // dyper ctl PID answers prints the same text from the XML the monitor sends
        assertEquals(text, AnswerReport.text(org.dyper.runtime.wire.Xml.parse(xml.trim()), 0));
    }

    @Test
    void aTableDefinedForAnInsertThatFailedIsPutBack() throws Exception {
        Questions.define("id=0\tmeasure=COUNT\tstat=COUNT\ttext=count of p.C.m\n");
        Ask.point(0, 1, null, 0, 0, 0);
        Runnable undo = Questions.define("id=0\tmeasure=COUNT\tstat=COUNT\ttext=count of p.C.other\nbroken\n");
        assertTrue(AnswerReport.xml().contains("TEXT='count of p.C.other'"), AnswerReport.xml());
        undo.run();
        String xml = AnswerReport.xml().replaceAll(" SECONDS=.[0-9.]+.", "");   // its time: RATE's span
        assertTrue(xml.contains("<QUESTION ID='0' TEXT='count of p.C.m' MEASURE='COUNT' STAT='COUNT' GROUP_BY='' "
                + "VALUE='' SITES='0' CHECKS='1' RECORDS='1' GROUPS='0'>"), xml);
        assertTrue(!xml.contains("PROBLEM"), xml);
        assertEquals("", AnswerReport.text(null, 0));
    }

    @Test
    void aTableWovenIntoTheClassesIsReadFromTheClassPath(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path one = dir.resolve("one/META-INF/dyper/questions.txt");
        java.nio.file.Path two = dir.resolve("two/META-INF/dyper/questions.txt");
        java.nio.file.Files.createDirectories(one.getParent());
        java.nio.file.Files.createDirectories(two.getParent());
        java.nio.file.Files.writeString(one, "id=0\tmeasure=COUNT\tstat=COUNT\ttext=count of p.C.m\n");
        java.nio.file.Files.writeString(two, "id=0\tmeasure=COUNT\tstat=COUNT\ttext=count of p.D.n\n");
        try (java.net.URLClassLoader a = new java.net.URLClassLoader(new java.net.URL[] {
                dir.resolve("one").toUri().toURL()}, null);
             java.net.URLClassLoader b = new java.net.URLClassLoader(new java.net.URL[] {
                dir.resolve("two").toUri().toURL()}, null)) {
            Question[] t = Questions.fromResource(null, a, a);
            assertEquals(1, t.length);
            assertEquals("count of p.C.m", t[0].text);
            assertEquals(List.of(), Questions.problems());
            assertEquals("count of p.C.m", Questions.fromResource(a, b)[0].text);
            assertEquals(List.of(two.toUri().toURL() + ": a second question table on the class path, left out ("
                    + one.toUri().toURL() + " is used; weave the questions into one module)"), Questions.problems());
            assertEquals(0, Questions.fromResource(ClassLoader.getPlatformClassLoader()).length);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "0 | 0 | 0",
        "1 | 1 | [1, 2)",
        "3 | 2 | [2, 4)",
        "1000 | 10 | [512, 1024)",
        "1024 | 11 | [1024, 2048)",
        "-1 | -1 | (-2, -1]",
        "-1000 | -10 | (-1024, -512]",
        "9223372036854775807 | 63 | [4611686018427387904, 2^63)",
        "-9223372036854775808 | -63 | (-2^63, -4611686018427387904]"})
    void valuesFallIntoPowerOfTwoBuckets(long value, long bucket, String name) {
        assertEquals(bucket, Groups.bucket(value));
        assertEquals(name, Groups.bucketName(bucket));
    }

    /** The answer of question 0's first group (count sum min max) and the SECONDS, at {@code at} nanos. */
    private static String windowAt(Question q, double seconds) {
        Window.fixedNanos = q.definedNanos + Math.round(seconds * 1e9);
        String xml = AnswerReport.xml();
        java.util.regex.Matcher g = java.util.regex.Pattern.compile("<GROUP NAME='[^']*' COUNT='(\\d+)' SUM='(\\d+)' "
                + "MIN='(\\d+)' MAX='(\\d+)'").matcher(xml);
        java.util.regex.Matcher s = java.util.regex.Pattern.compile("SECONDS='([0-9.]+)'").matcher(xml);
        assertTrue(s.find(), xml);
        return (g.find() ? g.group(1) + " " + g.group(2) + " " + g.group(3) + " " + g.group(4) : "none") + " over "
                + s.group(1);
    }

    private static void eventsAt(Question q, double seconds, long... values) {
        Window.fixedNanos = q.definedNanos + Math.round(seconds * 1e9);
        for (long v : values) {
            Ask.point(0, 1, null, v, 0, 0);
        }
    }

    @Test
    void aWindowAnswersTheSlotInProgressAndThoseBeforeItWithinNSeconds() {
        try {
            // 10 seconds: ten slots of one second
            Questions.define("id=0\tmeasure=VALUE\tstat=SUM\tvalue=0\tgroup=THREAD\tgroupTitle=thread\twindow=10\t"
                    + "text=sum arg1 of p.C.m by thread last 10 seconds\n");
            Question q = Questions.get(0);
            assertEquals(List.of(1, 10), List.of(q.window.width, q.window.slots));
            eventsAt(q, 0.5, 1, 1, 1);
            eventsAt(q, 5.5, 10, 10);
            assertEquals("5 23 1 10 over 9.900", windowAt(q, 9.9));
            // slot 10 takes the ring's first slot over: the events of second 0 leave the answer
            eventsAt(q, 10.2, 100);
            assertEquals("3 120 10 100 over 9.200", windowAt(q, 10.2));
            assertEquals("1 100 100 100 over 9.000", windowAt(q, 15.0));
            assertEquals("none over 9.500", windowAt(q, 30.5));
            assertEquals(6, q.records(), "records count every event since the start");
            assertTrue(AnswerReport.xml().contains(" WINDOW='10'"), AnswerReport.xml());

            // 120 seconds: 60 slots of two seconds; a timed question shows no percentiles
            Questions.define("id=0\tmeasure=TIME\tstat=TOTAL\tgroup=THREAD\tgroupTitle=thread\twindow=120\t"
                    + "text=time of p.C.m by thread last 120 seconds\n");
            q = Questions.get(0);
            assertEquals(List.of(2, 60), List.of(q.window.width, q.window.slots));
            Window.fixedNanos = q.definedNanos + 1_000_000_000L;
            q.record(1, null, 0, 0, 0, 7);
            Window.fixedNanos = q.definedNanos + 119_000_000_000L;
            q.record(1, null, 0, 0, 0, 9);
            assertEquals("2 16 7 9 over 119.500", windowAt(q, 119.5));
            assertEquals("1 9 9 9 over 118.500", windowAt(q, 120.5));
            assertTrue(!AnswerReport.xml().contains("P50="), AnswerReport.xml());
            assertTrue(AnswerReport.text(200).contains("; the table: the last 120 seconds\n"), AnswerReport.text(200));
        } finally {
            Window.fixedNanos = 0;
        }
    }

    @Test
    void aWindowCountsEveryEventOfManyThreads() throws Exception {
        try {
            Questions.define("id=0\tmeasure=COUNT\tstat=COUNT\twindow=60\ttext=count of p.C.m last 60 seconds\n");
            Question q = Questions.get(0);
            Window.fixedNanos = q.definedNanos + 3_000_000_000L;
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(new Thread(() -> {
                    for (int i = 0; i < 100_000; i++) {
                        Ask.point(0, 1, null, 0, 0, 0);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(AnswerReport.xml().contains("<GROUP NAME='(all)' COUNT='400000' SUM='0' MIN='0' MAX='0'"),
                    AnswerReport.xml());
        } finally {
            Window.fixedNanos = 0;
        }
    }

    @Test
    void aRateIsItsCountOverTheSecondsSinceTheQuestionWasDefined() throws Exception {
        Questions.define("id=0\tmeasure=RATE\tstat=COUNT\tgroup=THREAD\tgroupTitle=thread\ttext=rate of p.C.m by "
                + "thread\n");
        for (int i = 0; i < 3; i++) {
            Ask.point(0, 1, null, 0, 0, 0);
        }
        String xml = AnswerReport.xml();
        assertTrue(xml.matches("(?s).*<QUESTION ID='0' TEXT='rate of p.C.m by thread' MEASURE='RATE' STAT='COUNT' "
                + "GROUP_BY='thread' VALUE='' SITES='0' CHECKS='3' RECORDS='3' GROUPS='1' SECONDS='\\d+\\.\\d{3}'>.*"),
                xml);
        String shown = AnswerReport.text(org.dyper.runtime.wire.Xml.parse("<ANSWERS MAX_GROUPS='1000'><QUESTION ID='0' "
                + "TEXT='rate of p.C.m by thread' MEASURE='RATE' STAT='COUNT' GROUP_BY='thread' VALUE='' SITES='1' "
                + "CHECKS='30' RECORDS='30' GROUPS='2' SECONDS='4.000'><GROUP NAME='main' COUNT='20' SUM='0' MIN='0' "
                + "MAX='0' MEAN='0.000'/><GROUP NAME='w1' COUNT='10' SUM='0' MIN='0' MAX='0' MEAN='0.000'/></QUESTION>"
                + "</ANSWERS>"), 0);
        assertTrue(shown.endsWith("""
                  rate of p.C.m by thread
                  1 site patched; 30 checks, 30 records; 2 groups
                  thread  count  per second
                  main       20        5.00
                  w1         10        2.50
                """), shown);
    }

    @Test
    void aHoldIsTimedFromEachAcquisitionToItsReleaseInnermostFirst() {
        Questions.define("id=0\tmeasure=HOLD\tstat=TOTAL\tgroup=THREAD\tgroupTitle=thread\ttext=hold of lock in p.C.m"
                + "\n");
        Ask.released(0, 1, null, 0, 0, 0);   // a release whose acquisition came before the question: nothing
        Ask.acquired(0, 1, null, 0, 0, 0);
        Ask.acquired(0, 1, null, 0, 0, 0);   // nested
        Ask.released(0, 1, null, 0, 0, 0);
        Ask.released(0, 1, null, 0, 0, 0);
        for (int i = 0; i <= Held.DEPTH; i++) {
            Ask.acquired(0, 1, null, 0, 0, 0);
        }
        for (int i = 0; i <= Held.DEPTH; i++) {
            Ask.released(0, 1, null, 0, 0, 0);
        }
        Question q = Questions.get(0);
        assertEquals(2 + Held.DEPTH + 1, q.checks.sum());
        assertEquals(2 + Held.DEPTH, q.records(), "the acquisition past the depth is not timed");
        assertEquals(1, Held.overflows());
        assertTrue(AnswerReport.xml().contains("<PROBLEM TEXT='1 monitor acquisition(s) nested deeper than 64 on one "
                + "thread were not timed'/>"), AnswerReport.xml());
        assertTrue(AnswerReport.text(0).contains("thread  holds"), AnswerReport.text(0));
    }
}
