package org.dyper.benchmarks.runner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The arithmetic the benchmark pages share: medians, spreads, ratios, and reading JMH's CSV. */
final class Stats {
    private Stats() {
    }

    static List<String> csvFields(String line) {
        List<String> f = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"|([^,]+)|(?<=,)(?=,|$)").matcher(line);
        while (m.find()) {
            f.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : "");
        }
        return f;
    }

    static double number(String s) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static double minOf(Map<String, Double> m, String... keys) {
        double r = Double.NaN;
        for (String k : keys) {
            Double v = m.get(k);
            if (v != null && (Double.isNaN(r) || v < r)) {
                r = v;
            }
        }
        return r;
    }

    static String ratio(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b) || b <= 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f", a / b);
    }

    static double median(double[] v) {
        if (v.length == 0) {
            return Double.NaN;
        }
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
