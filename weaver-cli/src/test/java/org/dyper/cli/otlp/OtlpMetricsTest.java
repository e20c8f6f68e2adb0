package org.dyper.cli.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * {@link OtlpMetrics}'s hand-written protobuf read back by the official decoder (opentelemetry-proto, test scope
 * only): a report with a row in every section comes out as the metrics, points, temporality, buckets and resource
 * attributes docs/cli.md names, value for value.
 */
class OtlpMetricsTest {
    static final String REPORT = """
            <DYPER_REPORT VERSION='1' PID='4242' TIME='1764200000123'>
              <COUNTS>
                <SITE ID='3' NAME='org.x.Bank.transfer(int,int,long)' COUNT='10000'/>
                <SITE ID='4' NAME='org.x.Odd.&quot;q&quot;\\path()' COUNT='1'/>
              </COUNTS>
              <CALLS>
                <SITE ID='5' NAME='org.x.Account.withdraw(long)' COUNT='9999'/>
              </CALLS>
              <TIMING>
                <SITE ID='3' NAME='org.x.Bank.transfer(int,int,long)' COUNT='10' TOTAL_NS='123456789012' MIN_NS='7'
                      MAX_NS='9223372036854775807' MEAN_NS='12345678901'>
                  <BUCKET UPPER_NS='1' COUNT='1'/>
                  <BUCKET UPPER_NS='8' COUNT='2'/>
                  <BUCKET UPPER_NS='1024' COUNT='6'/>
                  <BUCKET UPPER_NS='9223372036854775808' COUNT='1'/>
                </SITE>
                <SITE ID='6' NAME='org.x.Idle.never()' COUNT='0' TOTAL_NS='0' MIN_NS='0' MAX_NS='0' MEAN_NS='0'/>
              </TIMING>
              <SAMPLED_TIMING EVERY='64'/>
              <VALUES>
                <SITE ID='7' NAME='org.x.Bank.fee(long)' COUNT='3' SUM='-5' MIN='-9' MAX='4' NULLS='0' NONNULLS='0'/>
              </VALUES>
              <LOCKS CONTENDED_NS='20000'>
                <SITE ID='8' NAME='org.x.Ledger.post(long)' ACQUISITIONS='1000' CONTENDED='5' WAIT_NS='1500000001'
                      MAX_WAIT_NS='1' HOLD_NS='2' MAX_HOLD_NS='2' WAITER='a' HOLDER='b'/>
                <LOCK_CLASS NAME='org.x.Ledger' ACQUISITIONS='1001' CONTENDED='6' WAIT_NS='3' MAX_WAIT_NS='3'
                      HOLD_NS='4' MAX_HOLD_NS='4' WAITER='a' HOLDER='b'/>
              </LOCKS>
              <ALLOCATIONS>
                <SITE ID='9' NAME='org.x.Book.place(int)' COUNT='1200' ARRAYS='200' TOTAL_LENGTH='6400' MAX_LENGTH='32'/>
                <TYPE ID='20' NAME='int[]' COUNT='200' TOTAL_LENGTH='6400' MAX_LENGTH='32'/>
              </ALLOCATIONS>
              <FIELDS>
                <FIELD ID='30' NAME='org.x.Stats.hits' WRITES='10' UNLOCKED_WRITES='3' NO_OWNER_WRITES='0'/>
              </FIELDS>
              <FAILURES TOTAL='0'/>
            </DYPER_REPORT>
            """;
    static final OtlpMetrics.Target TARGET = new OtlpMetrics.Target(4242, "org.x.BankApp", "box", 1764199999000L);

    static ExportMetricsServiceRequest decode(byte[] body) throws Exception {
        return ExportMetricsServiceRequest.parseFrom(body);
    }

