package org.dyper.runtime.monitor.internal.detailing;

import static org.dyper.runtime.internal.ThreadData.BUCKETS;
import static org.dyper.runtime.internal.ThreadData.T_COUNT;
import static org.dyper.runtime.internal.ThreadData.T_HIST;
import static org.dyper.runtime.internal.ThreadData.T_MAX;
import static org.dyper.runtime.internal.ThreadData.T_MIN;
import static org.dyper.runtime.internal.ThreadData.T_TOTAL;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dyper.runtime.instrument.RuntimePatcher;
import org.dyper.runtime.internal.Registry;
import org.dyper.runtime.internal.Totals;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;
import org.dyper.runtime.wire.Xml;

/**
 * What automatic detailing adds to REPORT's DETAIL section: its state, and for every method it detailed the exact
 * figures its patch measured ({@code <EXACT EXACT='true'>}: all periods it was patched together) beside the sampled
 * estimate ({@code <ESTIMATE EXACT='false'>}), the calls detailed methods made, what was skipped and what failed.
 */
public final class DetailReport {
    private DetailReport() {}

    /** The DETAIL element. */
    public static String xml(Monitor m, Detailer d) {
        StringBuilder a = new StringBuilder();
        StringBuilder x = new StringBuilder();
        synchronized (d) {
            boolean on = m.settings.bool("DETAIL");
            a.append(" AUTO='").append(on).append("' STATE='")
                    .append(!on ? "OFF" : d.waiting != null ? "WAITING" : "ON").append("' MODEL='")
                    .append(Detailer.MODEL).append("' MAX='").append(m.settings.longValue("DETAIL_MAX"))
                    .append("' DETAILED='").append(d.inserted.size()).append("' PATCHES='").append(d.patches)
                    .append("' REMOVALS='").append(d.removals).append("' FAILURES='").append(d.failureCount)
                    .append('\'');
            if (d.started != 0) {
                a.append(" STARTED='").append(d.started).append('\'');
            }
            if (d.stopped != 0) {
                a.append(" STOPPED='").append(d.stopped).append('\'');
            }
            if (on && d.waiting != null) {
                x.append("<WAITING>").append(Xml.text(d.waiting)).append("</WAITING>");
            }
            figures(m, d, x);
            for (Map.Entry<String, String> s : d.skipped.entrySet()) {
                x.append("<SKIPPED ITEM='").append(Xml.esc(s.getKey())).append("' REASON='")
                        .append(Xml.esc(s.getValue())).append("'/>");
            }
            kinds(x, "FAILURE", d.failures);
            kinds(x, "NOTE", d.notes);
        }
        return m.cpu.detailXml(a.toString(), x.toString());
    }

    private static void kinds(StringBuilder x, String tag, Map<String, Detailer.Failure> kinds) {
        for (Detailer.Failure f : kinds.values()) {
            x.append('<').append(tag).append(" WHAT='").append(Xml.esc(f.what)).append("' COUNT='").append(f.count)
                    .append("' LAST='").append(f.last).append("'>").append(Xml.text(f.reason)).append("</")
                    .append(tag).append('>');
        }
    }

    /** The DETAILED items and the CALLS, from the site tables of every insert (the same patch has the same ids). */
    private static void figures(Monitor m, Detailer d, StringBuilder x) {
        if (d.items.isEmpty()) {
            return;
        }
        RuntimePatcher patcher = RuntimePatcher.get();
        Map<String, Set<Integer>> timingIds = new TreeMap<>();
        Map<String, Set<Integer>> callIds = new TreeMap<>();
        for (Detailer.Insert ins : d.inserts.values()) {
            int first = ins.firstSiteId() > 0 ? ins.firstSiteId() : patcher == null ? 0
                    : patcher.firstSiteId(ins.patchId());
            if (first <= 0) {
                continue;
            }
            for (String line : ins.siteTable().split("\n")) {
                String[] f = line.split("\t", -1);
                if (f.length < 4 || !f[1].equals("METHOD")) {
                    continue;
                }
                int id;
                try {
                    id = first - 1 + Integer.parseInt(f[0].trim());
                } catch (NumberFormatException e) {
                    continue;
                }
                String item = f[2] + "#" + f[3];
                if (d.items.containsKey(item)) {
                    timingIds.computeIfAbsent(item, k -> new LinkedHashSet<>()).add(id);
                }
                callIds.computeIfAbsent(f[2] + "." + f[3] + "(" + (f.length > 4 ? f[4] : "") + ")",
                        k -> new LinkedHashSet<>()).add(id);
            }
        }
        Totals t = Registry.snapshot();
        for (Detailer.Item i : d.items.values()) {
            String item = i.className + "#" + i.method;
            boolean now = d.inserted.contains(item);
            x.append("<DETAILED CLASS='").append(Xml.esc(i.className)).append("' NAME='").append(Xml.esc(i.method))
                    .append("' STATE='").append(now ? "PATCHED" : "REMOVED").append("' SINCE='").append(i.since)
                    .append('\'');
            if (!now) {
                x.append(" UNTIL='").append(i.until).append('\'');
            }
            x.append(" PERIODS='").append(i.periods).append("'>");
            exact(x, t, timingIds.getOrDefault(item, Set.of()));
            CpuAgent.MethodTotal s = m.cpu.method(i.className, i.method);
            x.append("<ESTIMATE EXACT='false' SELF='").append(s == null ? 0 : s.self()).append("' TOTAL='")
                    .append(s == null ? 0 : s.total()).append("' SELF_NS='").append(s == null ? 0 : s.selfNs())
                    .append("' TOTAL_NS='").append(s == null ? 0 : s.totalNs()).append("'/></DETAILED>");
        }
        x.append("<CALLS EXACT='true'>");
        for (Map.Entry<String, Set<Integer>> c : callIds.entrySet()) {
            long n = 0;
            for (int id : c.getValue()) {
                n += t.calls(id);
            }
            if (n > 0) {
                x.append("<CALL NAME='").append(Xml.esc(c.getKey())).append("' COUNT='").append(n).append("'/>");
            }
        }
        x.append("</CALLS>");
    }

    /** The timing rows of {@code ids} merged: count, total, min, max, mean and the log2 histogram. */
    private static void exact(StringBuilder x, Totals t, Set<Integer> ids) {
        long count = 0;
        long total = 0;
        long min = Long.MAX_VALUE;
        long max = 0;
        long[] buckets = new long[BUCKETS];
        for (int id : ids) {
            long[] r = t.timing(id);
            if (r == null || r[T_COUNT] == 0) {
                continue;
            }
            count += r[T_COUNT];
            total += r[T_TOTAL];
            min = Math.min(min, r[T_MIN]);
            max = Math.max(max, r[T_MAX]);
            for (int b = 0; b < BUCKETS; b++) {
                buckets[b] += r[T_HIST + b];
            }
        }
        x.append("<EXACT EXACT='true' COUNT='").append(count).append("' TOTAL_NS='").append(total);
        if (count > 0) {
            x.append("' MIN_NS='").append(min).append("' MAX_NS='").append(max).append("' MEAN_NS='")
                    .append(Math.round((double) total / count));
        }
        x.append("'>");
        for (int b = 0; b < BUCKETS; b++) {
            if (buckets[b] > 0) {
                x.append("<BUCKET UPPER_NS='").append(b < 63 ? Long.toString(1L << b) : "9223372036854775808")
                        .append("' COUNT='").append(buckets[b]).append("'/>");
            }
        }
        x.append("</EXACT>");
    }
}
