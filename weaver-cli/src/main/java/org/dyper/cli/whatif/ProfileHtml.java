package org.dyper.cli.whatif;

import java.util.List;
import java.util.Locale;
import org.dyper.runtime.wire.Xml;

/**
 * The causal profile as one self-contained HTML page ({@code dyper whatif --html FILE}): per candidate, in rank order,
 * a plot of the predicted program speed-up against the virtual speed-up s with its 95 % intervals, drawn as inline SVG
 * (no script, no network), and the same figures as a table.
 */
final class ProfileHtml {
    private static final int W = 360;
    private static final int H = 220;
    private static final int PAD = 40;

    private ProfileHtml() {
    }

    static String page(long pid, ProfileText.Progress progress, int windows, long millis, Profile.Baseline base,
            List<Profile.Row> rows, List<Integer> speedups) {
        StringBuilder x = new StringBuilder(16_384);
        x.append("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>dyper whatif: process ")
                .append(pid).append("</title>\n<style>body{font:14px sans-serif;margin:2em}").append(STYLE)
                .append("</style></head><body>\n");
        x.append("<h1>Causal profile of process ").append(pid).append("</h1>\n")
                .append(body(progress, windows, millis, base, rows, speedups));
        return x.append("</body></html>\n").toString();
    }

    /** The page's style for the profile's figures and table (another page that embeds {@link #body} adds it too). */
    static final String STYLE = "figure{display:inline-block;margin:0 2em 2em 0;vertical-align:top}"
            + "figcaption{font-weight:bold;max-width:" + W + "px;word-break:break-all}table{border-collapse:collapse}"
            + "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}td:first-child{text-align:left}";

    /** The profile's part of a page (no head): its description, a plot per candidate, the table. */
    static String body(ProfileText.Progress progress, int windows, long millis, Profile.Baseline base,
            List<Profile.Row> rows, List<Integer> speedups) {
        int maxS = speedups.stream().mapToInt(Integer::intValue).max().orElse(50);
        // the reference line: the whole program (throughput) or the whole unit (latency) in that method
        double lo = progress.latency() ? -maxS / 100.0 : 0;
        double hi = progress.latency() ? 0 : maxS / 100.0;
        return body(progress, windows, millis, base, rows, speedups, lo, hi, maxS);
    }

    private static String body(ProfileText.Progress progress, int windows, long millis, Profile.Baseline base,
            List<Profile.Row> rows, List<Integer> speedups, double lo0, double hi0, int maxS) {
        boolean latency = progress.latency();
        double lo = lo0;
        double hi = hi0;
        for (Profile.Row row : rows) {
            for (Profile.Point p : row.points()) {
                if (!Double.isNaN(p.low())) {
                    lo = Math.min(lo, p.low());
                    hi = Math.max(hi, p.high());
                }
            }
        }
        StringBuilder x = new StringBuilder(16_384);
        x.append("<p>").append(Xml.text(progress.describe().substring(0, 1).toUpperCase(Locale.ROOT)
                + progress.describe().substring(1))).append("; ").append(windows).append(" windows in ")
                .append(latency ? String.format(Locale.ROOT, "%.1f s; baseline mean latency %.3f ms over %d windows.",
                        millis / 1000.0, base.meanLatency() / 1e6, base.windows())
                        : String.format(Locale.ROOT, "%.1f s; baseline %.1f visits/s over %d windows.",
                        millis / 1000.0, base.rate(), base.windows()))
                .append(latency ? " Each plot: the predicted change of the mean latency (%, vertical) if the method"
                        + " were s % faster (horizontal), with 95 % intervals; the dashed line is y = -s (the whole"
                        + " unit in that method). Ranked by the effect at 20 %.</p>\n"
                        : " Each plot: the program's predicted speed-up (%, vertical) if the method were s % faster"
                        + " (horizontal), with 95 % intervals; the dashed line is y = s (the whole program in that"
                        + " method). Ranked by the effect at 20 %.</p>\n");
        int rank = 1;
        for (Profile.Row row : rows) {
            x.append("<figure><figcaption>").append(rank++).append(". ").append(Xml.text(row.candidate()))
                    .append(row.cpuSelf() < 0 ? "" : String.format(Locale.ROOT, " (cpu %.0f/%.0f %%)",
                            100 * row.cpuSelf(), 100 * row.cpuTotal()))
                    .append("</figcaption>\n").append(plot(row, maxS, lo, hi, latency)).append("</figure>\n");
        }
        x.append("<h2>Figures</h2>\n<table><tr><th>method</th>");
        for (int s : speedups) {
            x.append("<th>s = ").append(s).append(" %</th>");
        }
        x.append("</tr>\n");
        for (Profile.Row row : rows) {
            x.append("<tr><td>").append(Xml.text(row.candidate())).append("</td>");
            for (Profile.Point p : row.points()) {
                x.append("<td>").append(Xml.text(ProfileText.cell(p))).append("</td>");
            }
            x.append("</tr>\n");
        }
        return x.append("</table>\n").toString();
    }

