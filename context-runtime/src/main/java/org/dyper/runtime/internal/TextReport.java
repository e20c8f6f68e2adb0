package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.Reports.AllocationRow;
import static org.dyper.runtime.internal.Reports.CountSite;
import static org.dyper.runtime.internal.Reports.FieldRow;
import static org.dyper.runtime.internal.Reports.LockRow;
import static org.dyper.runtime.internal.Reports.TimingSite;
import static org.dyper.runtime.internal.Reports.ValueSite;
import static org.dyper.runtime.internal.Reports.Write;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The text report (for people): the sections of the instrumentation's figures as tables that fit a terminal
 * ({@link TextTable}), from live data ({@link Reports}) or from an XML report ({@link TextReportXml}).
 */
public final class TextReport {
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss xxx", Locale.ROOT);

    /** A sampled-timing site as the text shows it. */
    public record Sampled(int id, long count, long samples, double estimate, double error, boolean exact) {
    }

    /** Everything one text report shows; {@code names} names the ids. */
    public record Sections(long pid, long timeMillis, int sampleEvery, long contendedNs, List<TimingSite> timing,
                           List<Sampled> sampled, List<CountSite> counts, List<CountSite> calls,
                           List<ValueSite> values, List<LockRow> lockSites, List<LockRow> lockClasses,
                           List<AllocationRow> allocationSites, List<AllocationRow> allocationTypes,
                           List<FieldRow> fields, List<FieldRow> fieldSites, List<Failures.Site> failures,
                           long failureOverflow, long failureTotal, long malformed, long conflicts,
                           IntFunction<String> names) {
    }

    private final Sections data;
    private final int width;

    private TextReport(Sections data, int width) {
        this.data = data;
        this.width = width;
    }

    /** The report with rows fitting {@code width} columns where names can be shortened (0: whole names). */
    public static String render(Sections sections, int width) {
        return new TextReport(sections, width).render();
    }

    private String name(int id) {
        return data.names().apply(id);
    }

