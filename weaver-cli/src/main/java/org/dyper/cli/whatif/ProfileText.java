package org.dyper.cli.whatif;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.dyper.runtime.wire.Xml;

/** The causal profile as a terminal table and as XML ({@code <WHATIF_PROFILE>}, docs/whatif.md). */
final class ProfileText {
    private ProfileText() {
    }

    /**
     * The progress point: its site name (the end method's for latency), the begin method's site name (a latency pair
     * of two methods; null otherwise), whether it measures latency, and for a pair how its latency was estimated
     * ({@code THREAD}: each unit timed on the thread of its begin and end; {@code LITTLE}: Little's law, begin and end
     * on different threads; null: not a pair).
     */
    record Progress(String name, String begin, boolean latency, String estimator) {
        Progress(String name, String begin, boolean latency) {
            this(name, begin, latency, null);
        }

        static Progress throughput(String name) {
            return new Progress(name, null, false);
        }

        /** How the profile names it: the method, or the latency unit (and how it was estimated). */
        String describe() {
            return !latency ? "progress point " + name : begin == null ? "latency of each call of " + name
                    : "latency from the entry of " + begin + " to the exit of " + name + ("LITTLE".equals(estimator)
                            ? " (begin and end on different threads: by Little's law, mean units in flight / throughput)"
                            : "THREAD".equals(estimator) ? " (each unit timed on its thread)" : "");
        }
    }

