package org.dyper.cli.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.dyper.cli.whatif.Profile.Window;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The causal profile from windows: Coz's correction for inserted delay, the baseline, the ranking, the intervals. */
class ProfileTest {
    static final long SECOND = 1_000_000_000L;

    /** Windows of one experiment, {@code n} times. */
    static List<Window> times(int n, Window w) {
        List<Window> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ws.add(w);
        }
        return ws;
    }

    @ParameterizedTest(name = "{0} visits in {1} ms with {2} ms of delay: {3}")
    @CsvSource({
        // baseline: 100 visits per effective second
        "100, 1000,   0, 0.0",
        // the same progress in less effective time: the program would be 50 % faster
        "100, 1000, 500, 0.5",
        // the delay held everything up by as much as it took: no change (off the critical path)
        "100, 1500, 500, 0.0",
        // 10 % fewer visits per effective second: a slowdown
        " 90, 1000,   0, -0.1111111111111111",
    })
    void predictedSpeedUpIsOneMinusThePeriodRatio(long visits, long millis, long delayMillis, double expected) {
        List<Window> ws = new ArrayList<>(times(4, new Window(0, 0, 100, SECOND, 0)));
        ws.addAll(times(4, new Window(0, 30, visits, millis * 1_000_000, delayMillis * 1_000_000)));
        Profile.Row row = Profile.rows(List.of("m"), new double[][] {{-1, -1}}, List.of(30), ws, 1).get(0);
        Profile.Point p = row.points().get(0);
        assertEquals(expected, p.predicted(), 1e-12);
        // identical windows: the bootstrap has nothing to vary
        assertEquals(expected, p.low(), 1e-12);
        assertEquals(expected, p.high(), 1e-12);
        assertEquals(4, p.windows());
        assertEquals(4 * visits, p.visits());
        assertEquals(delayMillis > 0, row.delayed());
    }

    @Test
    void everyBaselineWindowCountsWhateverItsCandidate() {
        List<Window> ws = new ArrayList<>();
        ws.add(new Window(0, 0, 100, SECOND, 0));
        ws.add(new Window(1, 0, 300, SECOND, 0));
        Profile.Baseline b = Profile.baselineOf(ws);
        assertEquals(200.0, b.rate(), 1e-9);
        assertEquals(2, b.windows());
        assertEquals(400, b.visits());
    }

    @Test
    void rankedByTheEffectNearTwentyPercentAndMissingFiguresLast() {
        List<Window> ws = new ArrayList<>(times(3, new Window(0, 0, 100, SECOND, 0)));
        ws.addAll(times(3, new Window(0, 20, 100, SECOND, 100_000_000))); // a: +10 % at s = 20
        ws.addAll(times(3, new Window(1, 20, 100, SECOND, 190_000_000))); // b: +19 %
        ws.addAll(times(3, new Window(0, 50, 100, SECOND, 0)));           // a: 0 at s = 50 (ranking ignores it)
        ws.addAll(times(3, new Window(1, 50, 100, SECOND, 0)));
        // c: no window with a visit
        ws.addAll(times(3, new Window(2, 20, 0, SECOND, 100_000_000)));
        List<Profile.Row> rows = Profile.rows(List.of("a", "b", "c"), new double[3][2], List.of(20, 50), ws, 1);
        assertEquals(List.of("b", "a", "c"), rows.stream().map(Profile.Row::candidate).toList());
        assertEquals(0.19, rows.get(0).nearest(20).predicted(), 1e-12);
        assertEquals(0.1, rows.get(1).nearest(25).predicted(), 1e-12);
        assertTrue(Double.isNaN(rows.get(2).nearest(20).predicted()));
        assertEquals(Double.POSITIVE_INFINITY, Profile.widest(rows));
    }

    @Test
    void theIntervalCoversTheNoiseAndWindowsWithoutEffectiveTimeAreLeftOut() {
        List<Window> ws = new ArrayList<>();
        for (int i = 0; i < 44; i++) { // four times 95..105 each, in two orders
            ws.add(new Window(0, 0, 95 + i % 11, SECOND, 0));
            ws.add(new Window(0, 40, 95 + (i * 7) % 11, SECOND, 200_000_000));
        }
        ws.add(new Window(0, 40, 1000, SECOND, 2 * SECOND)); // more delay than time: not a measurement
        Profile.Point p = Profile.rows(List.of("m"), new double[][] {{-1, -1}}, List.of(40), ws, 7).get(0)
                .points().get(0);
        assertEquals(44, p.windows());
        assertEquals(0.2, p.predicted(), 1e-9);
        assertTrue(p.low() < 0.2 && p.high() > 0.2, p.low() + " .. " + p.high());
        assertTrue(p.high() - p.low() < 0.05, p.low() + " .. " + p.high());
        assertFalse(Profile.widest(List.of(new Profile.Row("m", -1, -1, true, List.of(p)))) > 0.025);
    }

    @Test
    void theSameSeedGivesTheSameIntervals() {
        List<Window> ws = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ws.add(new Window(0, 0, 90 + i % 13, SECOND, 0));
            ws.add(new Window(0, 10, 90 + (i * 5) % 13, SECOND, 100_000_000));
        }
        assertEquals(Profile.rows(List.of("m"), new double[1][2], List.of(10), ws, 3),
                Profile.rows(List.of("m"), new double[1][2], List.of(10), ws, 3));
    }

    /**
     * A latency point: the predicted change is the ratio of mean virtual latencies less 1, ranked shortest first; the
     * XML says so and the page's reference line is y = -s.
     */
    @Test
    void latencyIsTheRatioOfMeanLatenciesRankedShortestFirst() {
        // baseline: 100 units of 10 ms per window
        List<Window> ws = new ArrayList<>(times(4, new Window(0, 0, 100, SECOND, 0, 100, 100 * 10_000_000L)));
        ws.addAll(times(2, new Window(1, 0, 100, SECOND, 0, 100, 100 * 10_000_000L)));
        // candidate 0 off the path: units as long; candidate 1 on it: 7.5 ms, 25 % shorter
        ws.addAll(times(4, new Window(0, 50, 100, SECOND, 200_000_000, 100, 100 * 10_000_000L)));
        ws.addAll(times(4, new Window(1, 50, 100, SECOND, 200_000_000, 80, 80 * 7_500_000L)));
        List<Profile.Row> rows = Profile.rows(List.of("off", "on"), new double[2][2], List.of(50), ws, 1, true);
        assertEquals("on", rows.get(0).candidate());
        assertEquals(-0.25, rows.get(0).points().get(0).predicted(), 1e-9);
        assertEquals(0.0, rows.get(1).points().get(0).predicted(), 1e-9);
        assertEquals(320, rows.get(0).points().get(0).visits());
        Profile.Baseline base = Profile.baselineOf(ws);
        assertEquals(10_000_000.0, base.meanLatency(), 1e-6);
        assertEquals(600, base.units());
        ProfileText.Progress progress = new ProfileText.Progress("a.A.done()", "a.A.start()", true);
        Session.Result r = new Session.Result(ws, 5000, 0, 0, 0, 0, 3, false);
        String xml = ProfileText.xml(42, progress, r, base, rows);
        assertTrue(xml.contains("PROGRESS='a.A.done()' METRIC='LATENCY' BEGIN='a.A.start()' BASELINE_LATENCY_NS="
                + "'10000000.0000' BASELINE_UNITS='600'"), xml);
        assertTrue(xml.contains("LOOP_PARKS='3'"), xml);
        assertTrue(xml.contains("<POINT SPEEDUP='50' PREDICTED='-0.2500' LOW='-0.2500' HIGH='-0.2500' WINDOWS='4' "
                + "VISITS='320'/>"), xml);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        ProfileText.print(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8), 42, progress,
                r, base, rows, List.of(50));
        String text = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(text.contains("latency from the entry of a.A.start() to the exit of a.A.done()"), text);
        assertTrue(text.contains("baseline (s = 0): mean latency 10.000 ms over 6 windows (600 units)"), text);
        assertTrue(text.contains("-25.0 [-25.0,-25.0]"), text);
        String page = ProfileHtml.page(42, progress, ws.size(), 5000, base, rows, List.of(50));
        assertTrue(page.contains("the dashed line is y = -s"), page);
    }

    @Test
    void thePageHasAPlotPerCandidateInRankOrder() {
        List<Window> ws = new ArrayList<>(times(3, new Window(0, 0, 100, SECOND, 0)));
        ws.addAll(times(3, new Window(0, 20, 100, SECOND, 0)));
        ws.addAll(times(3, new Window(1, 20, 100, SECOND, 190_000_000)));
        ws.addAll(times(3, new Window(0, 40, 100, SECOND, 0)));
        ws.addAll(times(3, new Window(1, 40, 100, SECOND, 380_000_000)));
        List<Profile.Row> rows = Profile.rows(List.of("a.A.off(int)", "a.A.<critical>(int)"), new double[2][2],
                List.of(20, 40), ws, 1);
        String page = ProfileHtml.page(42, ProfileText.Progress.throughput("a.A.done()"), ws.size(), 5000,
                Profile.baselineOf(ws), rows, List.of(20, 40));
        assertEquals(2, page.split("<figure>", -1).length - 1);
        assertTrue(page.indexOf("1. a.A.&lt;critical&gt;(int)") < page.indexOf("2. a.A.off(int)"), page);
        // a: not delayed (no delay in its windows): no points; the critical one: two points with their intervals
        assertEquals(2, page.split("<circle ", -1).length - 1);
        assertTrue(page.contains("never returned during the experiments"), page);
        assertTrue(page.contains("<td>+19.0 [+19.0,+19.0]</td><td>+38.0 [+38.0,+38.0]</td>"), page);
    }

    /**
     * Little's law for a pair whose begin and end are on different threads: per window, the integral of the units in
     * flight over its virtual time, and its ends; the count's offset (units in flight before the patch went in) taken
     * out by the least count seen. Window 1: in flight 5 (uncorrected) at its start, begins at 100 and 300 ns, ends at
     * 600 and 900, length 1000: 500 + 600 = 1100 ns in flight over 2 ends. Window 2: one unit in flight at its start
     * (6 uncorrected), which ends at 1400 of 1000..2000: 400 ns.
     */
    @Test
    void littlesLawIsTheIntegralInFlightOverTheEnds() {
        long base = 1_000_000; // the runtime's sums are of times since its origin: any offset cancels
        Session.Flow start = new Session.Flow(40, 0, 35, 0, 5, 5, base);
        Session.Flow mid = new Session.Flow(42, 400 + 2 * base, 37, 1500 + 2 * base, 5, 5, base + 1000);
        Session.Flow midStart = new Session.Flow(43, 1400 + 3 * base, 37, 1500 + 2 * base, 6, 5, base + 1000);
        Session.Flow end = new Session.Flow(43, 1400 + 3 * base, 38, 2900 + 3 * base, 5, 5, base + 2000);
        List<long[]> flows = List.of(mid.windowSince(start), end.windowSince(midStart));
        List<Window> ws = List.of(new Window(0, 0, 2, 1000, 0, 0, 0), new Window(0, 10, 1, 1000, 0, 0, 0));
        List<Window> little = Session.littlesLaw(ws, flows);
        assertEquals(2, little.get(0).units());
        assertEquals(1100, little.get(0).unitNanos());
        assertEquals(1, little.get(1).units());
        assertEquals(400, little.get(1).unitNanos());
        // no unit timed on one thread: Little's law; nearly all of them: each timed on its thread
        assertEquals(Session.LITTLE, Session.estimator(ws, flows));
        List<Window> timed = List.of(new Window(0, 0, 2, 1000, 0, 2, 1100), new Window(0, 10, 1, 1000, 0, 1, 400));
        assertEquals(Session.THREAD, Session.estimator(timed, flows));
        String xml = ProfileText.xml(1, new ProfileText.Progress("a.B.end()", "a.A.begin()", true, Session.LITTLE),
                new Session.Result(little, 2, 0, 0, 0, 0, 0, false), Profile.baselineOf(little), List.of());
        assertTrue(xml.contains(" BEGIN='a.A.begin()' ESTIMATOR='LITTLE'"), xml);
        assertTrue(new ProfileText.Progress("a.B.end()", "a.A.begin()", true, Session.LITTLE).describe()
                .endsWith("(begin and end on different threads: by Little's law, mean units in flight / throughput)"));
    }
}
