package org.dyper.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The context stack generated before/after advice share: nesting, and balance across monitoring switches. */
class ContextStackTest {
    @AfterEach
    void monitoringOn() {
        Dyper.setEnabled(true);
    }

    @Test
    void nestedEntriesComeBackInOrder() {
        int s = Dyper.state();
        Object marker = new Object();
        ContextStack.pushLong(s, 1);
        ContextStack.pushObject(s, marker);
        ContextStack.pushLong(s, 3);
        assertEquals(3, ContextStack.peek(s).longValue());
        assertEquals(3, ContextStack.pop(s).longValue());
        assertSame(marker, ContextStack.pop(s).objectValue());
        ContextStack outer = ContextStack.pop(s);
        assertTrue(outer.found());
        assertEquals(1, outer.longValue());
        assertFalse(ContextStack.pop(s).found(), "an empty stack has nothing of this state");
    }

    @Test
    void everySwitchIsANewStateAndOnFollowsBitZero() {
        int first = Dyper.state();
        assertTrue(Dyper.on());
        Dyper.setEnabled(false);
        int off = Dyper.state();
        assertFalse(Dyper.on());
        Dyper.setEnabled(false);
        assertEquals(off, Dyper.state(), "switching to the same setting changes nothing");
        Dyper.setEnabled(true);
        assertNotEquals(first, Dyper.state());
        assertEquals(1, Dyper.state() & 1);
        assertEquals(0, off & 1);
    }

    /**
     * An invocation that pushed before monitoring was switched off and on again finds nothing of the new state and
     * skips; the leftovers are dropped, so an invocation that starts after the switch gets its own entry back.
     */
    @Test
    void entriesPushedBeforeASwitchAreDroppedNotMisread() {
        int before = Dyper.state();
        ContextStack.pushLong(before, 111);
        ContextStack.pushLong(before, 222);
        Dyper.setEnabled(false);
        Dyper.setEnabled(true);
        int after = Dyper.state();
        ContextStack.pushLong(after, 333);
        assertEquals(333, ContextStack.pop(after).longValue());
        assertFalse(ContextStack.pop(after).found(), "the inner invocation of the old state skips");
        assertFalse(ContextStack.pop(after).found(), "and so does the outer one");
        ContextStack.pushLong(after, 444);
        assertEquals(444, ContextStack.pop(after).longValue());
        assertFalse(ContextStack.pop(before).found(), "nothing of the old state is left");
    }
}
