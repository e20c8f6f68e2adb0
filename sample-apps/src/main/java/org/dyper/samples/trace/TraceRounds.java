package org.dyper.samples.trace;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A planted program driven from stdin, for switching kinds while it runs: prints {@code ready}, then for each line
 * read makes {@link TraceFacts#ROUND_CALLS} calls of {@code Work.fast}, one phase, and prints {@code round N done};
 * ends when stdin closes.
 */
public final class TraceRounds {
    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int round = 0;
        while (in.readLine() != null) {
            round++;
            long sum = 0;
            for (int i = 0; i < TraceFacts.ROUND_CALLS; i++) {
                sum += Work.fast(i);
            }
            Work.phaseTwo();
            System.out.println("round " + round + " done " + sum);
        }
    }

    private TraceRounds() {
    }
}
