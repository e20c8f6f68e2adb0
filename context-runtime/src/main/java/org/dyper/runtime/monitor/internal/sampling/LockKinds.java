package org.dyper.runtime.monitor.internal.sampling;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.AbstractQueuedLongSynchronizer;
import java.util.concurrent.locks.AbstractQueuedSynchronizer;
import java.util.concurrent.locks.StampedLock;

/**
 * Tells a parked thread's blocker that is a lock from one that is not. A lock is a {@code java.util.concurrent}
 * synchronizer (locks, semaphores, latches: {@code AbstractQueuedSynchronizer} subclasses) or a {@code StampedLock};
 * a condition's wait ({@code ...$ConditionObject}), a pool waiting for work or a future is not. A class the system
 * class loader cannot find counts as a lock. Decisions are cached per class name (bounded).
 */
final class LockKinds {
    private static final Map<String, Boolean> CACHE = new ConcurrentHashMap<>();

    private LockKinds() {
    }

    static boolean isLock(String className) {
        Boolean known = CACHE.get(className);
        if (known != null) {
            return known;
        }
        boolean lock = decide(className);
        if (CACHE.size() < 10_000) {
            CACHE.put(className, lock);
        }
        return lock;
    }

    private static boolean decide(String n) {
        if (n.endsWith("$ConditionObject")) {
            return false;
        }
        try {
            Class<?> c = Class.forName(n, false, n.startsWith("java.") ? null : ClassLoader.getSystemClassLoader());
            return AbstractQueuedSynchronizer.class.isAssignableFrom(c)
                    || AbstractQueuedLongSynchronizer.class.isAssignableFrom(c) || StampedLock.class.isAssignableFrom(c);
        } catch (ClassNotFoundException | LinkageError | SecurityException e) {
            return true;
        }
    }
}
