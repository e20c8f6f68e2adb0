package org.dyper.samples.unsafe;

/**
 * A hit counter whose field {@code hits} is written in two places: {@link #hit()} under the stats' own monitor, and
 * {@link #quickHit()} without it, the planted unsafe write. {@code hits} has no initialiser, so the constructor does
 * not write it.
 */
public final class Stats {
    private long hits;

    /** The safe write: one write of {@code hits} while holding this object's monitor. */
    public void hit() {
        synchronized (this) {
            hits++;
        }
    }

    /** The planted unsafe write: one write of {@code hits} without holding this object's monitor. */
    public void quickHit() {
        hits++;
    }

    public synchronized long hits() {
        return hits;
    }
}
