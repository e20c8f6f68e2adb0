package org.dyper.runtime.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dyper.runtime.internal.TextTable;
import org.junit.jupiter.api.Test;

/**
 * {@code dyper ctl PID REPORT} as text: the instrumentation's exact figures (timing with total, mean and
 * percentiles, lock rows with their numbers), the top stack paths, and rows that fit the width with whole names on
 * demand.
 */
class ReportTextTest {
    private static final String LONG = "com.example.inventory.warehouse.StockLedger";
    private static final String REPORT = "<MONITOR_REPORT VERSION='1' PID='42' TIME='1' START='0' MAIN='com.acme.Main'"
            + " MONITOR='true' CHECKTIME='10'>"
            + "<INSTRUMENTATION EXACT='true' ACTIVE='true'><DYPER_REPORT VERSION='1' PID='42' TIME='1'>"
            + "<COUNTS/><CALLS/><TIMING>"
            + "<SITE ID='3' NAME='" + LONG + ".reconcile(java.lang.String,java.util.Map,long)' COUNT='4' TOTAL_NS='4000'"
            + " MIN_NS='500' MAX_NS='2000' MEAN_NS='1000'><BUCKET UPPER_NS='1024' COUNT='3'/>"
            + "<BUCKET UPPER_NS='2048' COUNT='1'/></SITE></TIMING>"
            + "<SAMPLED_TIMING EVERY='64'/><VALUES/>"
            + "<LOCKS CONTENDED_NS='20000'><SITE ID='7' NAME='com.acme.Ledger.post(long)' ACQUISITIONS='1000'"
            + " CONTENDED='5' WAIT_NS='3000000' MAX_WAIT_NS='1000000' HOLD_NS='9000000' MAX_HOLD_NS='50000'"
            + " WAITER='worker-1' HOLDER='worker-0'/></LOCKS>"
            + "<ALLOCATIONS/><FIELDS/><FAILURES TOTAL='0'/></DYPER_REPORT></INSTRUMENTATION>"
            + "<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='9' NODE_LIMIT='100000' DROPPED='0'>"
            + "<VIEW NAME='CPU' UNIT='SAMPLES' SOURCE='JFR' TOTAL='10' EVENTS='10' OMITTED_PATHS='0' OMITTED_WEIGHT='0'"
            + " DROPPED='0' DROPPED_WEIGHT='0' THREAD_DROPPED='0' THREADS_OMITTED='0'>"
            + "<PATH WEIGHT='9'>java.lang.Thread.run;com.acme.Main.hot;com.acme.Main.work</PATH>"
            + "<PATH WEIGHT='1'>java.lang.Thread.run;com.acme.Main.cold;com.acme.Main.work</PATH></VIEW></STACKS>"
            + "</MONITOR_REPORT>";

    @Test
    void exactFiguresTopPathsAndRowsThatFit() throws Exception {
        String text = ReportText.render(MonitorCommandsContract.xml(REPORT), 120);
        List<String> lines = text.lines().toList();
        assertTrue(lines.contains("Top CPU paths (10 samples in all; estimates)"), text);
        assertTrue(lines.contains("Top CPU paths (10 samples in all; estimates)"), text);
        assertTrue(lines.contains("   90.0%   9 samples  Thread.run > Main.hot > Main.work"), text);
        assertTrue(lines.contains("   10.0%    1 sample  Thread.run > Main.cold > Main.work"), text);
        assertTrue(lines.contains("  site                                            calls    total     mean     min"
                + "      max  p50 (est.)  p99 (est.)"), text);
        assertTrue(lines.contains("  c.e.i.w.StockLedger.reconcile(String,Map,long)      4  4.00 µs  1.00 µs  500 ns"
                + "  2.00 µs      853 ns     2.00 µs"), text);
        assertTrue(lines.contains("  c.a.Ledger.post(long)         1,000          5  3.00 ms   1.00 ms  9.00 ms"
                + "   50.0 µs  worker-1 waited for worker-0"), text);
        for (String line : lines) {
            assertTrue(line.length() <= 120, line.length() + " columns: " + line);
        }
        String wide = ReportText.render(MonitorCommandsContract.xml(REPORT), 0);
        assertTrue(wide.contains("  " + LONG + ".reconcile(java.lang.String,java.util.Map,long)  "), wide);
        assertTrue(wide.contains("java.lang.Thread.run > com.acme.Main.hot > com.acme.Main.work"), wide);
    }

