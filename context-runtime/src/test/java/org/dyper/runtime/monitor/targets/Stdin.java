package org.dyper.runtime.monitor.targets;

/** The targets stop when their stdin ends (the test closes it): a daemon thread watches it. */
final class Stdin {
    private Stdin() {
    }

    /** Starts a daemon thread named {@code name} that runs {@code stop} once stdin ends. */
    static void onEnd(String name, Runnable stop) {
        Thread stopper = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for the end of stdin
                }
            } catch (Exception ignored) {
                // stop below
            }
            stop.run();
        }, name);
        stopper.setDaemon(true);
        stopper.start();
    }
}
