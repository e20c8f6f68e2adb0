package org.dyper.benchmarks.app;

import java.time.Instant;

/**
 * Start-up probe: prints {@code STARTUP main=<epoch µs when main began> first=<epoch µs when the first monitored
 * call had returned>}; the runner subtracts the instant it launched the process.
 */
public final class StartupMain {
    private StartupMain() {
    }

    public static void main(String[] args) {
        long main = micros(Instant.now());
        long value = new MonitoredClass().monitoredMethod(1, 1);
        long first = micros(Instant.now());
        System.out.println("STARTUP main=" + main + " first=" + first + " value=" + value);
    }

    static long micros(Instant t) {
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000;
    }
}
