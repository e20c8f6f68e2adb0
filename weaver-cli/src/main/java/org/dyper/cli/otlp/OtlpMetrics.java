package org.dyper.cli.otlp;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * A DYPER_REPORT's exact figures as one OTLP {@code ExportMetricsServiceRequest} (opentelemetry-proto
 * {@code collector/metrics/v1}), encoded with {@link ProtoWriter}: counters as monotonic cumulative Sums, timing as
 * cumulative explicit-bucket Histograms over the report's log2 ladder, the rest as Gauges; the same families and
 * labels as the Prometheus export (docs/cli.md, "dyper export").
 */
public final class OtlpMetrics {
    /** AggregationTemporality CUMULATIVE: every figure counts from the program's start. */
    static final int CUMULATIVE = 2;
    /** The report's log2 ladder: bucket b holds the calls below 2^b ns; bound b is 2^b ns in seconds. */
    static final int BUCKETS = 64;
    private static final double[] BOUNDS = new double[BUCKETS];

    static {
        for (int b = 0; b < BUCKETS; b++) {
            BOUNDS[b] = Math.scalb(1.0, b) / 1e9; // correctly rounded, as parsing the exact decimal would be
        }
    }

    /** Who the figures are about: OTLP resource attributes. */
    public record Target(long pid, String mainClass, String host, long startMillis) {
    }

    private OtlpMetrics() {
    }

    /** The upper bounds (seconds) of the explicit-bucket histograms, one per log2 bucket of the report. */
    public static double[] bounds() {
        return BOUNDS.clone();
    }

    /**
     * The request for one push: {@code report} (a DYPER_REPORT; null: no exact figures, only the resource) as taken at
     * {@code timeMillis} (the report's TIME when it has one).
     */
    public static byte[] request(Element report, Target target, String version) {
        long start = target.startMillis() * 1_000_000L;
        long time = (report != null && !report.getAttribute("TIME").isEmpty()
                ? Long.parseLong(report.getAttribute("TIME")) : System.currentTimeMillis()) * 1_000_000L;
        Points p = new Points(start, time);
        ProtoWriter scope = new ProtoWriter().message(1, new ProtoWriter().string(1, "dyper").stringIfSet(2, version));
        if (report != null) {
            for (ProtoWriter m : metrics(report, p)) {
                scope.message(2, m);
            }
        }
        ProtoWriter resource = new ProtoWriter()
                .message(1, attribute("service.name", target.mainClass().isEmpty() ? "java" : target.mainClass()))
                .message(1, attribute("process.pid", target.pid()))
                .message(1, attribute("host.name", target.host()));
        if (!target.mainClass().isEmpty()) {
            resource.message(1, attribute("process.executable.name", target.mainClass()));
        }
        ProtoWriter resourceMetrics = new ProtoWriter().message(1, resource).message(2, scope);
        return new ProtoWriter().message(1, resourceMetrics).toByteArray();
    }

