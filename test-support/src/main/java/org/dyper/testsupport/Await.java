package org.dyper.testsupport;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Waiting for a condition with a deadline, in place of a fixed sleep: the test goes on as soon as the condition holds
 * (a fast machine does not wait) and a slow one gets the whole deadline. A timeout fails the test naming what was
 * awaited and what was seen last.
 *
 * <p>The condition is polled at first every millisecond, then at longer gaps up to 100 ms. An exception thrown by
 * the condition ends the wait at once and fails the test with it (a checked one as the cause of an
 * {@link AssertionError} naming what was awaited); so does an interrupt.
 */
public final class Await {
    /** The deadline the suites use for something a program does on its own (a file, a line, a state): a minute. */
    public static final Duration MINUTE = Duration.ofSeconds(60);

    private static final long MAX_GAP_NANOS = 100_000_000L;

    /**
     * With {@code -Ddyper.await.log=MILLIS}, every wait that took at least that long is printed to stderr with what it
     * waited for: where a slow test spends its time (docs/testing.md).
     */
    private static final long LOG_MILLIS = Long.getLong("dyper.await.log", -1);

    private Await() {
    }

    /** A condition that may throw (a file read, a socket request). */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** A value read again and again until it is the one awaited. */
    @FunctionalInterface
    public interface Probe<T> {
        T read() throws Exception;
    }

    /**
     * Waits until {@code condition} holds, at most {@code deadline}. Where the state waited on can be shown, the
     * {@link #until(String, Probe, Predicate, Duration) probe form} puts the last one seen in the failure.
     *
     * @param what what is awaited, as the failure says it ("the registry entry /tmp/x/42.monitor")
     * @throws AssertionError when it does not hold in time
     */
    public static void until(String what, Condition condition, Duration deadline) {
        wait(what, condition::holds, Boolean::booleanValue, deadline, false);
    }

    /**
     * Reads {@code probe} until {@code done} accepts what it read, at most {@code deadline}, and returns that value.
     *
     * @param what what is awaited, as the failure says it
     * @throws AssertionError when no value read in time is accepted; its message ends with the last value read
     */
    public static <T> T until(String what, Probe<T> probe, Predicate<? super T> done, Duration deadline) {
        return wait(what, probe, done, deadline, true);
    }

    private static <T> T wait(String what, Probe<T> probe, Predicate<? super T> done, Duration deadline,
            boolean showSeen) {
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        long gap = 1_000_000L;
        while (true) {
            T seen = read(what, probe);
            if (done.test(seen)) {
                if (LOG_MILLIS >= 0 && System.nanoTime() - start >= LOG_MILLIS * 1_000_000L) {
                    System.err.println("await: " + (System.nanoTime() - start) / 1_000_000L + " ms: " + what);
                }
                return seen;
            }
            long left = end - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("not within " + seconds(deadline) + ": " + what
                        + (showSeen ? "; seen last: " + seen : ""));
            }
            try {
                Thread.sleep(Math.max(1, Math.min(gap, left) / 1_000_000L));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
            gap = Math.min(MAX_GAP_NANOS, gap * 2);
        }
    }

    private static <T> T read(String what, Probe<T> probe) {
        try {
            return probe.read();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError("while waiting for " + what + ": " + e, e);
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
