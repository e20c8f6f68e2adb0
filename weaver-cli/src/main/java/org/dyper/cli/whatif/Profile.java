package org.dyper.cli.whatif;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The causal profile computed from experiment windows, as Coz computes it: a window's effective duration is its wall
 * time minus the delay inserted meanwhile (every thread was held up by that much), the progress period is effective
 * time per visit of the progress point, and the predicted program speed-up at (candidate, s) is
 * {@code 1 - period(candidate, s) / period(baseline)}, the baseline being every window at s = 0. The 95 % confidence
 * interval comes from a bootstrap over the windows (resampling the candidate's windows and the baseline's).
 */
public final class Profile {
    /** Bootstrap resamples per point. */
    static final int RESAMPLES = 1000;

    /**
     * One experiment window: candidate index, speed-up in %, progress visits, wall and delay nanoseconds, and for a
     * latency point the units that ended in it and their summed virtual durations.
     */
    public record Window(int candidate, int speedup, long visits, long nanos, long delayNanos, long units,
            long unitNanos) {
        public Window(int candidate, int speedup, long visits, long nanos, long delayNanos) {
            this(candidate, speedup, visits, nanos, delayNanos, 0, 0);
        }

        long effective() {
            return nanos - delayNanos;
        }
    }

    /** The prediction at one speed-up: fractions (0.1 = 10 %), the windows and visits it rests on. */
    public record Point(int speedup, double predicted, double low, double high, int windows, long visits) {
    }

    /**
     * One candidate's curve; where sampling put it (shares of the CPU samples with it on top of the stack and anywhere
     * on it; negative: not known); whether it added any delay (false: it never returned while experiments ran, as a
     * thread's endless loop whose running call keeps its unpatched code).
     */
    public record Row(String candidate, double cpuSelf, double cpuTotal, boolean delayed, List<Point> points) {
        /** The point at the speed-up nearest {@code s} (ranking uses 20 %). */
        public Point nearest(int s) {
            Point best = null;
            for (Point p : points) {
                if (best == null || Math.abs(p.speedup() - s) < Math.abs(best.speedup() - s)) {
                    best = p;
                }
            }
            return best;
        }
    }

    /**
     * The baseline: visits per second of effective time over all s = 0 windows, how many, and (latency points) the
     * mean latency in ns over the units that ended in them (NaN: none).
     */
    public record Baseline(double rate, int windows, long visits, double meanLatency, long units) {
    }

    private Profile() {
    }

    /** Windows at s = 0, whatever the candidate: with no delay inserted they are all the same experiment. */
    static List<Window> baseline(List<Window> windows) {
        return windows.stream().filter(w -> w.speedup() == 0 && w.effective() > 0).toList();
    }

    public static Baseline baselineOf(List<Window> windows) {
        List<Window> b = baseline(windows);
        double period = period(b);
        return new Baseline(period > 0 ? 1e9 / period : 0, b.size(), b.stream().mapToLong(Window::visits).sum(),
                meanLatency(b), b.stream().mapToLong(Window::units).sum());
    }

    /**
     * The rows, ranked by the predicted effect at the speed-up nearest 20 % (best first; a candidate without a figure
     * there last). {@code speedups} are those with s &gt; 0; {@code seed} makes the bootstrap repeatable.
     */
    public static List<Row> rows(List<String> candidates, double[][] cpuShares, List<Integer> speedups,
            List<Window> windows, long seed) {
        return rows(candidates, cpuShares, speedups, windows, seed, false);
    }

