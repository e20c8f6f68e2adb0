package com.acme.cli;

/** A fixture program that stays up until its standard input closes (at most a minute), for tests of live processes. */
public final class Waiter {
    private Waiter() {}

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        System.out.flush();
        long end = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < end && System.in.read() >= 0) {
            // wait for the test to close our input
        }
    }
}
