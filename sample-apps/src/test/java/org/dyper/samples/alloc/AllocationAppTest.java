package org.dyper.samples.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.dyper.testsupport.Stdout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AllocationAppTest {

    @ParameterizedTest(name = "{0} orders, {1} windows, {2} grids")
    @CsvSource({"1000, 60, 12", "0, 0, 0", "1, 1, 1", "7, 13, 5", "20000, 501, 100"})
    void printsWhatTheFactsPredict(int orders, int windows, int grids) {
        assertEquals(AllocationFacts.expectedOutput(orders, windows, grids), run(orders, windows, grids));
    }

    @Test
    void mainWithDefaultsPrintsTheDefaultFacts() throws Exception {
        List<String> printed = Stdout.lines(() -> AllocationApp.main(new String[0]));
        assertEquals(List.of(
                "alloc: orders=1000 windows=60 grids=12",
                "orders: placed=1000 quantity=4996 value=622064 lastId=1000",
                "windows: arrays=60 totalLength=1440 checksum=644760",
                "grids: arrays=12 rows=36 cells=180"), printed);
    }

    /** The literals pin the planted allocations: a change to the program must show up here. */
    @Test
    void defaultConstantsMatchTheFacts() {
        int o = AllocationApp.DEFAULT_ORDERS;
        int w = AllocationApp.DEFAULT_WINDOWS;
        int g = AllocationApp.DEFAULT_GRIDS;
        assertEquals(AllocationFacts.DEFAULT_ORDERS, AllocationFacts.orders(o));
        assertEquals(AllocationFacts.DEFAULT_INT_ARRAYS, AllocationFacts.intArrays(w));
        assertEquals(AllocationFacts.DEFAULT_INT_ARRAY_TOTAL_LENGTH, AllocationFacts.intArrayTotalLength(w));
        assertEquals(AllocationFacts.DEFAULT_INT_ARRAY_MAX_LENGTH, AllocationFacts.intArrayMaxLength(w));
        assertEquals(AllocationFacts.DEFAULT_STRING_2D_ARRAYS, AllocationFacts.string2dArrays(g));
        assertEquals(AllocationFacts.DEFAULT_STRING_2D_TOTAL_LENGTH, AllocationFacts.string2dTotalLength(g));
        assertEquals(AllocationFacts.DEFAULT_STRING_2D_MAX_LENGTH, AllocationFacts.string2dMaxLength(g));
        assertEquals(Map.of(AllocationFacts.RUN, 1L, AllocationFacts.PLACE, 1_000L, AllocationFacts.WINDOW, 60L,
                AllocationFacts.CELLS, 12L), AllocationFacts.allocationsBySite(o, w, g));
    }

    @ParameterizedTest
    @CsvSource({"0", "1", "4", "5", "6", "61"})
    void maxLengthsAgreeWithTheSequences(int n) {
        long maxWindow = 0;
        long maxRows = 0;
        for (int i = 0; i < n; i++) {
            maxWindow = Math.max(maxWindow, Samples.window(AllocationFacts.windowLength(i), 1).length);
            maxRows = Math.max(maxRows, Grid.cells(AllocationFacts.gridRows(i), 2).length);
        }
        assertEquals(maxWindow, AllocationFacts.intArrayMaxLength(n));
        assertEquals(maxRows, AllocationFacts.string2dMaxLength(n));
    }

    @Test
    void placeMakesNumberedOrders() {
        OrderBook book = new OrderBook();
        Order first = book.place(3, 10);
        Order second = book.place(2, 7);
        assertEquals(1, first.id());
        assertEquals(2, second.id());
        assertEquals(44, book.value());
        assertEquals(2, book.lastId());
    }

    @Test
    void rejectsArgumentsOutsideThePlantedRange() {
        assertThrows(IllegalArgumentException.class, () -> run(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> run(0, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> run(0, 0, -1));
    }

    private static List<String> run(int orders, int windows, int grids) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        AllocationApp.run(orders, windows, grids, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