    static Map<String, Object> attributes(List<KeyValue> kvs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyValue kv : kvs) {
            AnyValue v = kv.getValue();
            out.put(kv.getKey(), v.hasIntValue() ? (Object) v.getIntValue() : v.getStringValue());
        }
        return out;
    }

    static Map<String, Metric> metrics(ExportMetricsServiceRequest r) {
        assertEquals(1, r.getResourceMetricsCount());
        ResourceMetrics rm = r.getResourceMetrics(0);
        assertEquals(1, rm.getScopeMetricsCount());
        ScopeMetrics sm = rm.getScopeMetrics(0);
        assertEquals("dyper", sm.getScope().getName());
        Map<String, Metric> out = new LinkedHashMap<>();
        for (Metric m : sm.getMetricsList()) {
            assertEquals(null, out.put(m.getName(), m), "one metric per name: " + m.getName());
        }
        return out;
    }

    /** Each point of a Sum or Gauge as "attributes=value". */
    static List<String> points(List<NumberDataPoint> points) {
        List<String> out = new ArrayList<>();
        for (NumberDataPoint p : points) {
            out.add(attributes(p.getAttributesList()) + "=" + (p.getValueCase() == NumberDataPoint.ValueCase.AS_INT
                    ? Long.toString(p.getAsInt()) : Double.toString(p.getAsDouble())));
        }
        return out;
    }

    static Metric sum(Map<String, Metric> metrics, String name) {
        Metric m = metrics.get(name);
        assertTrue(m != null && m.hasSum(), name + " is a Sum: " + metrics.keySet());
        assertTrue(m.getSum().getIsMonotonic(), name + " monotonic");
        assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, m.getSum().getAggregationTemporality(),
                name);
        return m;
    }

    @Test
    void everySectionDecodesToTheReportsExactFigures() throws Exception {
        Element report = Xml.parse(REPORT);
        ExportMetricsServiceRequest r = decode(OtlpMetrics.request(report, TARGET, "0.1.0"));
        assertEquals(Map.of("service.name", "org.x.BankApp", "process.pid", 4242L, "host.name", "box",
                "process.executable.name", "org.x.BankApp"),
                attributes(r.getResourceMetrics(0).getResource().getAttributesList()));
        assertEquals("0.1.0", r.getResourceMetrics(0).getScopeMetrics(0).getScope().getVersion());
        Map<String, Metric> m = metrics(r);
        assertEquals(List.of("dyper.count", "dyper.calls", "dyper.timing", "dyper.values.count", "dyper.values.sum",
                "dyper.values.min", "dyper.values.max", "dyper.lock.acquisitions", "dyper.lock.contended",
                "dyper.lock.wait", "dyper.lock.hold", "dyper.allocations", "dyper.field.writes"),
                List.copyOf(m.keySet()));

        assertEquals(List.of("{site=org.x.Bank.transfer(int,int,long), id=3}=10000",
                "{site=org.x.Odd.\"q\"\\path(), id=4}=1"), points(sum(m, "dyper.count").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Account.withdraw(long), id=5}=9999"),
                points(sum(m, "dyper.calls").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Bank.fee(long), id=7}=3"),
                points(m.get("dyper.values.count").getGauge().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Bank.fee(long), id=7}=-5"),
                points(m.get("dyper.values.sum").getGauge().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Bank.fee(long), id=7}=-9"),
                points(m.get("dyper.values.min").getGauge().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Bank.fee(long), id=7}=4"),
                points(m.get("dyper.values.max").getGauge().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Ledger.post(long), id=8}=1000", "{lock_class=org.x.Ledger}=1001"),
                points(sum(m, "dyper.lock.acquisitions").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Ledger.post(long), id=8}=5", "{lock_class=org.x.Ledger}=6"),
                points(sum(m, "dyper.lock.contended").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Ledger.post(long), id=8}=1.500000001", "{lock_class=org.x.Ledger}=3.0E-9"),
                points(sum(m, "dyper.lock.wait").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Ledger.post(long), id=8}=2.0E-9", "{lock_class=org.x.Ledger}=4.0E-9"),
                points(sum(m, "dyper.lock.hold").getSum().getDataPointsList()));
        assertEquals(List.of("{site=org.x.Book.place(int), id=9}=1200", "{type=int[], id=20}=200"),
                points(sum(m, "dyper.allocations").getSum().getDataPointsList()));
        assertEquals(List.of("{field=org.x.Stats.hits, id=30}=10"),
                points(sum(m, "dyper.field.writes").getSum().getDataPointsList()));
        assertEquals("s", m.get("dyper.timing").getUnit());
        assertEquals("s", m.get("dyper.lock.wait").getUnit());

        for (Metric metric : m.values()) {
            List<Long[]> stamps = metric.hasHistogram()
                    ? metric.getHistogram().getDataPointsList().stream().map(p -> new Long[] {
                            p.getStartTimeUnixNano(), p.getTimeUnixNano()}).toList()
                    : (metric.hasSum() ? metric.getSum().getDataPointsList() : metric.getGauge().getDataPointsList())
                            .stream().map(p -> new Long[] {p.getStartTimeUnixNano(), p.getTimeUnixNano()}).toList();
            for (Long[] s : stamps) {
                assertEquals(1764199999000L * 1_000_000, s[0], metric.getName() + " start: the JVM's start");
                assertEquals(1764200000123L * 1_000_000, s[1], metric.getName() + " time: the report's TIME");
            }
        }
    }

    @Test
    void timingIsACumulativeHistogramOverTheReportsLog2Ladder() throws Exception {
        Metric timing = metrics(decode(OtlpMetrics.request(Xml.parse(REPORT), TARGET, ""))).get("dyper.timing");
        assertTrue(timing.hasHistogram());
        assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
                timing.getHistogram().getAggregationTemporality());
        assertEquals(2, timing.getHistogram().getDataPointsCount());
        HistogramDataPoint p = timing.getHistogram().getDataPoints(0);
        assertEquals(Map.of("site", "org.x.Bank.transfer(int,int,long)", "id", 3L),
                attributes(p.getAttributesList()));
        assertEquals(10, p.getCount());
        assertEquals(123.456789012, p.getSum());
        assertEquals(7e-9, p.getMin());
        assertEquals(9223372036.854775807, p.getMax());
        assertEquals(64, p.getExplicitBoundsCount());
        for (int b = 0; b < 64; b++) {
            assertEquals(Double.parseDouble(new java.math.BigDecimal(java.math.BigInteger.ONE.shiftLeft(b))
                    .movePointLeft(9).toPlainString()), p.getExplicitBounds(b), "bound " + b + ": 2^" + b + " ns");
        }
        Map<Integer, Long> nonZero = new LinkedHashMap<>();
        for (int b = 0; b < p.getBucketCountsCount(); b++) {
            if (p.getBucketCounts(b) != 0) {
                nonZero.put(b, p.getBucketCounts(b));
            }
        }
        assertEquals(65, p.getBucketCountsCount(), "one per bound and one above the last");
        assertEquals(Map.of(0, 1L, 3, 2L, 10, 6L, 63, 1L), nonZero, "UPPER_NS 1, 8, 1024 and 2^63");
        assertEquals(p.getCount(), p.getBucketCountsList().stream().mapToLong(Long::longValue).sum());

        HistogramDataPoint idle = timing.getHistogram().getDataPoints(1);
        assertEquals(0, idle.getCount());
        assertTrue(idle.hasSum());
        assertFalse(idle.hasMin(), "no min or max without calls");
    }

    @Test
    void withoutFiguresOnlyTheResourceAndScopeGo() throws Exception {
        ExportMetricsServiceRequest r = decode(OtlpMetrics.request(null, new OtlpMetrics.Target(7, "", "h", 0),
                ""));
        assertEquals(Map.of("service.name", "java", "process.pid", 7L, "host.name", "h"),
                attributes(r.getResourceMetrics(0).getResource().getAttributesList()));
        assertTrue(metrics(r).isEmpty());
        assertEquals("", r.getResourceMetrics(0).getScopeMetrics(0).getScope().getVersion());
        assertEquals(List.of(), r.getResourceMetrics(0).getScopeMetrics(0).getMetricsList().stream()
                .map(Metric::getName).collect(Collectors.toList()));
    }
}
