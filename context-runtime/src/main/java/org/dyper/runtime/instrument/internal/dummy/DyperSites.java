package org.dyper.runtime.instrument.internal.dummy;

/**
 * The site-table class of the warm-up's patch set: a {@code BASE} as the patcher reads it, and no sites defined (a
 * generated one calls {@code Sites.define}; the warm-up must not add sites to the program's report).
 */
public final class DyperSites {
    public static final int BASE = Integer.parseInt("0");

    private DyperSites() {}
}