    /** A late recorder: the thread dumps' figures of the time before it are shown apart, each with source and window. */
    @Test
    void theThreadDumpsFiguresBeforeTheRecorderAreShownApart() throws Exception {
        String cpu = " EXACT='false' EVENT='' TICKS='9' SYSTEM_ONLY='0' IO_SAMPLES='0' IO_NS='0' DYPER_SAMPLES='0'"
                + " MONITOR_SAMPLES='0' MONITOR_NS='0' MONITOR_CPU_NS='5'";
        String view = " UNIT='SAMPLES' EVENTS='3' OMITTED_PATHS='0' OMITTED_WEIGHT='0' DROPPED='0' DROPPED_WEIGHT='0'"
                + " THREAD_DROPPED='0' THREADS_OMITTED='0'";
        String report = "<MONITOR_REPORT VERSION='1' PID='42' TIME='30000' START='1000' MAIN='com.acme.Main'"
                + " MONITOR='true' CHECKTIME='10'>"
                + "<CPU SOURCE='JFR'" + cpu.replace("EVENT=''", "EVENT='jdk.ExecutionSample'") + " SAMPLES='4'"
                + " ESTIMATED_NS='40000000' FROM='24100'><THREADS/><PACKAGES/><CLASSES/><METHODS>"
                + "<METHOD CLASS='com.acme.Main' NAME='late' SELF='4' TOTAL='4' IO='0' SELF_NS='40000000'"
                + " TOTAL_NS='40000000' IO_NS='0'/></METHODS><LINES/></CPU>"
                + "<CPU_BEFORE_JFR SOURCE='THREAD_DUMP'" + cpu + " SAMPLES='3' ESTIMATED_NS='30000000' FROM='1400'"
                + " TO='24100'><THREADS/><PACKAGES/><CLASSES/><METHODS><METHOD CLASS='com.acme.Main' NAME='early'"
                + " SELF='3' TOTAL='3' IO='0' SELF_NS='30000000' TOTAL_NS='30000000' IO_NS='0'/></METHODS><LINES/>"
                + "</CPU_BEFORE_JFR>"
                + "<STACKS EXACT='false' SOURCE='JFR' MAXDEPTH='64' NODES='9' NODE_LIMIT='100000' DROPPED='0'>"
                + "<VIEW NAME='CPU' SOURCE='JFR' TOTAL='4'" + view + " FROM='24100'>"
                + "<PATH WEIGHT='4'>com.acme.Main.late</PATH></VIEW>"
                + "<VIEW NAME='CPU_BEFORE_JFR' SOURCE='THREAD_DUMP' TOTAL='3'" + view + " FROM='1400' TO='24100'>"
                + "<PATH WEIGHT='3'>com.acme.Main.early</PATH></VIEW></STACKS></MONITOR_REPORT>";
        String text = ReportText.render(MonitorCommandsContract.xml(report), 120);
        List<String> lines = text.lines().toList();
        for (String line : List.of("CPU (estimates from 4 samples, flight recorder jdk.ExecutionSample since 23.1 s;"
                + " I/O samples 0)", "CPU before the flight recorder (estimates from 3 samples, thread dumps, 0.4 s to"
                + " 23.1 s after the JVM started)",
                "  com.acme.Main.early     3       30      3        30   0",
                "Top CPU paths (4 samples in all; estimates; JFR, from 23.1 s after the JVM started)",
                "Top CPU_BEFORE_JFR paths (3 samples in all; estimates; THREAD_DUMP, 0.4 s to 23.1 s after the JVM"
                        + " started)")) {
            assertTrue(lines.contains(line), line + " in:\n" + text);
        }
        assertTrue(lines.stream().allMatch(l -> l.length() <= 120), text);
    }