    private static List<ProtoWriter> metrics(Element report, Points p) {
        List<ProtoWriter> out = new ArrayList<>();
        Family count = new Family("dyper.count", "Executions counted by woven code (the report's COUNTS)",
                "{execution}");
        for (Element s : rows(report, "COUNTS", "SITE")) {
            count.add(p.integer(site(s), num(s, "COUNT")));
        }
        Family calls = new Family("dyper.calls", "Calls counted at call sites (the report's CALLS)", "{call}");
        for (Element s : rows(report, "CALLS", "SITE")) {
            calls.add(p.integer(site(s), num(s, "COUNT")));
        }
        Family timing = new Family("dyper.timing", "Exact call times (the report's TIMING), in its log2 buckets", "s");
        for (Element s : rows(report, "TIMING", "SITE")) {
            timing.add(p.histogram(s));
        }
        Family vcount = new Family("dyper.values.count", "Values recorded (VALUES COUNT)", "1");
        Family vsum = new Family("dyper.values.sum", "Sum of the values recorded (VALUES SUM)", "1");
        Family vmin = new Family("dyper.values.min", "Smallest value recorded (VALUES MIN)", "1");
        Family vmax = new Family("dyper.values.max", "Largest value recorded (VALUES MAX)", "1");
        for (Element s : rows(report, "VALUES", "SITE")) {
            vcount.add(p.integer(site(s), num(s, "COUNT")));
            vsum.add(p.integer(site(s), num(s, "SUM")));
            vmin.add(p.integer(site(s), num(s, "MIN")));
            vmax.add(p.integer(site(s), num(s, "MAX")));
        }
        Family acq = new Family("dyper.lock.acquisitions", "Lock acquisitions (LOCKS)", "{acquisition}");
        Family cont = new Family("dyper.lock.contended", "Contended acquisitions (LOCKS)", "{acquisition}");
        Family wait = new Family("dyper.lock.wait", "Time waited for locks (LOCKS)", "s");
        Family hold = new Family("dyper.lock.hold", "Time locks were held (LOCKS)", "s");
        for (String kind : List.of("SITE", "LOCK_CLASS")) {
            for (Element s : rows(report, "LOCKS", kind)) {
                List<ProtoWriter> a = kind.equals("SITE") ? site(s) : List.of(attribute("lock_class",
                        s.getAttribute("NAME")));
                acq.add(p.integer(a, num(s, "ACQUISITIONS")));
                cont.add(p.integer(a, num(s, "CONTENDED")));
                wait.add(p.real(a, seconds(s.getAttribute("WAIT_NS"))));
                hold.add(p.real(a, seconds(s.getAttribute("HOLD_NS"))));
            }
        }
        Family alloc = new Family("dyper.allocations",
                "Objects and arrays allocated, per site (ALLOCATIONS SITE) and per type (TYPE)", "{object}");
        for (Element s : rows(report, "ALLOCATIONS", "SITE")) {
            alloc.add(p.integer(site(s), num(s, "COUNT")));
        }
        for (Element s : rows(report, "ALLOCATIONS", "TYPE")) {
            alloc.add(p.integer(named(s, "type"), num(s, "COUNT")));
        }
        Family writes = new Family("dyper.field.writes", "Field writes (FIELDS)", "{write}");
        for (Element s : rows(report, "FIELDS", "FIELD")) {
            writes.add(p.integer(named(s, "field"), num(s, "WRITES")));
        }
        count.sum(out, true);
        calls.sum(out, true);
        timing.histogram(out);
        for (Family f : List.of(vcount, vsum, vmin, vmax)) {
            f.gauge(out);
        }
        for (Family f : List.of(acq, cont, wait, hold, alloc, writes)) {
            f.sum(out, true);
        }
        return out;
    }

    /** One metric: its points, written as a Sum, a Gauge or a Histogram (nothing when it has no points). */
    private record Family(String name, String description, String unit, List<ProtoWriter> points) {
        Family(String name, String description, String unit) {
            this(name, description, unit, new ArrayList<>());
        }

        void add(ProtoWriter point) {
            points.add(point);
        }

        private ProtoWriter head() {
            return new ProtoWriter().string(1, name).string(2, description).string(3, unit);
        }

        void sum(List<ProtoWriter> out, boolean monotonic) {
            if (!points.isEmpty()) {
                ProtoWriter sum = new ProtoWriter();
                points.forEach(pt -> sum.message(1, pt));
                sum.varint(2, CUMULATIVE).varint(3, monotonic ? 1 : 0);
                out.add(head().message(7, sum));
            }
        }

        void gauge(List<ProtoWriter> out) {
            if (!points.isEmpty()) {
                ProtoWriter gauge = new ProtoWriter();
                points.forEach(pt -> gauge.message(1, pt));
                out.add(head().message(5, gauge));
            }
        }

        void histogram(List<ProtoWriter> out) {
            if (!points.isEmpty()) {
                ProtoWriter h = new ProtoWriter();
                points.forEach(pt -> h.message(1, pt));
                h.varint(2, CUMULATIVE);
                out.add(head().message(9, h));
            }
        }
    }

