package org.dyper.runtime.internal;

import java.util.Locale;

/** Number formatting for the text report: durations in a unit chosen per value, about three significant digits. */
public final class Units {
    private static final String[] UNITS = {"ns", "µs", "ms", "s"};

    private Units() {
    }

    /** {@code 812 ns}, {@code 1.23 µs}, {@code 45.6 ms}, {@code 2.00 s}; integral nanoseconds print exactly. */
    public static String duration(double ns) {
        if (Double.isNaN(ns) || Double.isInfinite(ns)) {
            return "-";
        }
        if (ns < 0) {
            return "-" + duration(-ns);
        }
        double v = ns;
        int unit = 0;
        // 999.5 rounds to 1000 at three digits, so it belongs to the next unit.
        while (unit < UNITS.length - 1 && v >= 999.5) {
            v /= 1000;
            unit++;
        }
        if (unit == 0 && v == Math.rint(v)) {
            return (long) v + " ns";
        }
        return threeDigits(v) + " " + UNITS[unit];
    }

    static String threeDigits(double v) {
        if (v >= 99.95) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 9.995) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** {@code 1,234,567}: grouped the same way in every locale. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
