package org.dyper.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void returnsTheFirstValueTheConditionAccepts() {
        AtomicInteger reads = new AtomicInteger();
        assertEquals(5, Await.until("five reads", reads::incrementAndGet, n -> n >= 5, Await.MINUTE));
        assertEquals(5, reads.get(), "no read after the accepted one");
    }

    @Test
    void aConditionThatHoldsAtOnceIsReadOnce() {
        AtomicInteger reads = new AtomicInteger();
        Await.until("true", () -> reads.incrementAndGet() > 0, Await.MINUTE);
        assertEquals(1, reads.get());
    }

    @Test
    void aTimeoutNamesWhatWasAwaitedAndWhatWasSeenLast() {
        AtomicInteger reads = new AtomicInteger();
        AssertionError e = assertThrows(AssertionError.class, () -> Await.until("the answer", () -> "read "
                + reads.incrementAndGet(), "42"::equals, Duration.ofMillis(300)));
        assertEquals("not within 300 ms: the answer; seen last: read " + reads.get(), e.getMessage());
        assertTrue(reads.get() > 1, "read again until the deadline: " + reads.get());
    }

    @Test
    void aConditionThatNeverHoldsNamesWhatWasAwaited() {
        AssertionError e = assertThrows(AssertionError.class, () -> Await.until("the file x", () -> false,
                Duration.ofSeconds(1)));
        assertEquals("not within 1 s: the file x", e.getMessage());
    }

    @Test
    void anExceptionOfTheConditionEndsTheWaitAtOnce() {
        IllegalStateException thrown = new IllegalStateException("broken");
        assertSame(thrown, assertThrows(IllegalStateException.class, () -> Await.until("x", () -> {
            throw thrown;
        }, Await.MINUTE)));
        AssertionError e = assertThrows(AssertionError.class, () -> Await.until("the entry", () -> {
            throw new IOException("no such file");
        }, Await.MINUTE));
        assertEquals("while waiting for the entry: java.io.IOException: no such file", e.getMessage());
        assertTrue(e.getCause() instanceof IOException);
    }
}
