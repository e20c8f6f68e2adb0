package org.dyper.samples.hotspot;

/** The second caller of the hot method. */
public final class Right {
    private Right() {
    }

    public static long call(int i) {
        return Hot.work(i + 7);
    }
}
