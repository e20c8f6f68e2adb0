package org.dyper.cli.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The exact figures of a MONITOR_REPORT's INSTRUMENTATION section, per method: the TIMING rows of a method (one per
 * version of a model that patched it, and per overload) added up under {@code pkg.Class.method}, the name its frames
 * have in the flame graph; percentiles from the merged log2 histogram.
 */
final class Exact {
    private Exact() {
    }

    /** {@code org.x.Bank.transfer(int,long)} -> {@code org.x.Bank.transfer}. */
    static String method(String siteName) {
        int paren = siteName.indexOf('(');
        return paren < 0 ? siteName : siteName.substring(0, paren);
    }

    /** The per-method figures and the calls the patched methods made, as the API's JSON. */
    static Map<String, Object> of(Element report, Set<String> measured) {
        Map<String, Object> out = new LinkedHashMap<>();
        Element instrumentation = report == null ? null : Xml.child(report, "INSTRUMENTATION");
        Element dyper = instrumentation == null ? null : Xml.child(instrumentation, "DYPER_REPORT");
        Map<String, long[]> sums = new LinkedHashMap<>();          // calls, total, min, max
        Map<String, TreeMap<Long, Long>> histograms = new LinkedHashMap<>();
        Map<String, List<String>> signatures = new LinkedHashMap<>();
        if (dyper != null && Xml.child(dyper, "TIMING") != null) {
            for (Element site : Xml.children(Xml.child(dyper, "TIMING"), "SITE")) {
                String name = method(site.getAttribute("NAME"));
                long[] s = sums.computeIfAbsent(name, k -> new long[] {0, 0, Long.MAX_VALUE, 0});
                long count = Long.parseLong(site.getAttribute("COUNT"));
                s[0] += count;
                s[1] += Long.parseLong(site.getAttribute("TOTAL_NS"));
                if (count > 0) {
                    s[2] = Math.min(s[2], Long.parseLong(site.getAttribute("MIN_NS")));
                    s[3] = Math.max(s[3], Long.parseLong(site.getAttribute("MAX_NS")));
                }
                TreeMap<Long, Long> h = histograms.computeIfAbsent(name, k -> new TreeMap<>());
                for (Element b : Xml.children(site, "BUCKET")) {
                    h.merge(Long.parseLong(b.getAttribute("UPPER_NS")), Long.parseLong(b.getAttribute("COUNT")),
                            Long::sum);
                }
                List<String> sig = signatures.computeIfAbsent(name, k -> new ArrayList<>());
                if (!sig.contains(site.getAttribute("NAME"))) {
                    sig.add(site.getAttribute("NAME"));
                }
            }
        }
        List<Object> methods = new ArrayList<>();
        for (String m : measured) {
            sums.putIfAbsent(m, new long[] {0, 0, Long.MAX_VALUE, 0});
        }
        for (Map.Entry<String, long[]> e : sums.entrySet()) {
            long[] s = e.getValue();
            TreeMap<Long, Long> h = histograms.getOrDefault(e.getKey(), new TreeMap<>());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("method", e.getKey());
            row.put("measured", measured.contains(e.getKey()));
            row.put("signatures", signatures.getOrDefault(e.getKey(), List.of()));
            row.put("calls", s[0]);
            row.put("totalNs", s[1]);
            row.put("meanNs", s[0] == 0 ? 0 : Math.round((double) s[1] / s[0]));
            row.put("minNs", s[0] == 0 ? 0 : s[2]);
            row.put("maxNs", s[3]);
            row.put("p50Ns", percentile(h, 0.50));
            row.put("p99Ns", percentile(h, 0.99));
            List<Object> buckets = new ArrayList<>();
            h.forEach((upper, count) -> buckets.add(List.of(upper, count)));
            row.put("histogram", buckets);
            methods.add(row);
        }
        out.put("methods", methods);
        List<Object> calls = new ArrayList<>();
        if (dyper != null && Xml.child(dyper, "CALLS") != null) {
            Map<String, Long> byName = new LinkedHashMap<>();
            for (Element site : Xml.children(Xml.child(dyper, "CALLS"), "SITE")) {
                byName.merge(site.getAttribute("NAME"), Long.parseLong(site.getAttribute("COUNT")), Long::sum);
            }
            byName.forEach((name, count) -> calls.add(Map.of("name", name, "count", count)));
        }
        out.put("calls", calls);
        return out;
    }

    /** The upper bound (exclusive, ns) of the log2 bucket that holds the {@code q} quantile; 0 without calls. */
    static long percentile(TreeMap<Long, Long> histogram, double q) {
        long all = 0;
        for (long c : histogram.values()) {
            all += c;
        }
        if (all == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * all);
        long seen = 0;
        for (Map.Entry<Long, Long> b : histogram.entrySet()) {
            seen += b.getValue();
            if (seen >= rank) {
                return b.getKey();
            }
        }
        return histogram.lastKey();
    }
}
