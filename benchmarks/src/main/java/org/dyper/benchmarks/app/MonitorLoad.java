package org.dyper.benchmarks.app;

import java.io.OutputStream;
import java.io.PrintStream;
import org.dyper.samples.bank.BankApp;

/**
 * The workload of the monitor-overhead benchmark: the bank sample ({@code BankApp.run}) once to warm up, then timed.
 * Prints {@code LOAD ns=<elapsed ns of the timed run>}. Usage: {@code MonitorLoad threads transfersPerThread}.
 */
public final class MonitorLoad {
    private MonitorLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        BankApp.run(threads, Math.max(1, perThread / 4), quiet);
        long start = System.nanoTime();
        BankApp.run(threads, perThread, quiet);
        System.out.println("LOAD ns=" + (System.nanoTime() - start));
    }
}
