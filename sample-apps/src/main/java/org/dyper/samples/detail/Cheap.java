package org.dyper.samples.detail;

/** A cheap method called very often: too cheap to be worth detailing. */
public final class Cheap {
    private Cheap() {}

    public static int cheap(int x) {
        return x * 31 + 7;
    }
}