    /**
     * As {@link #rows(List, double[][], List, List, long)}; with {@code latency} each point is the predicted change of
     * the mean latency ({@code mean(candidate, s) / mean(baseline) - 1}, -0.1: 10 % shorter), ranked lowest first.
     */
    public static List<Row> rows(List<String> candidates, double[][] cpuShares, List<Integer> speedups,
            List<Window> windows, long seed, boolean latency) {
        List<Window> base = baseline(windows);
        Random random = new Random(seed);
        List<Row> rows = new ArrayList<>();
        for (int c = 0; c < candidates.size(); c++) {
            List<Point> points = new ArrayList<>();
            for (int s : speedups) {
                int cc = c;
                List<Window> group = windows.stream().filter(w -> w.candidate() == cc && w.speedup() == s
                        && w.effective() > 0).toList();
                points.add(point(s, group, base, random, latency));
            }
            int cc = c;
            boolean delayed = windows.stream().anyMatch(w -> w.candidate() == cc && w.delayNanos() > 0);
            rows.add(new Row(candidates.get(c), cpuShares[c][0], cpuShares[c][1], delayed, points));
        }
        rows.sort(Comparator.comparingDouble((Row r) -> {
            Point p = r.nearest(20);
            return p == null || Double.isNaN(p.predicted()) ? Double.NEGATIVE_INFINITY
                    : latency ? -p.predicted() : p.predicted();
        }).reversed());
        return rows;
    }

    static Point point(int s, List<Window> group, List<Window> base, Random random) {
        return point(s, group, base, random, false);
    }

    static Point point(int s, List<Window> group, List<Window> base, Random random, boolean latency) {
        long visits = group.stream().mapToLong(latency ? Window::units : Window::visits).sum();
        double predicted = latency ? latencyChange(group, base) : speedup(group, base);
        if (group.isEmpty() || base.isEmpty() || Double.isNaN(predicted)) {
            return new Point(s, Double.NaN, Double.NaN, Double.NaN, group.size(), visits);
        }
        double[] boot = new double[RESAMPLES];
        int n = 0;
        for (int i = 0; i < RESAMPLES; i++) {
            List<Window> g = resample(group, random);
            List<Window> b = resample(base, random);
            double v = latency ? latencyChange(g, b) : speedup(g, b);
            if (!Double.isNaN(v)) {
                boot[n++] = v;
            }
        }
        java.util.Arrays.sort(boot, 0, n);
        double low = n == 0 ? Double.NaN : boot[(int) Math.floor(0.025 * (n - 1))];
        double high = n == 0 ? Double.NaN : boot[(int) Math.ceil(0.975 * (n - 1))];
        return new Point(s, predicted, low, high, group.size(), visits);
    }

    private static List<Window> resample(List<Window> ws, Random random) {
        List<Window> r = new ArrayList<>(ws.size());
        for (int i = 0; i < ws.size(); i++) {
            r.add(ws.get(random.nextInt(ws.size())));
        }
        return r;
    }

    /** {@code 1 - period(group) / period(base)}; NaN when either has no visit. */
    static double speedup(List<Window> group, List<Window> base) {
        double p = period(group);
        double p0 = period(base);
        return p > 0 && p0 > 0 ? 1 - p / p0 : Double.NaN;
    }

    /** {@code mean latency(group) / mean latency(base) - 1}; NaN when either has no unit. */
    static double latencyChange(List<Window> group, List<Window> base) {
        double m = meanLatency(group);
        double m0 = meanLatency(base);
        return m0 > 0 && !Double.isNaN(m) ? m / m0 - 1 : Double.NaN;
    }

    /** The mean virtual duration of the units that ended in {@code ws}, in ns; NaN when none did. */
    static double meanLatency(List<Window> ws) {
        long units = 0;
        long nanos = 0;
        for (Window w : ws) {
            units += w.units();
            nanos += w.unitNanos();
        }
        return units == 0 ? Double.NaN : (double) nanos / units;
    }

    /** Effective nanoseconds per visit; 0 when there is no visit. */
    static double period(List<Window> ws) {
        long visits = 0;
        long effective = 0;
        for (Window w : ws) {
            visits += w.visits();
            effective += w.effective();
        }
        return visits == 0 ? 0 : (double) effective / visits;
    }

    /** The largest half-width of a confidence interval over all points (as a fraction); infinity if any is missing. */
    public static double widest(List<Row> rows) {
        double widest = 0;
        for (Row r : rows) {
            for (Point p : r.points()) {
                if (Double.isNaN(p.low())) {
                    return Double.POSITIVE_INFINITY;
                }
                widest = Math.max(widest, (p.high() - p.low()) / 2);
            }
        }
        return widest;
    }
}
