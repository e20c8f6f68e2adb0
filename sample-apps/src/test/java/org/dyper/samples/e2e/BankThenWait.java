package org.dyper.samples.e2e;

import org.dyper.samples.bank.BankApp;

/** Runs {@link BankApp} and then waits until its stdin ends, so a test can query the monitor afterwards. */
public final class BankThenWait {
    private BankThenWait() {
    }

    public static void main(String[] args) throws Exception {
        BankApp.main(args);
        while (System.in.read() >= 0) {
            // wait for the end of stdin
        }
    }
}
