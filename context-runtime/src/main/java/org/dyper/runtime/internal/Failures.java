package org.dyper.runtime.internal;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hook failures per site: a count and the first failure's description, and one stderr line the first time a site
 * fails. This is the failure path, so it may allocate; it must still never throw.
 */
public final class Failures {
    /** Distinct failing ids kept; beyond this (a run of absurd ids), failures are only counted in {@link #OVERFLOW}. */
    static final int MAX_SITES = 10_000;

    private static final Map<Integer, Entry> BY_ID = new ConcurrentHashMap<>();
    /** Ids already announced on stderr; survives resets so a reset does not repeat the lines. */
    private static final Set<Integer> ANNOUNCED = ConcurrentHashMap.newKeySet();
    private static final AtomicLong OVERFLOW = new AtomicLong();

    /*
     * Failures whose recording failed in turn (the handling overflowed the stack or ran out of memory), kept by
     * Dyper.hookFailed's handler with plain field writes: no call, no allocation. Reports add them to the last such
     * site's row. Concurrent writers may lose an increment of this rare count; they never throw.
     */
    /** How many failures could not be recorded when they happened. */
    public static volatile long unrecorded;
    /** The site of the last of them. */
    public static volatile int unrecordedId;
    /** The last of them. */
    public static volatile Throwable unrecordedFailure;

    private Failures() {
    }

    /** One failure snapshot row. */
    public record Site(int id, long count, String first) {
    }

    private static final class Entry {
        final AtomicLong count = new AtomicLong();
        final String first;

        Entry(String first) {
            this.first = first;
        }
    }

    public static void record(int id, Throwable t) {
        Entry e = BY_ID.get(id);
        if (e == null) {
            e = firstFailure(id, describe(t));
            if (e == null) {
                return;
            }
        }
        e.count.incrementAndGet();
    }

    /** An id whose storage index is beyond {@link SiteIndexes#MAX_INDEX}: counted, described only the first time. */
    static void outOfRange(int id) {
        Entry e = BY_ID.get(id);
        if (e == null) {
            e = firstFailure(id, "java.lang.IndexOutOfBoundsException: site id " + id
                    + " is outside the supported range [" + SiteIndexes.id(SiteIndexes.MAX_INDEX) + ", " + SiteIndexes.id(SiteIndexes.MAX_INDEX - 1)
                    + "]");
            if (e == null) {
                return;
            }
        }
        e.count.incrementAndGet();
    }

    private static Entry firstFailure(int id, String description) {
        if (BY_ID.size() >= MAX_SITES) {
            OVERFLOW.incrementAndGet();
            return null;
        }
        Entry fresh = new Entry(description);
        Entry raced = BY_ID.putIfAbsent(id, fresh);
        if (raced != null) {
            return raced;
        }
        if (ANNOUNCED.add(id)) {
            announce(id, description);
        }
        return fresh;
    }

    private static void announce(int id, String description) {
        try {
            PrintStream err = System.err;
            err.println("dyper: hook failed at " + SiteTable.name(id) + ": " + description
                    + " (further failures are counted)");
        } catch (Throwable ignored) {
            // stderr is gone; the failure is still counted and reported
        }
    }

    /** {@code class: message}, never throwing even when the throwable's own methods do. */
    static String describe(Throwable t) {
        if (t == null) {
            return "null";
        }
        String type = t.getClass().getName();
        String message;
        try {
            message = t.getMessage();
        } catch (Throwable broken) {
            message = "<getMessage() threw " + broken.getClass().getName() + ">";
        }
        return message == null ? type : type + ": " + message;
    }

    /**
     * Failing sites sorted by count (descending), ties by id. Failures that could not be recorded when they happened
     * are added to the row of the last site where that happened (announced on stderr then, if that site never was).
     */
    public static List<Site> snapshot() {
        List<Site> sites = new ArrayList<>();
        long late = unrecorded;
        int lateId = unrecordedId;
        for (Map.Entry<Integer, Entry> e : BY_ID.entrySet()) {
            long n = e.getValue().count.get();
            if (late > 0 && e.getKey() == lateId) {
                n += late;
                late = 0;
            }
            if (n > 0) {
                sites.add(new Site(e.getKey(), n, e.getValue().first));
            }
        }
        if (late > 0) {
            String first = describe(unrecordedFailure) + " (in a hook whose failure could not be recorded then)";
            sites.add(new Site(lateId, late, first));
            if (ANNOUNCED.add(lateId)) {
                announce(lateId, first);
            }
        }
        sites.sort((a, b) -> a.count != b.count ? Long.compare(b.count, a.count) : Integer.compare(a.id, b.id));
        return sites;
    }

    /** Failures that were counted but not kept per site (too many distinct failing ids). */
    public static long overflow() {
        return OVERFLOW.get();
    }

    /** Failures recorded at {@code id}, with those that could not be recorded when they happened there. */
    public static long count(int id) {
        for (Site s : snapshot()) {
            if (s.id() == id) {
                return s.count();
            }
        }
        return 0;
    }

    public static String first(int id) {
        Entry e = BY_ID.get(id);
        return e == null ? null : e.first;
    }

    public static void reset() {
        BY_ID.clear();
        OVERFLOW.set(0);
        unrecorded = 0;
        unrecordedFailure = null;
    }
}