    private String render() {
        StringBuilder out = new StringBuilder(4096);
        out.append("Dyper report — pid ").append(data.pid()).append(", ")
                .append(DATE.format(Instant.ofEpochMilli(data.timeMillis()).atZone(ZoneId.systemDefault())))
                .append('\n');
        List<TimingSite> timing = data.timing();
        List<Sampled> sampled = data.sampled();
        List<CountSite> counts = data.counts();
        List<CountSite> calls = data.calls();
        List<ValueSite> values = data.values();
        List<LockRow> lockSites = data.lockSites();
        List<AllocationRow> allocationSites = data.allocationSites();
        List<AllocationRow> allocationTypes = data.allocationTypes();
        List<FieldRow> fields = data.fields();
        if (timing.isEmpty() && sampled.isEmpty() && counts.isEmpty() && calls.isEmpty() && values.isEmpty()
                && lockSites.isEmpty() && allocationSites.isEmpty() && allocationTypes.isEmpty() && fields.isEmpty()) {
            out.append("\nNo events were recorded.\n");
        }
        if (!timing.isEmpty()) {
            TextTable table = new TextTable("site", "calls", "total", "mean", "min", "max", "p50 (est.)", "p99 (est.)");
            for (TimingSite s : timing) {
                table.row(name(s.id()), Units.count(s.count()), Units.duration(s.total()),
                        Units.duration(s.mean()), Units.duration(s.min()), Units.duration(s.max()),
                        Units.duration(Reports.percentile(s.buckets(), s.count(), s.min(), s.max(), 0.50)),
                        Units.duration(Reports.percentile(s.buckets(), s.count(), s.min(), s.max(), 0.99)));
            }
            section(out, "Timing", "every call timed; percentiles estimated from a log2 histogram", table);
        }
        if (!sampled.isEmpty()) {
            TextTable table = new TextTable("site", "calls", "samples", "total (estimate)", "± 1 std. error");
            for (Sampled s : sampled) {
                boolean none = s.samples() == 0;
                table.row(name(s.id()), Units.count(s.count()), Units.count(s.samples()),
                        none ? "no samples" : Units.duration(s.estimate()) + (s.exact() ? " (exact)" : ""),
                        none ? "-" : "± " + Units.duration(s.error()));
            }
            section(out, "Sampled timing", "calls counted exactly; one call in " + data.sampleEvery()
                    + " per thread and site timed; totals are estimates", table);
        }
        if (!counts.isEmpty()) {
            TextTable table = new TextTable("site", "count");
            for (CountSite s : counts) {
                table.row(name(s.id()), Units.count(s.count()));
            }
            section(out, "Counts", null, table);
        }
        if (!calls.isEmpty()) {
            TextTable table = new TextTable("site", "calls");
            for (CountSite s : calls) {
                table.row(name(s.id()), Units.count(s.count()));
            }
            section(out, "Calls", "counted at call sites", table);
        }
        if (!values.isEmpty()) {
            // numbers and references are columns of their own, shown only when some site recorded them
            boolean numbers = values.stream().anyMatch(v -> v.count() > 0);
            boolean references = values.stream().anyMatch(v -> v.nulls() + v.nonNulls() > 0);
            List<String> header = new ArrayList<>(List.of("site"));
            if (numbers) {
                header.addAll(List.of("count", "sum", "min", "max"));
            }
            if (references) {
                header.addAll(List.of("nulls", "non-nulls"));
            }
            TextTable table = new TextTable(header.toArray(String[]::new));
            for (ValueSite s : values) {
                boolean any = s.count() > 0;
                List<String> cells = new ArrayList<>(List.of(name(s.id())));
                if (numbers) {
                    cells.addAll(List.of(Units.count(s.count()), any ? Units.count(s.sum()) : "-",
                            any ? Units.count(s.min()) : "-", any ? Units.count(s.max()) : "-"));
                }
                if (references) {
                    cells.addAll(List.of(Units.count(s.nulls()), Units.count(s.nonNulls())));
                }
                table.row(cells.toArray(String[]::new));
            }
            section(out, "Values", null, table);
        }
        if (!lockSites.isEmpty()) {
            lockText(out, lockSites, data.lockClasses());
        }
        if (!allocationSites.isEmpty() || !allocationTypes.isEmpty()) {
            allocationText(out, allocationSites, allocationTypes);
        }
        if (!fields.isEmpty()) {
            fieldText(out, fields, data.fieldSites());
        }
        long failureTotal = data.failureTotal();
        if (failureTotal > 0) {
            TextTable table = new TextTable("site", "failures", "first failure").lastLeft();
            for (Failures.Site s : data.failures()) {
                table.row(name(s.id()), Units.count(s.count()), s.first());
            }
            if (data.failureOverflow() > 0) {
                table.row("(other sites)", Units.count(data.failureOverflow()), "");
            }
            section(out, "Failures", plural(failureTotal, "hook failure") + "; the application was not affected",
                    table);
        }
        if (data.malformed() > 0 || data.conflicts() > 0) {
            out.append("\nSite table: ").append(plural(data.malformed(), "malformed line"))
                    .append(" skipped, ").append(plural(data.conflicts(), "id"))
                    .append(" renamed by a later definition\n");
        }
        return out.toString();
    }

    private void lockText(StringBuilder out, List<LockRow> sites, List<LockRow> classes) {
        String[] header = {"acquisitions", "contended", "wait", "max wait", "hold", "max hold", "longest wait"};
        TextTable bySite = lockTable("lock site", header);
        for (LockRow r : sites) {
            lockLine(bySite, r);
        }
        section(out, "Lock contention", "a wait over " + Units.duration(data.contendedNs())
                + " counts as contended; the holder is a best-effort name", bySite.lastLeft());
        if (!classes.isEmpty()) {
            TextTable byClass = lockTable("lock class", header).lastLeft();
            for (LockRow r : classes) {
                lockLine(byClass, r);
            }
            out.append('\n');
            byClass.appendTo(out, width);
        }
    }

