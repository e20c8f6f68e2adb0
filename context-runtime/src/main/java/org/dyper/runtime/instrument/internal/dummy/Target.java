package org.dyper.runtime.instrument.internal.dummy;

/**
 * The class {@link org.dyper.runtime.instrument.internal.Warmup} patches: never loaded by the program's class
 * loaders, only from its class file into a class loader of the warm-up's own.
 */
public final class Target {
    private Target() {}

    public static int call(int x) {
        return x * 31 + 7;
    }
}
