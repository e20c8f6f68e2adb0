package org.dyper.aspects.internal;

import org.dyper.runtime.Dyper;

/** The last line of defence of hand-written advice: nothing thrown here reaches the application. */
public final class Safe {
    private Safe() {
    }

    /**
     * Reports a failed hook to {@link Dyper#hookFailed}; if even that fails (say the runtime is not
     * on the class path), the failure is dropped, since the application must not see it.
     */
    public static void failed(int id, Throwable failure) {
        try {
            Dyper.hookFailed(id, failure);
        } catch (Throwable ignored) {
            // Nowhere left to report to.
        }
    }
}