    private TextTable lockTable(String first, String[] header) {
        String[] cells = new String[header.length + 1];
        cells[0] = first;
        System.arraycopy(header, 0, cells, 1, header.length);
        return new TextTable(cells);
    }

    private void lockLine(TextTable table, LockRow r) {
        String longest = r.contended() == 0 ? "-"
                : (r.waiter().isEmpty() ? "?" : r.waiter()) + " waited for "
                        + (r.holder().isEmpty() ? "an unknown holder" : r.holder());
        table.row(r.name(), Units.count(r.acquisitions()), Units.count(r.contended()), Units.duration(r.waitNs()),
                Units.duration(r.maxWait()), Units.duration(r.holdNs()), Units.duration(r.maxHold()), longest);
    }

    private void allocationText(StringBuilder out, List<AllocationRow> sites, List<AllocationRow> types) {
        TextTable bySite = new TextTable("allocating site", "allocations", "arrays", "total length", "max length");
        for (AllocationRow r : sites) {
            bySite.row(name(r.id()), Units.count(r.count()), Units.count(r.arrays()),
                    r.arrays() > 0 ? Units.count(r.totalLength()) : "-",
                    r.arrays() > 0 ? Units.count(r.maxLength()) : "-");
        }
        section(out, "Allocations", "objects and arrays per allocating site and per type", bySite);
        if (!types.isEmpty()) {
            TextTable byType = new TextTable("type", "allocations", "total length", "max length");
            for (AllocationRow r : types) {
                byType.row(name(r.id()), Units.count(r.count()),
                        r.arrays() > 0 ? Units.count(r.totalLength()) : "-",
                        r.arrays() > 0 ? Units.count(r.maxLength()) : "-");
            }
            out.append('\n');
            byType.appendTo(out, width);
        }
    }

    private void fieldText(StringBuilder out, List<FieldRow> fields, List<FieldRow> sites) {
        TextTable byField = new TextTable("field", "writes", "unlocked", "static");
        for (FieldRow r : fields) {
            byField.row(name(r.id()), Units.count(r.writes()), Units.count(r.unlocked()),
                    Units.count(r.noOwner()));
        }
        section(out, "Field writes", "unlocked: written without holding the owner object's monitor", byField);
        if (!sites.isEmpty()) {
            TextTable bySite = new TextTable("writing site", "writes", "unlocked", "static");
            for (FieldRow r : sites) {
                bySite.row(name(r.id()), Units.count(r.writes()), Units.count(r.unlocked()),
                        Units.count(r.noOwner()));
            }
            out.append('\n');
            bySite.appendTo(out, width);
        }
        for (FieldRow r : fields) {
            if (r.unlocked() > 0) {
                out.append("\n  UNLOCKED WRITES: ").append(name(r.id())).append(": ")
                        .append(Units.count(r.unlocked())).append(" of ").append(plural(r.writes(), "write"))
                        .append(" without holding the owner's monitor\n");
            }
        }
        for (FieldRow r : fields) {
            out.append("\n  last writes of ").append(name(r.id())).append(" (oldest first):\n");
            TextTable last = new TextTable("#", "old", "new", "thread", "owner's monitor").lastLeft();
            int n = 0;
            for (Write w : r.last()) {
                last.row(Integer.toString(++n), w.oldValue(), w.newValue(), w.thread(),
                        w.locked().equals("none") ? "static field" : w.locked().equals("true") ? "held" : "NOT HELD");
            }
            StringBuilder rows = new StringBuilder();
            last.appendTo(rows);
            rows.toString().lines().forEach(line -> out.append("  ").append(line).append('\n'));
        }
    }

    private static String plural(long n, String noun) {
        return Units.count(n) + " " + noun + (n == 1 ? "" : "s");
    }

    private void section(StringBuilder out, String title, String note, TextTable table) {
        out.append('\n').append(title);
        if (note != null) {
            out.append(" (").append(note).append(')');
        }
        out.append('\n');
        table.appendTo(out, width);
    }
}
