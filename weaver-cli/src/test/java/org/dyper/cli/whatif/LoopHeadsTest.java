package org.dyper.cli.whatif;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.dyper.runtime.whatif.WhatIf;
import org.dyper.runtime.whatif.WhatIfControl;
import org.dyper.runtime.wire.Xml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Loop heads: a call before each backward jump of the named methods, the class's behaviour unchanged, and it fires. */
class LoopHeadsTest {
    /** The planted class: one loop in {@code spin}, none in {@code straight}. */
    public static final class Looping {
        public static long spin(int n) {
            long x = 1;
            for (int i = 0; i < n; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            return x;
        }

        public static long straight(long x) {
            return x * 31 + 7;
        }
    }

    @AfterEach
    void stop() {
        WhatIf.stop();
    }

    static byte[] bytes() throws Exception {
        try (InputStream in = Looping.class.getResourceAsStream("LoopHeadsTest$Looping.class")) {
            return in.readAllBytes();
        }
    }

    /** Defines the class from {@code bytes} in a loader of its own; returns its {@code spin}. */
    static Method spin(byte[] bytes) throws Exception {
        ClassLoader loader = new ClassLoader(LoopHeadsTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.equals(Looping.class.getName())) {
                    synchronized (getClassLoadingLock(name)) {
                        Class<?> c = findLoadedClass(name);
                        return c != null ? c : defineClass(name, bytes, 0, bytes.length);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
        return loader.loadClass(Looping.class.getName()).getMethod("spin", int.class);
    }

    static long loopParks() throws Exception {
        return Long.parseLong(Xml.parse(WhatIfControl.answer(Xml.parse("<WHATIF/>"))).getAttribute("LOOP_PARKS"));
    }

    @Test
    void aLoopHeadGoesBeforeTheBackwardJumpAndFires() throws Exception {
        byte[] original = bytes();
        LoopHeads.Result none = LoopHeads.insert(original, Set.of("straight", "absent"));
        assertEquals(0, none.heads());
        assertArrayEquals(original, none.bytes());
        LoopHeads.Result r = LoopHeads.insert(original, Set.of("spin", "straight"));
        assertEquals(1, r.heads());
        assertEquals(List.of("spin(I)J"), r.methods());
        Method patched = spin(r.bytes());
        // the same result, through the verifier (the frames are the original ones)
        assertEquals(Looping.spin(100_000), patched.invoke(null, 100_000));

        // a thread in the patched loop, busy on the CPU while the candidate runs elsewhere, pays at its loop head
        WhatIf.start(3, 100);
        patched.invoke(null, 1); // joins the experiment, owing nothing
        AtomicBoolean done = new AtomicBoolean();
        Thread candidate = new Thread(() -> {
            long ctx = WhatIf.enter(3);
            long end = System.nanoTime() + 20_000_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait(); // planted: the candidate's 20 ms of work
            }
            WhatIf.exit(3, ctx);
            done.set(true);
        });
        candidate.start();
        while (!done.get()) {
            Thread.onSpinWait(); // planted: this thread stays on the CPU, so it owes the delay rather than waits
        }
        long before = loopParks();
        patched.invoke(null, 1000);
        assertEquals(before + 1, loopParks());
        candidate.join();
    }
}
