package org.dyper.samples.heap;

/** What {@link HeapApp} keeps alive, exactly: the heap report's tests check these. */
public final class HeapFacts {
    private HeapFacts() {
    }

    /** The {@link Node}s the one {@link Holder} holds, through an ArrayList made with exactly this capacity. */
    public static final int NODES = 10_000;
    /** The length of each node's byte array. */
    public static final int PAYLOAD = 64;
    /** A program argument: this many extra nodes for a large heap (the benchmark), held by a second holder. */
    public static final String BIG = "--big-mb";
}
