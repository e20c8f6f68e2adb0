package org.dyper.runtime.instrument.internal.dummy;

/**
 * The generated aspect of the warm-up's patch set, as the patcher checks an aspect: it has {@code hasAspect()} and is
 * initialised before the patch goes in. Calls nothing of Dyper's or AspectJ's.
 */
public final class Aspect {
    private static final Aspect INSTANCE = new Aspect();

    private Aspect() {}

    public static boolean hasAspect() {
        return INSTANCE != null;
    }
}
