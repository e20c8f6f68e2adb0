package org.dyper.samples.hotspot;

/** The first caller of the hot method. */
public final class Left {
    private Left() {
    }

    public static long call(int i) {
        return Hot.work(i);
    }
}
