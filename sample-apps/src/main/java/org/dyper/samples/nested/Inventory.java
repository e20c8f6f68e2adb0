package org.dyper.samples.nested;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;

/**
 * Stock per sku, package-private and final on purpose, with what real libraries are full of: a varargs method, two
 * overloads, an anonymous class, a local class and an array of arrays. Weaving must patch all of it and must not
 * make the class public. The numbers it produces are in {@link NestedFacts}.
 */
final class Inventory {
    private long units;
    private final Map<String, Integer> stock = new TreeMap<>();

    /** Adds the sum of {@code counts} to {@code sku}: a varargs method, called by {@link #restockAll}. */
    void restock(String sku, int... counts) {
        int sum = 0;
        for (int c : counts) {
            sum += c;
        }
        stock.merge(sku, sum, Integer::sum);
        units += sum;
    }

    /** Restocks sku i with 1 (i % 3 == 0), 1 and 2 (i % 3 == 1), or 1, 2 and 3 units. */
    void restockAll(String[] skus) {
        for (int i = 0; i < skus.length; i++) {
            switch (i % 3) {
                case 0 -> restock(skus[i], 1);
                case 1 -> restock(skus[i], 1, 2);
                default -> restock(skus[i], 1, 2, 3);
            }
        }
    }

    /** The price of one unit of {@code sku}. */
    long price(String sku) {
        return price(sku, 1);
    }

    /** The price of {@code n} units of {@code sku}: {@code n * (10 + sku.length())}. */
    long price(String sku, int n) {
        return (long) n * (10 + sku.length());
    }

    /** Half the price of two units, through an anonymous class made on every call. */
    long discounted(String sku) {
        LongUnaryOperator half = new LongUnaryOperator() {
            @Override
            public long applyAsLong(long price) {
                return price / 2;
            }
        };
        return half.applyAsLong(price(sku, 2));
    }

    /** All units in stock, summed by a local class (one {@code add} per sku). */
    int total() {
        class Sum {
            private int value;

            void add(int v) {
                value += v;
            }
        }
        Sum sum = new Sum();
        for (int v : stock.values()) {
            sum.add(v);
        }
        return sum.value;
    }

    /** A jagged histogram: {@code new long[rows][]}, then row r is a {@code long[r + 1]}. */
    long[][] histogram(int rows) {
        long[][] h = new long[rows][];
        for (int r = 0; r < rows; r++) {
            h[r] = new long[r + 1];
        }
        return h;
    }

    long units() {
        return units;
    }
}
