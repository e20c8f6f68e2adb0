package org.dyper.samples.alloc;

import java.util.List;

/**
 * The exact allocations and output of {@link AllocationApp} for given {@code orders}, {@code windows} and
 * {@code grids}, computed by arithmetic without running it. Sites are named as Dyper reports them
 * ({@code class.method(parameter types)}), types as Java writes them ({@code int[]}, {@code java.lang.String[][]}).
 * Array lengths are first dimensions.
 */
public final class AllocationFacts {
    public static final String PACKAGE = "org.dyper.samples.alloc.";
    public static final String ORDER = PACKAGE + "Order";
    public static final String ORDER_BOOK = PACKAGE + "OrderBook";
    public static final String INT_ARRAY = "int[]";
    public static final String STRING_2D = "java.lang.String[][]";
    /** The planted allocation site: {@link Order} objects, one per call. */
    public static final String PLACE = ORDER_BOOK + ".place(int,long)";
    /** The {@code int[]} site (a BASE_ARRAY_ALLOC: primitive elements). */
    public static final String WINDOW = PACKAGE + "Samples.window(int,int)";
    /** The {@code String[][]} site (an ARRAY_ALLOC: reference elements; one multianewarray per call). */
    public static final String CELLS = PACKAGE + "Grid.cells(int,int)";
    /** Where the one {@link OrderBook} is made. */
    public static final String RUN = PACKAGE + "AllocationApp.run(int,int,int,java.io.PrintStream)";

    /** With the default arguments (1,000 orders, 60 windows, 12 grids). */
    public static final long DEFAULT_ORDERS = 1_000;
    public static final long DEFAULT_INT_ARRAYS = 60;
    public static final long DEFAULT_INT_ARRAY_TOTAL_LENGTH = 1_440;
    public static final long DEFAULT_INT_ARRAY_MAX_LENGTH = 40;
    public static final long DEFAULT_STRING_2D_ARRAYS = 12;
    public static final long DEFAULT_STRING_2D_TOTAL_LENGTH = 36;
    public static final long DEFAULT_STRING_2D_MAX_LENGTH = 4;

    private AllocationFacts() {
    }

    static int quantity(int i) {
        return 1 + i % 9;
    }

    static long price(int i) {
        return 100 + i % 50;
    }

    /** Length of the i-th {@code int[]}: 8, 16, 24, 32, 40, 8, ... */
    public static int windowLength(int i) {
        return 8 * (1 + i % 5);
    }

    /** First dimension of the i-th {@code String[][]}: 2, 3, 4, 2, ...; the second is {@value AllocationApp#GRID_COLUMNS}. */
    public static int gridRows(int i) {
        return 2 + i % 3;
    }

    /** {@link Order} objects allocated, all at {@link #PLACE}. */
    public static long orders(int orders) {
        return orders;
    }

    /** {@code int[]} arrays allocated, all at {@link #WINDOW}. */
    public static long intArrays(int windows) {
        return windows;
    }

    public static long intArrayTotalLength(int windows) {
        long sum = 0;
        for (int i = 0; i < windows; i++) {
            sum += windowLength(i);
        }
        return sum;
    }

    /** 0 when there are no windows. */
    public static long intArrayMaxLength(int windows) {
        long max = 0;
        for (int i = 0; i < Math.min(windows, 5); i++) {
            max = Math.max(max, windowLength(i));
        }
        return max;
    }

    /** {@code String[][]} arrays allocated, all at {@link #CELLS}. */
    public static long string2dArrays(int grids) {
        return grids;
    }

    public static long string2dTotalLength(int grids) {
        long sum = 0;
        for (int i = 0; i < grids; i++) {
            sum += gridRows(i);
        }
        return sum;
    }

    public static long string2dMaxLength(int grids) {
        long max = 0;
        for (int i = 0; i < Math.min(grids, 3); i++) {
            max = Math.max(max, gridRows(i));
        }
        return max;
    }

    /** {@link OrderBook} objects allocated: one, at {@link #RUN}. */
    public static long orderBooks() {
        return 1;
    }

    /** Allocations at each site of the program's own code, by site name (sites with none left out). */
    public static java.util.Map<String, Long> allocationsBySite(int orders, int windows, int grids) {
        java.util.Map<String, Long> sites = new java.util.LinkedHashMap<>();
        sites.put(RUN, orderBooks());
        if (orders > 0) {
            sites.put(PLACE, orders(orders));
        }
        if (windows > 0) {
            sites.put(WINDOW, intArrays(windows));
        }
        if (grids > 0) {
            sites.put(CELLS, string2dArrays(grids));
        }
        return sites;
    }

    /** The lines {@link AllocationApp} prints to stdout, in order. */
    public static List<String> expectedOutput(int orders, int windows, int grids) {
        long quantity = 0;
        long value = 0;
        for (int i = 0; i < orders; i++) {
            quantity += quantity(i);
            value += quantity(i) * price(i);
        }
        long checksum = 0;
        for (int i = 0; i < windows; i++) {
            long n = windowLength(i);
            checksum += (long) (i + 1) * (n * (n - 1) / 2);
        }
        long rows = string2dTotalLength(grids);
        return AllocationApp.report(orders, windows, grids, orders, quantity, value, orders, intArrayTotalLength(windows),
                checksum, rows, rows * AllocationApp.GRID_COLUMNS);
    }
}
