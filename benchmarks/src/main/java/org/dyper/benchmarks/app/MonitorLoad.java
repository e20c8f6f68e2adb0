package org.dyper.benchmarks.app;

import java.io.OutputStream;
import java.io.PrintStream;
import org.dyper.samples.bank.BankApp;

/**
 * The workload of the monitor-overhead benchmark: the bank sample ({@code BankApp.run}) for 5 s to warm up, then
 * timed.
 * Prints {@code LOAD ns=<elapsed ns of the timed run>} and {@code CPU ns=<the process's CPU time in it>} (all its
 * threads: the monitor's too). The timed run is {@code repeats} (default 1) runs of the bank. Usage:
 * {@code MonitorLoad threads transfersPerThread [repeats]}.
 */
public final class MonitorLoad {
    private MonitorLoad() {
    }

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        int perThread = Integer.parseInt(args[1]);
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        // warm up for 5 s (the same in every configuration), so that the timed run sees the monitor after its
        // start-up (the flight recorder takes about a second to start): that start-up is measured apart
        long warm = System.nanoTime() + 5_000_000_000L;
        do {
            BankApp.run(threads, Math.max(1, perThread / 4), quiet);
        } while (System.nanoTime() < warm);
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        for (int r = 0; r < repeats; r++) {
            BankApp.run(threads, perThread, quiet);
        }
        long elapsed = System.nanoTime() - start;
        System.out.println("LOAD ns=" + elapsed);
        System.out.println("CPU ns=" + (os.getProcessCpuTime() - cpu));
    }
}
