package org.dyper.runtime;

/** A tiny target program for {@link ExitReportTest}: records known numbers and exits, leaving the report to Dyper. */
public final class ExitReportMain {
    private ExitReportMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("empty")) {
            Dyper.on();
            return;
        }
        Sites.define("1\tMETHOD\torg.x.Bank\ttransfer\tint,int,long\n2\tMETHOD\torg.x.Bank\taudit\t\n");
        Thread[] workers = new Thread[3];
        for (int t = 0; t < workers.length; t++) {
            workers[t] = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    if (Dyper.on()) {
                        Counting.count(1);
                        long start = SampledTiming.enter(2);
                        SampledTiming.exit(2, start);
                    }
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        Dyper.hookFailed(2, new IllegalStateException("boom"));
    }
}
