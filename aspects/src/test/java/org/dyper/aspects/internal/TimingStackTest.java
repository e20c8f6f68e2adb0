package org.dyper.aspects.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TimingStackTest {

    @Test
    void nestedFramesOfOneSitePopInnermostFirst() {
        TimingStack frames = TimingStack.current();
        Object site = new Object();
        for (int depth = 0; depth < 40; depth++) {
            frames.push(site, -1, depth);
        }
        for (int depth = 39; depth >= 0; depth--) {
            assertTrue(frames.pop(site));
            assertEquals(depth, frames.start);
            assertEquals(-1, frames.id);
        }
        assertFalse(frames.pop(site));
    }

    /** A frame whose after advice never ran is dropped when an outer frame is popped. */
    @Test
    void staleFramesAboveAreDropped() {
        TimingStack frames = TimingStack.current();
        Object outer = new Object();
        Object stale = new Object();
        frames.push(outer, -2, 100);
        frames.push(stale, -3, 200);
        assertTrue(frames.pop(outer));
        assertEquals(-2, frames.id);
        assertEquals(100, frames.start);
        assertFalse(frames.pop(stale));
    }

    @Test
    void framesArePerThread() throws Exception {
        Object site = new Object();
        TimingStack.current().push(site, -4, 1);
        boolean[] seen = new boolean[1];
        Thread other = new Thread(() -> seen[0] = TimingStack.current().pop(site));
        other.start();
        other.join();
        assertFalse(seen[0]);
        assertTrue(TimingStack.current().pop(site));
    }
}
