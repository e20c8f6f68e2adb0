package org.dyper.runtime.monitor.internal.agents;

import java.util.Arrays;

/**
 * One item's samples of the recent window (DETAIL_WINDOW ms), in {@value #SLOTS} slots of a tenth of the window each:
 * what the detailing thresholds decide on, so that a method hot in an early phase cools down once the window has
 * passed it (the cumulative figures stay in the report). Slot numbers are the monitor's clock divided by the slot
 * width; not thread-safe (the CPU agent holds its lock).
 */
final class RecentSamples {
    /** Slots per window: the window slides in tenths. */
    static final int SLOTS = 10;

    private final int[] counts = new int[SLOTS];
    /** The slot of the newest count; slots older than {@code last - SLOTS} hold nothing. */
    private long last = -SLOTS;

    /** One sample in {@code slot} (a slot older than the window is ignored, an older one within it still counts). */
    void add(long slot) {
        if (slot > last) {
            for (long s = Math.max(last + 1, slot - SLOTS + 1); s <= slot; s++) {
                counts[index(s)] = 0;
            }
            last = slot;
        }
        if (slot > last - SLOTS) {
            counts[index(slot)]++;
        }
    }

    /** The samples of the window that ends with slot {@code now} (its last {@value #SLOTS} slots). */
    long sum(long now) {
        long sum = 0;
        for (long s = Math.max(last - SLOTS + 1, now - SLOTS + 1); s <= Math.min(last, now); s++) {
            sum += counts[index(s)];
        }
        return sum;
    }

    void clear() {
        Arrays.fill(counts, 0);
        last = -SLOTS;
    }

    private static int index(long slot) {
        return (int) Math.floorMod(slot, (long) SLOTS);
    }
}
