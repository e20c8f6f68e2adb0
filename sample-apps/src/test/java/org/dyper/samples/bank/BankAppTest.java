package org.dyper.samples.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dyper.testsupport.Stdout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BankAppTest {

    @ParameterizedTest(name = "{0} threads x {1} transfers")
    @CsvSource({"4, 2500", "1, 0", "1, 1", "2, 50", "3, 77", "8, 1000", "1, 10000"})
    void printsWhatTheReplayPredicts(int threads, int perThread) throws Exception {
        assertEquals(BankFacts.expectedOutput(threads, perThread), run(threads, perThread));
    }

    @Test
    void mainWithDefaultsPrintsTheDefaultFacts() throws Exception {
        List<String> printed = Stdout.lines(() -> BankApp.main(new String[0]));
        assertEquals(List.of(
                "bank: threads=4 transfersPerThread=2500 accounts=16",
                "transfers: 10000 succeeded=9880 failed=120",
                "fees: 54377",
                "money: initial=16000000000000 final=16000000000000 conserved=true",
                "checksum: 60e72046a29e9e96"), printed);
    }

    @Test
    void repeatedRunsPrintTheSame() throws Exception {
        List<String> first = run(8, 500);
        for (int i = 0; i < 5; i++) {
            assertEquals(first, run(8, 500));
        }
    }

    @Test
    void rejectsArgumentsOutsideThePlantedRange() {
        assertThrows(IllegalArgumentException.class, () -> run(0, 10));
        assertThrows(IllegalArgumentException.class, () -> run(2, -1));
        assertThrows(IllegalArgumentException.class, () -> run(1000, 2_000_000));
    }

    private static List<String> run(int threads, int perThread) throws InterruptedException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BankApp.run(threads, perThread, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return lines(bytes);
    }

    private static List<String> lines(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }
}
