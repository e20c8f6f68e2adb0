package org.dyper.samples.nested;

import java.util.List;

/**
 * The exact numbers of {@link NestedApp} for {@code skus} skus and {@code rows} histogram rows, by arithmetic, with the
 * sites named as Dyper reports them. The model is {@code sample-apps/models/nested.xml}.
 */
public final class NestedFacts {
    public static final String PACKAGE = "org.dyper.samples.nested.";
    public static final String INVENTORY = PACKAGE + "Inventory";
    /** The anonymous {@code LongUnaryOperator} of {@code discounted}. */
    public static final String HALF = INVENTORY + "$1.applyAsLong(long)";
    public static final String HALF_TYPE = INVENTORY + "$1";
    /** The local class of {@code total}. */
    public static final String SUM_ADD = INVENTORY + "$1Sum.add(int)";
    public static final String RESTOCK = INVENTORY + ".restock(java.lang.String,int[])";
    public static final String PRICE_OF_N = INVENTORY + ".price(java.lang.String,int)";
    public static final String PRICE_OF_ONE = INVENTORY + ".price(java.lang.String)";
    public static final String UNITS = INVENTORY + ".units";
    public static final String LONG_2D = "long[][]";
    public static final String LONG_ARRAY = "long[]";

    private NestedFacts() {
    }

    public static String sku(int i) {
        return "sku-" + i;
    }

    /** Units restocked for sku i: 1, 3 or 6. */
    static int restocked(int i) {
        return switch (i % 3) {
            case 0 -> 1;
            case 1 -> 3;
            default -> 6;
        };
    }

    public static long units(int skus) {
        long u = 0;
        for (int i = 0; i < skus; i++) {
            u += restocked(i);
        }
        return u;
    }

    /** Calls of the varargs {@code restock}, one per sku; each writes {@code units} once, holding no lock. */
    public static long restocks(int skus) {
        return skus;
    }

    /** {@code price(String,int)}: once per sku through {@code price(String)}, once through {@code discounted}. */
    public static long pricesOfN(int skus) {
        return 2L * skus;
    }

    /** The anonymous class: one made and applied per sku. */
    public static long halves(int skus) {
        return skus;
    }

    /** The local class: one {@code add} per sku in stock. */
    public static long sumAdds(int skus) {
        return skus;
    }

    public static long rowsTotalLength(int rows) {
        return (long) rows * (rows + 1) / 2;
    }

    /** The program's output before the shape lines (which the tests compare with the unwoven run). */
    public static List<String> results(int skus, int rows) {
        long prices = 0;
        long discounted = 0;
        for (int i = 0; i < skus; i++) {
            long one = 10 + sku(i).length();
            prices += one;
            discounted += 2 * one / 2;
        }
        return List.of("units " + units(skus) + ", total " + units(skus), "prices " + prices + ", discounted "
                + discounted, "histogram " + rows + " rows, last " + rows);
    }
}
