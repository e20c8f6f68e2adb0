package com.acme.cli;

/**
 * A fixture program that adds three times, says it started, and then waits to be stopped; its shutdown hook takes a
 * while (so a launcher that does not wait for it is caught) and says when it is done.
 */
public final class Sleeper {
    private Sleeper() {}

    public static void main(String[] args) throws InterruptedException {
        Tally tally = new Tally();
        for (int i = 1; i <= 3; i++) {
            tally.add(i);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Thread.sleep(1500); // planted: a slow shutdown hook
            } catch (InterruptedException ignored) {
                // say it below all the same
            }
            System.out.println("sleeper: stopped");
            System.out.flush();
        }));
        System.out.println("sleeper: started");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE); // planted: the program runs until it is stopped
    }
}
