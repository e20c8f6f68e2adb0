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
