package org.dyper.samples.phases;

/** Used from phase 2 on only, so it is not loaded when a driver patches the program after phase 1. */
public final class Later {
    private Later() {}

    public static int twice(int v) {
        return 2 * v;
    }
}