    /** Automatic detailing: each detailed method's exact figures beside its sampled estimate, and what it waits for. */
    @Test
    void detailedMethodsShowExactBesideEstimate() throws Exception {
        String report = "<MONITOR_REPORT VERSION='1' PID='42' TIME='1' START='0' MAIN='com.acme.Main' MONITOR='true'"
                + " CHECKTIME='10'><DETAIL AGENT='CPU' AUTO='true' STATE='WAITING' MODEL='dyper-detail' MAX='8'"
                + " DETAILED='1' PATCHES='2' REMOVALS='0' FAILURES='1' STARTED='5'><METHOD CLASS='com.acme.Main'"
                + " NAME='hot'/><WAITING>no patch service</WAITING><DETAILED CLASS='com.acme.Main' NAME='hot'"
                + " STATE='PATCHED' SINCE='7' PERIODS='1'><EXACT EXACT='true' COUNT='3000' TOTAL_NS='150000000'"
                + " MIN_NS='40000' MAX_NS='90000' MEAN_NS='50000'/><ESTIMATE EXACT='false' SELF='14' TOTAL='15'"
                + " SELF_NS='140000000' TOTAL_NS='150000000'/></DETAILED><DETAILED CLASS='com.acme.Main' NAME='cool'"
                + " STATE='REMOVED' SINCE='5' UNTIL='7' PERIODS='1'><EXACT EXACT='true' COUNT='0' TOTAL_NS='0'/>"
                + "<ESTIMATE EXACT='false' SELF='9' TOTAL='9' SELF_NS='90000000' TOTAL_NS='90000000'/></DETAILED>"
                + "<FAILURE WHAT='inserting the patch' COUNT='1' LAST='6'>refused</FAILURE></DETAIL></MONITOR_REPORT>";
        List<String> lines = ReportText.render(MonitorCommandsContract.xml(report), 120).lines().toList();
        assertEquals(List.of("Hot (worth detailing)", "  class or method", "  com.acme.Main.hot", "",
                "Detailed automatically (waiting, 1 patched now, at most 8; exact figures beside the sampled estimate)",
                "  method                  now  calls   total     mean      min      max  est. samples  est. total",
                "  com.acme.Main.hot   patched  3,000  150 ms  50.0 µs  40.0 µs  90.0 µs            15      150 ms",
                "  com.acme.Main.cool  removed      0    0 ns        -        -        -             9     90.0 ms",
                "  waiting: no patch service", "  failed (1x): inserting the patch: refused"),
                lines.subList(lines.indexOf("Hot (worth detailing)"), lines.size()));
    }

    @Test
    void namesShortenOnlyAsMuchAsTheyMust() {
        String name = "org.dyper.samples.bank.Bank.transfer(java.lang.String,int,long)";
        assertEquals("org.dyper.samples.bank.Bank.transfer(String,int,long)", TextTable.shorten(name, 1, 0));
        assertEquals("o.d.s.b.Bank.transfer(String,int,long)", TextTable.shorten(name, 2, 0));
        assertEquals("o.d.s.b.Bank.transfer(…)", TextTable.shorten(name, 3, 0));
        assertEquals("…ank.transfer(…)", TextTable.shorten(name, 4, 16));
        TextTable t = new TextTable("site", "count");
        t.row("a.B.short()", "1");
        t.row(name, "22");
        StringBuilder out = new StringBuilder();
        t.appendTo(out, 50);
        assertEquals("  site                                    count\n"
                + "  a.B.short()                                 1\n"
                + "  o.d.s.b.Bank.transfer(String,int,long)     22\n", out.toString());
    }
}