    private static String plot(Profile.Row row, int maxS, double lo, double hi, boolean latency) {
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns='http://www.w3.org/2000/svg' width='").append(W).append("' height='").append(H)
                .append("'>");
        // axes, zero line, the y = s reference
        s.append(line(X(0, maxS), Y(lo, lo, hi), X(0, maxS), Y(hi, lo, hi), "#000", false));
        s.append(line(X(0, maxS), Y(0, lo, hi), X(maxS, maxS), Y(0, lo, hi), "#000", false));
        s.append(line(X(0, maxS), Y(0, lo, hi), X(maxS, maxS), Y((latency ? -maxS : maxS) / 100.0, lo, hi), "#999",
                true));
        s.append(text(X(maxS, maxS) - 10, H - 8, "s = " + maxS + " %"));
        s.append(text(2, Y(hi, lo, hi) + 10, String.format(Locale.ROOT, "%+.0f %%", 100 * hi)));
        s.append(text(2, Y(lo, lo, hi), String.format(Locale.ROOT, "%+.0f %%", 100 * lo)));
        if (!row.delayed()) {
            return s.append(text(PAD + 10, H / 2, "never returned during the experiments")).append("</svg>")
                    .toString();
        }
        StringBuilder path = new StringBuilder();
        for (Profile.Point p : row.points()) {
            if (Double.isNaN(p.predicted())) {
                continue;
            }
            double px = X(p.speedup(), maxS);
            s.append(line(px, Y(p.low(), lo, hi), px, Y(p.high(), lo, hi), "#c33", false));
            s.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3' fill='#c33'/>", px,
                    Y(p.predicted(), lo, hi)));
            path.append(path.length() == 0 ? "M" : "L").append(String.format(Locale.ROOT, "%.1f %.1f ", px,
                    Y(p.predicted(), lo, hi)));
        }
        if (path.length() > 0) {
            s.append("<path d='M").append(String.format(Locale.ROOT, "%.1f %.1f ", X(0, maxS), Y(0, lo, hi)))
                    .append(path.substring(1)).append("' fill='none' stroke='#c33'/>");
        }
        return s.append("</svg>").toString();
    }

    private static double X(double s, int maxS) {
        return PAD + (W - PAD - 10) * s / maxS;
    }

    private static double Y(double v, double lo, double hi) {
        return 10 + (H - 30) * (hi - v) / (hi - lo);
    }

    private static String line(double x1, double y1, double x2, double y2, String color, boolean dashed) {
        return String.format(Locale.ROOT, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='%s'%s/>", x1, y1, x2,
                y2, color, dashed ? " stroke-dasharray='4 3'" : "");
    }

    private static String text(double x, double y, String t) {
        return String.format(Locale.ROOT, "<text x='%.1f' y='%.1f' font-size='11'>%s</text>", x, y, Xml.text(t));
    }
}
