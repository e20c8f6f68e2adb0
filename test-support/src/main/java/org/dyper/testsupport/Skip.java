package org.dyper.testsupport;

import org.junit.jupiter.api.Assumptions;

/**
 * Skipping a test that cannot run here, saying why wherever it runs: JUnit reports the reason as the skip's reason
 * (an IDE shows it), and the same line goes to stderr, because Maven's console counts skipped tests without their
 * reasons ({@code mvn test} runs before the jars a test may need are built).
 */
public final class Skip {
    private Skip() {
    }

    /** Skips the running test, with {@code reason}, unless {@code condition} holds. */
    public static void unless(boolean condition, String reason) {
        if (!condition) {
            System.err.println("SKIPPED: " + reason);
            System.err.flush();
            Assumptions.abort(reason);
        }
    }
}
