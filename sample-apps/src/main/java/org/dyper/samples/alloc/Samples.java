package org.dyper.samples.alloc;

/** Windows of samples: the {@code int[]} allocation site. */
public final class Samples {
    private Samples() {
    }

    /** One {@code int[]} of {@code length}, element k holding {@code k * scale}: the only allocation here. */
    public static int[] window(int length, int scale) {
        int[] window = new int[length];
        for (int k = 0; k < length; k++) {
            window[k] = k * scale;
        }
        return window;
    }
}
