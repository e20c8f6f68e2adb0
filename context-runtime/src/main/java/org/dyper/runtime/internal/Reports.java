package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.*;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.dyper.runtime.ask.AnswerReport;

/** Merged agent data as rows sorted by cost, the XML report (format in runtime-contract.md), and the text report's sections. */
public final class Reports {
    private Reports() {
    }

    /** Everything one report shows, taken once so the text and XML reports of one {@code report()} agree. */
    public record Data(Totals totals, List<Failures.Site> failures, long failureOverflow, long pid, long timeMillis,
                       int sampleEvery, long malformedSiteLines, long conflictingSiteLines) {
        public static Data now() {
            return new Data(Registry.snapshot(), Failures.snapshot(), Failures.overflow(), currentPid(),
                    System.currentTimeMillis(), Config.SAMPLE_EVERY, SiteTable.malformedLines(),
                    SiteTable.conflicts());
        }

        long failureTotal() {
            long n = failureOverflow;
            for (Failures.Site s : failures) {
                n += s.count();
            }
            return n;
        }
    }

    private static long currentPid() {
        try {
            return ProcessHandle.current().pid();
        } catch (Throwable t) {
            return -1;
        }
    }

    // ---- per-site rows, sorted by cost ----

    record TimingSite(int id, long count, long total, long min, long max, long[] buckets) {
        double mean() {
            return (double) total / count;
        }
    }

    record SampledSite(int id, long count, long samples, long sampledTotal, double sumSquares) {
        boolean exact() {
            return samples == count;
        }

        /** count × mean of the sampled durations; 0 when nothing was sampled. */
        double estimate() {
            if (exact()) {
                return sampledTotal;
            }
            return samples == 0 ? 0 : (double) count * sampledTotal / samples;
        }

        /** One standard error: count × s / √samples; with fewer than two samples the spread is unknown (±100%). */
        double error() {
            if (exact()) {
                return 0;
            }
            if (samples < 2) {
                return estimate();
            }
            double mean = (double) sampledTotal / samples;
            double variance = Math.max(0, (sumSquares - samples * mean * mean) / (samples - 1));
            return count * Math.sqrt(variance) / Math.sqrt(samples);
        }
    }

    record CountSite(int id, long count) {
    }

    record ValueSite(int id, long count, long sum, long min, long max, long nulls, long nonNulls) {
        long events() {
            return count + nulls + nonNulls;
        }
    }

    static List<TimingSite> timing(Totals t) {
        List<TimingSite> sites = new ArrayList<>();
        for (int i = 0; i < t.tables[TIMING].length; i++) {
            long[] r = t.tables[TIMING][i];
            if (r != null && r[T_COUNT] > 0) {
                long[] buckets = new long[BUCKETS];
                System.arraycopy(r, T_HIST, buckets, 0, BUCKETS);
                sites.add(new TimingSite(SiteIndexes.id(i), r[T_COUNT], r[T_TOTAL], r[T_MIN], r[T_MAX], buckets));
            }
        }
        sites.sort(Comparator.comparingLong(TimingSite::total).reversed().thenComparingInt(TimingSite::id));
        return sites;
    }

    static List<SampledSite> sampled(Totals t) {
        List<SampledSite> sites = new ArrayList<>();
        for (int i = 0; i < t.tables[SAMPLED].length; i++) {
            long[] r = t.tables[SAMPLED][i];
            if (r != null && r[S_COUNT] > 0) {
                sites.add(new SampledSite(SiteIndexes.id(i), r[S_COUNT], r[S_SAMPLES], r[S_TOTAL],
                        Double.longBitsToDouble(r[S_SUMSQ])));
            }
        }
        sites.sort(Comparator.comparingDouble(SampledSite::estimate).reversed().thenComparingInt(SampledSite::id));
        return sites;
    }

    static List<CountSite> counts(Totals t) {
        return countSites(t.counts);
    }

    /** Calls counted at call sites, per called method. */
    static List<CountSite> calls(Totals t) {
        return countSites(t.calls);
    }

