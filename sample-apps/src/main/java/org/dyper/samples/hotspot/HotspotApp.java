package org.dyper.samples.hotspot;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * A program with one hot method, {@link Hot#work}, reached from two callers ({@link Left} three times as often as
 * {@link Right}), for {@code dyper ui}'s tests. A worker thread spins on it until told to pause; then each
 * {@code burst N} line on stdin makes exactly N calls of {@code Hot.work} and prints how many it made, so a test
 * knows the exact count at a known moment. Commands on stdin: {@code pause}, {@code spin}, {@code burst N},
 * {@code gc} ({@code System.gc()}), {@code quit} (or the end of stdin).
 */
public final class HotspotApp {
    private static volatile boolean spinning;
    private static Thread worker;

    private HotspotApp() {
    }

    /** The worker: a named class, not a lambda, so its frame has a stable name. */
    static final class Spinner implements Runnable {
        @Override
        public void run() {
            long sink = 0;
            while (spinning) {
                for (int i = 0; i < HotspotFacts.LEFT_SHARE; i++) {
                    sink += Left.call(i);
                }
                sink += Right.call(1);
            }
            Hot.sink(sink);
        }
    }

    public static void main(String[] args) throws Exception {
        spin();
        System.out.println(HotspotFacts.READY);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long total = 0;
        for (String line; (line = in.readLine()) != null && !line.equals("quit");) {
            if (line.equals("pause")) {
                pause();
                System.out.println(HotspotFacts.PAUSED);
            } else if (line.equals("spin")) {
                spin();
                System.out.println(HotspotFacts.SPINNING);
            } else if (line.equals("gc")) {
                System.gc();  // a planted collection, whose cause the monitor lists
                System.out.println(HotspotFacts.COLLECTED);
            } else if (line.startsWith("burst ")) {
                pause();
                int n = Integer.parseInt(line.substring(6).trim());
                total += burst(n);
                System.out.println(HotspotFacts.burst(n, total));
            }
        }
        pause();
    }

    /** Exactly {@code n} calls of Hot.work: every other one through Left, the rest through Right. */
    static long burst(int n) {
        long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += i % 2 == 0 ? Left.call(i) : Right.call(i);
        }
        Hot.sink(sink);
        return n;
    }

    private static synchronized void spin() {
        if (!spinning) {
            spinning = true;
            worker = new Thread(new Spinner(), HotspotFacts.WORKER);
            worker.start();
        }
    }

    private static synchronized void pause() throws InterruptedException {
        spinning = false;
        if (worker != null) {
            worker.join();
            worker = null;
        }
    }
}
