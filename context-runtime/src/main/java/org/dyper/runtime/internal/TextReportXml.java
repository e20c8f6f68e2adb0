package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.BUCKETS;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Reads an XML report ({@code <DYPER_REPORT>}, docs/runtime-contract.md) back into the text report's sections, so a
 * report taken from another process ({@code dyper ctl PID REPORT}) reads like the one printed at exit, with the same
 * exact figures and the same percentile estimates.
 */
public final class TextReportXml {
    private final Map<Integer, String> names = new HashMap<>();
    private int nextId = -2;

    private TextReportXml() {
    }

    /** The sections of {@code report}, a {@code <DYPER_REPORT>} element. */
    public static TextReport.Sections read(Element report) {
        return new TextReportXml().sections(report);
    }

    private TextReport.Sections sections(Element r) {
        List<Reports.TimingSite> timing = rows(r, "TIMING", "SITE", e -> {
            long[] buckets = new long[BUCKETS];
            for (Element b : children(e, "BUCKET")) {
                String upper = b.getAttribute("UPPER_NS");
                int bucket = upper.equals("9223372036854775808") ? 63 : 63 - Long.numberOfLeadingZeros(num(upper));
                if (bucket >= 0 && bucket < BUCKETS) {
                    buckets[bucket] += num(b.getAttribute("COUNT"));
                }
            }
            return new Reports.TimingSite(id(e), num(e, "COUNT"), num(e, "TOTAL_NS"), num(e, "MIN_NS"),
                    num(e, "MAX_NS"), buckets);
        });
        List<TextReport.Sampled> sampled = rows(r, "SAMPLED_TIMING", "SITE", e -> new TextReport.Sampled(id(e),
                num(e, "COUNT"), num(e, "SAMPLES"), num(e, "ESTIMATED_TOTAL_NS"), num(e, "ERROR_NS"),
                "true".equals(e.getAttribute("EXACT"))));
        List<Reports.CountSite> counts = rows(r, "COUNTS", "SITE", e -> new Reports.CountSite(id(e), num(e, "COUNT")));
        List<Reports.CountSite> calls = rows(r, "CALLS", "SITE", e -> new Reports.CountSite(id(e), num(e, "COUNT")));
        List<Reports.ValueSite> values = rows(r, "VALUES", "SITE", e -> new Reports.ValueSite(id(e), num(e, "COUNT"),
                num(e, "SUM"), num(e, "MIN"), num(e, "MAX"), num(e, "NULLS"), num(e, "NONNULLS")));
        List<Reports.LockRow> lockSites = rows(r, "LOCKS", "SITE", e -> lock(e, id(e)));
        List<Reports.LockRow> lockClasses = rows(r, "LOCKS", "LOCK_CLASS", e -> lock(e, -1));
        List<Reports.AllocationRow> allocSites = rows(r, "ALLOCATIONS", "SITE", e -> new Reports.AllocationRow(id(e),
                num(e, "COUNT"), num(e, "ARRAYS"), num(e, "TOTAL_LENGTH"), num(e, "MAX_LENGTH")));
        List<Reports.AllocationRow> allocTypes = rows(r, "ALLOCATIONS", "TYPE", e -> new Reports.AllocationRow(id(e),
                num(e, "COUNT"), e.getAttribute("NAME").endsWith("]") ? num(e, "COUNT") : 0, num(e, "TOTAL_LENGTH"),
                num(e, "MAX_LENGTH")));
        List<Reports.FieldRow> fields = rows(r, "FIELDS", "FIELD", e -> {
            List<Reports.Write> writes = new ArrayList<>();
            for (Element w : children(e, "WRITE")) {
                writes.add(new Reports.Write(w.getAttribute("OLD"), w.getAttribute("NEW"), w.getAttribute("THREAD"),
                        w.getAttribute("LOCKED")));
            }
            return new Reports.FieldRow(id(e), num(e, "WRITES"), num(e, "UNLOCKED_WRITES"), num(e, "NO_OWNER_WRITES"),
                    writes);
        });
        List<Reports.FieldRow> fieldSites = rows(r, "FIELDS", "SITE", e -> new Reports.FieldRow(id(e),
                num(e, "WRITES"), num(e, "UNLOCKED_WRITES"), num(e, "NO_OWNER_WRITES"), List.of()));
        List<Failures.Site> failures = rows(r, "FAILURES", "SITE", e -> new Failures.Site(id(e), num(e, "COUNT"),
                e.getAttribute("FIRST")));
        Element failed = child(r, "FAILURES");
        long failureTotal = failed == null ? 0 : num(failed, "TOTAL");
        long listed = failures.stream().mapToLong(Failures.Site::count).sum();
        Element every = child(r, "SAMPLED_TIMING");
        Element locks = child(r, "LOCKS");
        return new TextReport.Sections(num(r, "PID"), num(r, "TIME"), every == null ? 0 : (int) num(every, "EVERY"),
                locks == null ? Config.LOCK_CONTENDED_NS : num(locks, "CONTENDED_NS"), timing, sampled, counts, calls,
                values, lockSites, lockClasses, allocSites, allocTypes, fields, fieldSites, failures,
                Math.max(0, failureTotal - listed), failureTotal, 0, 0, id -> names.getOrDefault(id, "?"));
    }

    /** Every {@code tag} child of section {@code section}, in the report's order (by cost). */
    private static <T> List<T> rows(Element r, String section, String tag, Function<Element, T> row) {
        List<T> out = new ArrayList<>();
        for (Element e : children(child(r, section), tag)) {
            out.add(row.apply(e));
        }
        return out;
    }

    private Reports.LockRow lock(Element e, int id) {
        return new Reports.LockRow(id, e.getAttribute("NAME"), num(e, "ACQUISITIONS"), num(e, "CONTENDED"),
                num(e, "WAIT_NS"), num(e, "MAX_WAIT_NS"), num(e, "HOLD_NS"), num(e, "MAX_HOLD_NS"),
                e.getAttribute("WAITER"), e.getAttribute("HOLDER"));
    }

    /** The element's ID (a fresh negative one when it has none), remembering its NAME for the text. */
    private int id(Element e) {
        int id = e.hasAttribute("ID") ? (int) num(e, "ID") : nextId--;
        names.put(id, e.getAttribute("NAME"));
        return id;
    }

    private static long num(Element e, String attribute) {
        return num(e.getAttribute(attribute));
    }

    private static long num(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException ex) {
            return 0;
        }
    }

    /** The first child element {@code tag} of {@code e} (null when none, or when {@code e} is null). */
    public static Element child(Element e, String tag) {
        return org.dyper.runtime.wire.Xml.child(e, tag);
    }

    /** The child elements {@code tag} of {@code e} ({@code tag} null: all), in order; none when {@code e} is null. */
    public static List<Element> children(Element e, String tag) {
        return org.dyper.runtime.wire.Xml.children(e, tag);
    }
}