    /** Data points with the push's start and time stamps. */
    private record Points(long start, long time) {
        /** NumberDataPoint: attributes 7, start 2, time 3, as_int 6. */
        ProtoWriter integer(List<ProtoWriter> attributes, long value) {
            return stamped(attributes, 7).fixed64(6, value);
        }

        /** NumberDataPoint with as_double 4. */
        ProtoWriter real(List<ProtoWriter> attributes, double value) {
            return stamped(attributes, 7).double64(4, value);
        }

        private ProtoWriter stamped(List<ProtoWriter> attributes, int attributeField) {
            ProtoWriter w = new ProtoWriter();
            attributes.forEach(a -> w.message(attributeField, a));
            return w.fixed64(2, start).fixed64(3, time);
        }

        /**
         * HistogramDataPoint (attributes 9, count 4, sum 5, bucket_counts 6, explicit_bounds 7, min 11, max 12) of a
         * TIMING row: every bucket of the ladder, the report's BUCKET counts at their bounds, 0 elsewhere.
         */
        ProtoWriter histogram(Element row) {
            long count = num(row, "COUNT");
            long[] buckets = new long[BUCKETS + 1];
            long listed = 0;
            for (Element b : Xml.children(row)) {
                if (b.getTagName().equals("BUCKET")) {
                    long n = num(b, "COUNT");
                    buckets[index(b.getAttribute("UPPER_NS"))] += n;
                    listed += n;
                }
            }
            buckets[BUCKETS] = Math.max(0, count - listed); // above the last bound: none in a consistent report
            ProtoWriter w = stamped(site(row), 9).fixed64(4, count).double64(5, seconds(row.getAttribute("TOTAL_NS")))
                    .packedFixed64(6, buckets).packedDouble(7, BOUNDS);
            if (count > 0) {
                w.double64(11, seconds(row.getAttribute("MIN_NS"))).double64(12, seconds(row.getAttribute("MAX_NS")));
            }
            return w;
        }
    }

    /** The ladder index of a BUCKET's UPPER_NS, a power of two from 2^0 to 2^63. */
    static int index(String upperNs) {
        BigInteger u = new BigInteger(upperNs.trim());
        if (u.signum() <= 0 || u.bitCount() != 1 || u.bitLength() > BUCKETS) {
            throw new IllegalArgumentException("BUCKET UPPER_NS='" + upperNs + "' is not a power of two up to 2^63");
        }
        return u.bitLength() - 1;
    }

    private static List<ProtoWriter> site(Element row) {
        return List.of(attribute("site", row.getAttribute("NAME")), attribute("id", num(row, "ID")));
    }

    private static List<ProtoWriter> named(Element row, String key) {
        return List.of(attribute(key, row.getAttribute("NAME")), attribute("id", num(row, "ID")));
    }

    /** KeyValue{key 1, value 2: AnyValue{string_value 1}}. */
    static ProtoWriter attribute(String key, String value) {
        return new ProtoWriter().string(1, key).message(2, new ProtoWriter().string(1, value));
    }

    /** KeyValue{key 1, value 2: AnyValue{int_value 3}}. */
    static ProtoWriter attribute(String key, long value) {
        return new ProtoWriter().string(1, key).message(2, new ProtoWriter().varint(3, value));
    }

    private static List<Element> rows(Element report, String section, String tag) {
        Element s = Xml.child(report, section);
        return s == null ? List.of() : Xml.children(s).stream().filter(e -> e.getTagName().equals(tag)).toList();
    }

    private static long num(Element e, String attribute) {
        String v = e.getAttribute(attribute).trim();
        return v.isEmpty() ? 0 : Long.parseLong(v);
    }

    /** Nanoseconds (exact decimal text) as seconds, correctly rounded to a double. */
    static double seconds(String ns) {
        String v = ns.trim();
        return v.isEmpty() ? 0 : new BigDecimal(v).movePointLeft(9).doubleValue();
    }
}