    private static List<CountSite> countSites(long[] counts) {
        List<CountSite> sites = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                sites.add(new CountSite(SiteIndexes.id(i), counts[i]));
            }
        }
        sites.sort(Comparator.comparingLong(CountSite::count).reversed().thenComparingInt(CountSite::id));
        return sites;
    }

    static List<ValueSite> values(Totals t) {
        List<ValueSite> sites = new ArrayList<>();
        for (int i = 0; i < t.tables[VALUES].length; i++) {
            long[] r = t.tables[VALUES][i];
            if (r != null && r[V_COUNT] + r[V_NULLS] + r[V_NONNULLS] > 0) {
                boolean any = r[V_COUNT] > 0;
                sites.add(new ValueSite(SiteIndexes.id(i), r[V_COUNT], r[V_SUM], any ? r[V_MIN] : 0, any ? r[V_MAX] : 0,
                        r[V_NULLS], r[V_NONNULLS]));
            }
        }
        sites.sort(Comparator.comparingLong(ValueSite::events).reversed().thenComparingInt(ValueSite::id));
        return sites;
    }

    /** A lock site (id, or -1 for a lock class) or lock class (name), with thread names resolved. */
    record LockRow(int id, String name, long acquisitions, long contended, long waitNs, long maxWait, long holdNs,
                   long maxHold, String waiter, String holder) {
    }

    record AllocationRow(int id, long count, long arrays, long totalLength, long maxLength) {
    }

    /** A field (with its last writes, oldest first) or a writing site (no writes listed). */
    record FieldRow(int id, long writes, long unlocked, long noOwner, List<Write> last) {
    }

    /** One kept write: values as the report prints them. */
    record Write(String oldValue, String newValue, String thread, String locked) {
    }

    static final Comparator<LockRow> LOCK_ORDER = Comparator.comparingLong(LockRow::waitNs).reversed()
            .thenComparing(Comparator.comparingLong(LockRow::holdNs).reversed())
            .thenComparingInt(LockRow::id).thenComparing(LockRow::name);

    static List<LockRow> lockSites(Totals t) {
        List<LockRow> rows = new ArrayList<>();
        long[][] table = t.tables[LOCK_SITES];
        for (int i = 0; i < table.length; i++) {
            if (table[i] != null && table[i][L_ACQUISITIONS] + table[i][L_HOLDS] > 0) {
                int id = SiteIndexes.id(i);
                rows.add(lockRow(t, id, SiteTable.name(id), table[i]));
            }
        }
        rows.sort(LOCK_ORDER);
        return rows;
    }

    static List<LockRow> lockClasses(Totals t) {
        List<LockRow> rows = new ArrayList<>();
        long[][] table = t.tables[LOCK_CLASSES];
        for (int i = 0; i < table.length; i++) {
            if (table[i] != null && table[i][L_ACQUISITIONS] + table[i][L_HOLDS] > 0) {
                rows.add(lockRow(t, -1, LockClasses.name(i), table[i]));
            }
        }
        rows.sort(LOCK_ORDER);
        return rows;
    }

    /** Waiter and holder are named only for a contended longest wait; "" when unknown. */
    private static LockRow lockRow(Totals t, int id, String name, long[] r) {
        boolean contended = r[L_CONTENDED] > 0;
        return new LockRow(id, name, r[L_ACQUISITIONS], r[L_CONTENDED], r[L_WAIT], r[L_MAX_WAIT], r[L_HOLD],
                r[L_MAX_HOLD], contended ? t.threadName(r[L_WAITER]) : "", contended ? t.threadName(r[L_HOLDER]) : "");
    }

    static List<AllocationRow> allocations(Totals t, int kind) {
        List<AllocationRow> rows = new ArrayList<>();
        long[][] table = t.tables[kind];
        for (int i = 0; i < table.length; i++) {
            long[] r = table[i];
            if (r != null && r[A_COUNT] > 0) {
                rows.add(new AllocationRow(SiteIndexes.id(i), r[A_COUNT], r[A_ARRAYS], r[A_TOTAL_LENGTH], r[A_MAX_LENGTH]));
            }
        }
        rows.sort(Comparator.comparingLong(AllocationRow::count).reversed()
                .thenComparing(Comparator.comparingLong(AllocationRow::totalLength).reversed())
                .thenComparingInt(AllocationRow::id));
        return rows;
    }

    static List<FieldRow> fields(Totals t, int kind) {
        List<FieldRow> rows = new ArrayList<>();
        long[][] table = t.tables[kind];
        for (int i = 0; i < table.length; i++) {
            long[] r = table[i];
            if (r != null && r[F_WRITES] > 0) {
                rows.add(new FieldRow(SiteIndexes.id(i), r[F_WRITES], r[F_UNLOCKED], r[F_NO_OWNER],
                        kind == FIELDS ? lastWrites(t, r) : List.of()));
            }
        }
        rows.sort(Comparator.comparingLong(FieldRow::unlocked).reversed()
                .thenComparing(Comparator.comparingLong(FieldRow::writes).reversed())
                .thenComparingInt(FieldRow::id));
        return rows;
    }

    /** The ring of a merged field row, oldest first (merged rows keep it sorted; a live copy may not be). */
    private static List<Write> lastWrites(Totals t, long[] r) {
        List<long[]> entries = new ArrayList<>();
        for (int e = 0; e < RING; e++) {
            int base = F_RING + e * E_LENGTH;
            if (r[base + E_SEQ] != 0) {
                entries.add(java.util.Arrays.copyOfRange(r, base, base + E_LENGTH));
            }
        }
        entries.sort(Comparator.comparingLong(e -> e[E_SEQ]));
        List<Write> writes = new ArrayList<>();
        for (long[] e : entries) {
            long flags = e[E_FLAGS];
            boolean ref = (flags & W_REF) != 0;
            writes.add(new Write(
                    ref ? reference(e[E_OLD], (flags & W_OLD_NULL) != 0) : Long.toString(e[E_OLD]),
                    ref ? reference(e[E_NEW], (flags & W_NEW_NULL) != 0) : Long.toString(e[E_NEW]),
                    t.threadName(e[E_THREAD]),
                    (flags & W_NO_OWNER) != 0 ? "none" : Boolean.toString((flags & W_LOCKED) != 0)));
        }
        return writes;
    }

    /** {@code null}, or {@code @} and the identity hash in hex, as {@code Object.toString} shows it. */
    private static String reference(long hash, boolean isNull) {
        return isNull ? "null" : "@" + Integer.toHexString((int) hash);
    }

    /**
     * The q-quantile estimated from the log2 histogram: linear within the bucket holding rank ⌈q·n⌉, clamped to
     * the exact min and max (so a site with one distinct duration reports it exactly).
     */
    static double percentile(long[] buckets, long count, long min, long max, double q) {
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long below = 0;
        for (int b = 0; b < BUCKETS; b++) {
            long c = buckets[b];
            if (c > 0 && below + c >= rank) {
                double lo = b == 0 ? 0 : Math.scalb(1.0, b - 1);
                double hi = Math.scalb(1.0, b);
                double estimate = lo + (hi - lo) * (rank - below) / c;
                return Math.min(max, Math.max(min, estimate));
            }
            below += c;
        }
        return max;
    }

    /** Exclusive upper bound of bucket b, as the XML report prints it: 2^b (2^63 does not fit a long). */
    static String bucketUpper(int b) {
        return b < 63 ? Long.toString(1L << b) : "9223372036854775808";
    }

    // ---- text ----

    private static boolean noEvents(Totals t) {
        return timing(t).isEmpty() && sampled(t).isEmpty() && counts(t).isEmpty() && calls(t).isEmpty()
                && values(t).isEmpty() && lockSites(t).isEmpty() && allocations(t, ALLOC_SITES).isEmpty()
                && allocations(t, ALLOC_TYPES).isEmpty() && fields(t, FIELDS).isEmpty();
    }

    /** Whether the text report would say no more than "No events were recorded." (no failures, no site notes). */
    public static boolean empty(Data data) {
        return noEvents(data.totals()) && data.failureTotal() == 0 && data.malformedSiteLines() == 0
                && data.conflictingSiteLines() == 0 && !AnswerReport.active();
    }

    /** The text report, rows as wide as {@code dyper.report.width} says (default 120; 0: names never shortened). */
    public static String text(Data data) {
        int width = Config.reportWidth();
        String text = TextReport.render(sections(data), width);
        if (AnswerReport.active()) {
            // the questions' events are in the Answers section that follows
            text = text.replace("\nNo events were recorded.\n", "") + AnswerReport.text(width);
        }
        return text;
    }

    /** Everything the text report shows, names from the site table. */
    static TextReport.Sections sections(Data data) {
        Totals t = data.totals();
        List<TextReport.Sampled> sampled = new ArrayList<>();
        for (SampledSite s : sampled(t)) {
            sampled.add(new TextReport.Sampled(s.id(), s.count(), s.samples(), s.estimate(), s.error(), s.exact()));
        }
        return new TextReport.Sections(data.pid(), data.timeMillis(), data.sampleEvery(), Config.LOCK_CONTENDED_NS,
                timing(t), sampled, counts(t), calls(t), values(t), lockSites(t), lockClasses(t),
                allocations(t, ALLOC_SITES), allocations(t, ALLOC_TYPES), fields(t, FIELDS), fields(t, FIELD_SITES),
                data.failures(), data.failureOverflow(), data.failureTotal(), data.malformedSiteLines(),
                data.conflictingSiteLines(), SiteTable::name);
    }

    // ---- XML ----

    public static String xml(Data data) {
        return xml(data, null);
    }

    /** The XML report; {@code monitorReport} (may be null), the monitor's last report, becomes its last child. */
    public static String xml(Data data, String monitorReport) {
        Totals t = data.totals();
        StringBuilder x = new StringBuilder(4096);
        x.append("<DYPER_REPORT VERSION='1' PID='").append(data.pid()).append("' TIME='").append(data.timeMillis())
                .append("'>\n");
        x.append("  <COUNTS>\n");
        for (CountSite s : counts(t)) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("'/>\n");
        }
        x.append("  </COUNTS>\n");
        x.append("  <CALLS>\n");
        for (CountSite s : calls(t)) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("'/>\n");
        }
        x.append("  </CALLS>\n");
        x.append("  <TIMING>\n");
        for (TimingSite s : timing(t)) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("' TOTAL_NS='").append(s.total())
                    .append("' MIN_NS='").append(s.min()).append("' MAX_NS='").append(s.max())
                    .append("' MEAN_NS='").append(Math.round(s.mean())).append("'>\n");
            for (int b = 0; b < BUCKETS; b++) {
                if (s.buckets()[b] > 0) {
                    x.append("      <BUCKET UPPER_NS='").append(bucketUpper(b)).append("' COUNT='")
                            .append(s.buckets()[b]).append("'/>\n");
                }
            }
            x.append("    </SITE>\n");
        }
        x.append("  </TIMING>\n");
        x.append("  <SAMPLED_TIMING EVERY='").append(data.sampleEvery()).append("'>\n");
        for (SampledSite s : sampled(t)) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("' SAMPLES='").append(s.samples())
                    .append("' SAMPLED_TOTAL_NS='").append(s.sampledTotal())
                    .append("' ESTIMATED_TOTAL_NS='").append(Math.round(s.estimate()))
                    .append("' ERROR_NS='").append(Math.round(s.error()))
                    .append("' EXACT='").append(s.exact()).append("'/>\n");
        }
        x.append("  </SAMPLED_TIMING>\n");
        x.append("  <VALUES>\n");
        for (ValueSite s : values(t)) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("' SUM='").append(s.sum())
                    .append("' MIN='").append(s.min()).append("' MAX='").append(s.max())
                    .append("' NULLS='").append(s.nulls()).append("' NONNULLS='").append(s.nonNulls())
                    .append("'/>\n");
        }
        x.append("  </VALUES>\n");
        x.append("  <LOCKS CONTENDED_NS='").append(Config.LOCK_CONTENDED_NS).append("'>\n");
        for (LockRow r : lockSites(t)) {
            lockXml(site(x, r.id()), r);
        }
        for (LockRow r : lockClasses(t)) {
            x.append("    <LOCK_CLASS NAME='");
            lockXml(escape(x, r.name()).append('\''), r);
        }
        x.append("  </LOCKS>\n");
        x.append("  <ALLOCATIONS>\n");
        for (AllocationRow r : allocations(t, ALLOC_SITES)) {
            site(x, r.id()).append(" COUNT='").append(r.count()).append("' ARRAYS='").append(r.arrays())
                    .append("' TOTAL_LENGTH='").append(r.totalLength()).append("' MAX_LENGTH='")
                    .append(r.maxLength()).append("'/>\n");
        }
        for (AllocationRow r : allocations(t, ALLOC_TYPES)) {
            x.append("    <TYPE ID='").append(r.id()).append("' NAME='");
            escape(x, SiteTable.name(r.id())).append("' COUNT='").append(r.count()).append("' TOTAL_LENGTH='")
                    .append(r.totalLength()).append("' MAX_LENGTH='").append(r.maxLength()).append("'/>\n");
        }
        x.append("  </ALLOCATIONS>\n");
        x.append("  <FIELDS>\n");
        for (FieldRow r : fields(t, FIELDS)) {
            x.append("    <FIELD ID='").append(r.id()).append("' NAME='");
            fieldCounts(escape(x, SiteTable.name(r.id())).append('\''), r).append(">\n");
            for (Write w : r.last()) {
                x.append("      <WRITE OLD='").append(w.oldValue()).append("' NEW='").append(w.newValue())
                        .append("' THREAD='");
                escape(x, w.thread()).append("' LOCKED='").append(w.locked()).append("'/>\n");
            }
            x.append("    </FIELD>\n");
        }
        for (FieldRow r : fields(t, FIELD_SITES)) {
            fieldCounts(site(x, r.id()), r).append("/>\n");
        }
        x.append("  </FIELDS>\n");
        x.append(AnswerReport.xml());
        x.append("  <FAILURES TOTAL='").append(data.failureTotal()).append("'>\n");
        for (Failures.Site s : data.failures()) {
            site(x, s.id()).append(" COUNT='").append(s.count()).append("' FIRST='");
            escape(x, s.first()).append("'/>\n");
        }
        x.append("  </FAILURES>\n");
        if (monitorReport != null) {
            x.append("  ").append(monitorReport).append('\n');
        }
        x.append("</DYPER_REPORT>\n");
        return x.toString();
    }

    private static void lockXml(StringBuilder x, LockRow r) {
        x.append(" ACQUISITIONS='").append(r.acquisitions()).append("' CONTENDED='").append(r.contended())
                .append("' WAIT_NS='").append(r.waitNs()).append("' MAX_WAIT_NS='").append(r.maxWait())
                .append("' HOLD_NS='").append(r.holdNs()).append("' MAX_HOLD_NS='").append(r.maxHold())
                .append("' WAITER='");
        escape(x, r.waiter()).append("' HOLDER='");
        escape(x, r.holder()).append("'/>\n");
    }

    private static StringBuilder fieldCounts(StringBuilder x, FieldRow r) {
        return x.append(" WRITES='").append(r.writes()).append("' UNLOCKED_WRITES='").append(r.unlocked())
                .append("' NO_OWNER_WRITES='").append(r.noOwner()).append('\'');
    }

    private static StringBuilder site(StringBuilder x, int id) {
        x.append("    <SITE ID='").append(id).append("' NAME='");
        return escape(x, SiteTable.name(id)).append('\'');
    }

    /** Escapes for a single-quoted attribute; characters XML 1.0 cannot carry at all become U+FFFD. */
    public static StringBuilder escape(StringBuilder x, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> x.append("&amp;");
                case '<' -> x.append("&lt;");
                case '>' -> x.append("&gt;");
                case '\'' -> x.append("&apos;");
                case '"' -> x.append("&quot;");
                case '\t' -> x.append("&#9;");
                case '\n' -> x.append("&#10;");
                case '\r' -> x.append("&#13;");
                default -> {
                    if (c < 0x20 || c == 0xFFFE || c == 0xFFFF) {
                        x.append('\uFFFD');
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        x.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        x.append('\uFFFD');
                    } else {
                        x.append(c);
                    }
                }
            }
        }
        return x;
    }
}
