package org.dyper.samples.detail;

/** What {@link DetailApp} does, for the tests that drive it. */
public final class DetailFacts {
    /** Iterations of arithmetic in one call of the hot and the cooling method. */
    public static final int HOT_WORK = 20_000;
    /** Calls of {@link Cooling#cool(int)} in the cool phase. */
    public static final int COOL_CALLS = 40_000;
    /** Calls of {@link Cheap#cheap(int)} in one call of {@link Hot#hot(int)}. */
    public static final int CHEAP_PER_HOT = 4;
    public static final String HOT = "org.dyper.samples.detail.Hot";
    public static final String COOLING = "org.dyper.samples.detail.Cooling";
    public static final String CHEAP = "org.dyper.samples.detail.Cheap";

    private DetailFacts() {}
}
