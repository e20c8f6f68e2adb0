package com.acme.cli;

/** A fixture the CLI tests patch: {@link App} calls {@link #add} five times. */
public final class Tally {
    private long total;

    public int add(int amount) {
        total += amount;
        return (int) total;
    }

    public long total() {
        return total;
    }
}
