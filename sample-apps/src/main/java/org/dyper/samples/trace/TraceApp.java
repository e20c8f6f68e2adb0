package org.dyper.samples.trace;

/**
 * A planted program for tracing: {@link TraceFacts#SLOW_CALLS} slow calls (above the threshold) with arguments 0..3,
 * {@link TraceFacts#FAST_CALLS} fast ones, three phases in order, {@link TraceFacts#TIMED_CALLS} timed calls, and
 * {@link TraceFacts#ITEMS} items allocated and written.
 */
public final class TraceApp {
    public static void main(String[] args) throws InterruptedException {
        Work.phaseOne();
        long slow = 0;
        for (int i = 0; i < TraceFacts.SLOW_CALLS; i++) {
            slow += Work.slow(i + 1) / 3 * 3;
        }
        System.out.println("slow " + slow);
        Work.phaseTwo();
        long fast = 0;
        for (int i = 0; i < TraceFacts.FAST_CALLS; i++) {
            fast += Work.fast(i);
        }
        System.out.println("fast " + fast);
        long timed = 0;
        for (int i = 0; i < TraceFacts.TIMED_CALLS; i++) {
            timed += Work.timed(i);
        }
        System.out.println("timed " + timed);
        System.out.println("items " + Work.items());
        Work.phaseThree();
    }

    private TraceApp() {
    }
}
