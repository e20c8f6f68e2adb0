package org.dyper.cli;

import org.dyper.runtime.Dyper;

/**
 * A planted program for {@link RecoverTest}, run in its own JVM with {@code -Ddyper.jfr}: user events {@code n 1},
 * {@code n 2}, ... every 10 ms, each printed ({@code N EPOCH_MS}) after it was committed, until it is killed.
 */
public final class NumberedEvents {
    private NumberedEvents() {
    }

    public static void main(String[] args) throws InterruptedException {
        for (long n = 1; ; n++) {
            Dyper.userEvent("n " + n);
            System.out.println(n + " " + System.currentTimeMillis());
            Thread.sleep(10); // planted: a steady stream of events, about 100 a second
        }
    }
}
