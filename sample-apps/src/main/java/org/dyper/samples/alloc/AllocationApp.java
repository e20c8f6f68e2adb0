package org.dyper.samples.alloc;

import java.io.PrintStream;
import java.util.List;

/**
 * An allocation-heavy program with planted, exactly known allocations, on one thread:
 * {@code orders} {@link Order} objects at {@link OrderBook#place(int, long)}, {@code windows} {@code int[]} arrays of
 * known lengths at {@link Samples#window(int, int)}, and {@code grids} {@code String[][]} arrays at
 * {@link Grid#cells(int, int)}; besides these the program's own code allocates one {@link OrderBook} (in
 * {@code run}) and nothing else. The output is the same on every run; the exact numbers are in {@link AllocationFacts}.
 *
 * <p>Usage: {@code AllocationApp [orders] [windows] [grids]}, defaults {@value #DEFAULT_ORDERS},
 * {@value #DEFAULT_WINDOWS}, {@value #DEFAULT_GRIDS}.
 */
public final class AllocationApp {
    public static final int DEFAULT_ORDERS = 1_000;
    public static final int DEFAULT_WINDOWS = 60;
    public static final int DEFAULT_GRIDS = 12;
    public static final int GRID_COLUMNS = 5;

    private AllocationApp() {
    }

    public static void main(String[] args) {
        if (args.length > 3) {
            System.err.println("usage: AllocationApp [orders] [windows] [grids]");
            System.exit(2);
        }
        int orders = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ORDERS;
        int windows = args.length > 1 ? Integer.parseInt(args[1]) : DEFAULT_WINDOWS;
        int grids = args.length > 2 ? Integer.parseInt(args[2]) : DEFAULT_GRIDS;
        run(orders, windows, grids, System.out);
    }

    /** Allocates what the class comment says and prints the report to {@code out}. */
    public static void run(int orders, int windows, int grids, PrintStream out) {
        if (orders < 0 || windows < 0 || grids < 0 || orders > 10_000_000 || windows > 1_000_000
                || grids > 1_000_000) {
            throw new IllegalArgumentException("need 0 <= orders <= 10000000, 0 <= windows, grids <= 1000000; got "
                    + orders + ", " + windows + ", " + grids);
        }
        OrderBook book = new OrderBook();
        for (int i = 0; i < orders; i++) {
            book.place(AllocationFacts.quantity(i), AllocationFacts.price(i));
        }
        long totalLength = 0;
        long checksum = 0;
        for (int i = 0; i < windows; i++) {
            int[] window = Samples.window(AllocationFacts.windowLength(i), i + 1);
            totalLength += window.length;
            for (int v : window) {
                checksum += v;
            }
        }
        long rows = 0;
        long cells = 0;
        for (int i = 0; i < grids; i++) {
            String[][] grid = Grid.cells(AllocationFacts.gridRows(i), GRID_COLUMNS);
            rows += grid.length;
            for (String[] row : grid) {
                cells += row.length;
            }
        }
        for (String line : report(orders, windows, grids, book.placed(), book.quantity(), book.value(),
                book.lastId(), totalLength, checksum, rows, cells)) {
            out.println(line);
        }
        out.flush();
    }

    static List<String> report(int orders, int windows, int grids, int placed, long quantity, long value, int lastId,
            long totalLength, long checksum, long rows, long cells) {
        return List.of(
                "alloc: orders=" + orders + " windows=" + windows + " grids=" + grids,
                "orders: placed=" + placed + " quantity=" + quantity + " value=" + value + " lastId=" + lastId,
                "windows: arrays=" + windows + " totalLength=" + totalLength + " checksum=" + checksum,
                "grids: arrays=" + grids + " rows=" + rows + " cells=" + cells);
    }
}