    static void print(PrintStream out, long pid, Progress progress, Session.Result r, Profile.Baseline base,
            List<Profile.Row> rows, List<Integer> speedups) {
        out.printf(Locale.ROOT, "dyper: whatif: causal profile of process %d, %s%n", pid, progress.describe());
        out.printf(Locale.ROOT, "  %d windows in %.1f s%s; inserted delay %.2f s, %d sleeps (%.2f s), %.2f s credited"
                + " to waiting threads%s%n", r.windows().size(), r.millis() / 1000.0,
                r.interrupted() ? " (interrupted)" : "", r.delayNs() / 1e9, r.parks(), r.parkedNs() / 1e9,
                r.creditedNs() / 1e9, r.loopParks() > 0 ? "; " + r.loopParks() + " sleeps at loop heads" : "");
        if (progress.latency()) {
            out.printf(Locale.ROOT, "  baseline (s = 0): mean latency %.3f ms over %d windows (%d units)%n",
                    base.meanLatency() / 1e6, base.windows(), base.units());
            out.println("  predicted change of the mean latency in % if the method were s % faster [95 % interval],"
                    + " ranked by s = 20 % (shortest first); cpu: share of CPU samples on top of the stack / anywhere"
                    + " on it");
        } else {
            out.printf(Locale.ROOT, "  baseline (s = 0): %.1f visits/s over %d windows (%d visits)%n", base.rate(),
                    base.windows(), base.visits());
            out.println("  predicted program speed-up in % if the method were s % faster [95 % interval], ranked by"
                    + " s = 20 %; cpu: share of CPU samples on top of the stack / anywhere on it");
        }
        int width = Math.max(6, rows.stream().mapToInt(x -> x.candidate().length()).max().orElse(6));
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %4s  %9s  %-" + width + "s", "rank",
                "cpu", "method"));
        for (int s : speedups) {
            head.append(String.format(Locale.ROOT, "  %-20s", "s=" + s + "%"));
        }
        out.println(head.toString().stripTrailing());
        int rank = 1;
        for (Profile.Row row : rows) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %4d  %9s  %-" + width + "s", rank++,
                    row.cpuSelf() < 0 ? "-" : String.format(Locale.ROOT, "%.0f/%.0f%%", 100 * row.cpuSelf(),
                            100 * row.cpuTotal()), row.candidate()));
            if (!row.delayed()) {
                line.append("  never returned while the experiments ran: no prediction (a call that started before"
                        + " the patch keeps its code)");
            } else {
                for (Profile.Point p : row.points()) {
                    line.append(String.format(Locale.ROOT, "  %-20s", cell(p)));
                }
            }
            out.println(line.toString().stripTrailing());
        }
    }

    static String cell(Profile.Point p) {
        if (Double.isNaN(p.predicted())) {
            return "n/a (" + p.windows() + " windows)";
        }
        return String.format(Locale.ROOT, "%+.1f [%+.1f,%+.1f]", 100 * p.predicted(), 100 * p.low(),
                100 * p.high());
    }

    static String xml(long pid, Progress progress, Session.Result r, Profile.Baseline base, List<Profile.Row> rows) {
        return xml(pid, progress, r, base, rows, List.of());
    }

    /**
     * The profile as XML; {@code names}: the candidates in the order of {@link Session.Result#byCandidate}, whose
     * delay inserted and credited in their windows become the CANDIDATE's DELAY_NS and CREDITED_NS.
     */
    static String xml(long pid, Progress progress, Session.Result r, Profile.Baseline base, List<Profile.Row> rows,
            List<String> names) {
        StringBuilder x = new StringBuilder(4096);
        x.append("<?xml version='1.0' encoding='UTF-8'?>\n<WHATIF_PROFILE PID='").append(pid).append("' PROGRESS='")
                .append(Xml.esc(progress.name())).append("' METRIC='")
                .append(progress.latency() ? "LATENCY" : "THROUGHPUT").append('\'');
        if (progress.begin() != null) {
            x.append(" BEGIN='").append(Xml.esc(progress.begin())).append('\'');
        }
        if (progress.estimator() != null) {
            x.append(" ESTIMATOR='").append(progress.estimator()).append('\'');
        }
        if (progress.latency()) {
            x.append(" BASELINE_LATENCY_NS='").append(num(base.meanLatency())).append("' BASELINE_UNITS='")
                    .append(base.units()).append('\'');
        }
        x.append(" WINDOWS='").append(r.windows().size()).append("' MILLIS='")
                .append(r.millis()).append("' DELAY_NS='").append(r.delayNs()).append("' PARKS='").append(r.parks())
                .append("' PARKED_NS='").append(r.parkedNs()).append("' CREDITED_NS='").append(r.creditedNs())
                .append("' LOOP_PARKS='").append(r.loopParks())
                .append("' INTERRUPTED='").append(r.interrupted()).append("' BASELINE_RATE='")
                .append(num(base.rate())).append("' BASELINE_WINDOWS='").append(base.windows()).append("'>\n");
        int rank = 1;
        for (Profile.Row row : rows) {
            x.append("  <CANDIDATE RANK='").append(rank++).append("' NAME='").append(Xml.esc(row.candidate()))
                    .append("' CPU_SELF='").append(row.cpuSelf() < 0 ? "" : num(row.cpuSelf())).append("' CPU_TOTAL='")
                    .append(row.cpuTotal() < 0 ? "" : num(row.cpuTotal())).append("' DELAYED='").append(row.delayed())
                    .append('\'');
            int i = names.indexOf(row.candidate());
            if (i >= 0 && r.byCandidate() != null) {
                x.append(" DELAY_NS='").append(r.byCandidate()[i][0]).append("' CREDITED_NS='")
                        .append(r.byCandidate()[i][1]).append('\'');
            }
            x.append(">\n");
            for (Profile.Point p : row.points()) {
                x.append("    <POINT SPEEDUP='").append(p.speedup()).append("' PREDICTED='").append(num(p.predicted()))
                        .append("' LOW='").append(num(p.low())).append("' HIGH='").append(num(p.high()))
                        .append("' WINDOWS='").append(p.windows()).append("' VISITS='").append(p.visits())
                        .append("'/>\n");
            }
            x.append("  </CANDIDATE>\n");
        }
        return x.append("</WHATIF_PROFILE>\n").toString();
    }

    private static String num(double d) {
        return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.4f", d);
    }
}
