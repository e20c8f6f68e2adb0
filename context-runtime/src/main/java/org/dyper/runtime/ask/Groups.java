package org.dyper.runtime.ask;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.dyper.runtime.Sites;

/**
 * The groups of one question: a bounded, lock-free open-addressing table from a group key (a long, or an object
 * compared by identity, such as a receiver's class) to a {@link Row} of aggregates. At most {@code max} groups are
 * kept; events of any further group go to one "others" row, so memory is bounded whatever the program does.
 * A new group allocates its row once; finding an existing one allocates nothing.
 */
final class Groups {
    /** Label markers: the name is made at report time (a site's name from the site table, a value's digits). */
    static final String SITE_LABEL = "\u0000site";
    static final String VALUE_LABEL = "\u0000value";
    static final String BUCKET_LABEL = "\u0000bucket";
    /** The key object of events without a receiver (static methods). */
    static final Object NO_RECEIVER = new Object();
    /** The key object of normal exits, for a question grouped by exception. */
    static final Object NO_EXCEPTION = new Object();

    static final int COUNT = 0, SUM = 1, MIN = 2, MAX = 3, HIST = 4, BUCKETS = 64;

    private final int max;
    private final boolean timed;
    /** The question's window, or null (since the start only). */
    final Window window;
    private final AtomicReferenceArray<Row> slots;
    private final int mask;
    private final AtomicInteger size = new AtomicInteger();
    private final Row others;
    private final Row single;

    Groups(int max, boolean timed) {
        this(max, timed, null);
    }

    Groups(int max, boolean timed, Window window) {
        this.max = max;
        this.timed = timed;
        this.window = window;
        int capacity = Integer.highestOneBit(Math.max(2, max) * 2 - 1) << 1;
        slots = new AtomicReferenceArray<>(capacity);
        mask = capacity - 1;
        others = new Row(0, null, "(others)", timed, window);
        single = new Row(0, null, "(all)", timed, window);
    }

    /** One aggregate row: count, sum, min, max and, for durations, a log2 histogram (bucket b: 64 - nlz(d) == b). */
    static final class Row {
        final long key;
        final Object ref;
        final String label;
        final AtomicLongArray cells;
        /** The window's ring of slots ({@link Window}), or null. */
        final AtomicLongArray ring;

        Row(long key, Object ref, String label, boolean timed, Window window) {
            this.key = key;
            this.ref = ref;
            this.label = label;
            cells = new AtomicLongArray(timed ? HIST + BUCKETS : HIST);
            ring = window == null ? null : window.newRing();
            cells.set(MIN, Long.MAX_VALUE);
            cells.set(MAX, Long.MIN_VALUE);
        }

        void add(long v) {
            cells.getAndIncrement(COUNT);
            if (v != 0) {
                // a count's value is always 0: one atomic add fewer per event
                cells.getAndAdd(SUM, v);
            }
            long m = cells.get(MIN);
            while (v < m && !cells.compareAndSet(MIN, m, v)) {
                m = cells.get(MIN);
            }
            m = cells.get(MAX);
            while (v > m && !cells.compareAndSet(MAX, m, v)) {
                m = cells.get(MAX);
            }
            if (cells.length() > HIST) {
                cells.getAndIncrement(HIST + 64 - Long.numberOfLeadingZeros(Math.max(0, v)));
            }
        }

        /** The name the report shows. */
        String name() {
            if (label == Groups.SITE_LABEL) {
                return Sites.name((int) key);
            }
            if (label == Groups.VALUE_LABEL) {
                return Long.toString(key);
            }
            if (label == Groups.BUCKET_LABEL) {
                return bucketName(key);
            }
            if (label != null) {
                return label;
            }
            return ref instanceof Class<?> c ? c.getName() : String.valueOf(ref);
        }
    }

    /**
     * The power-of-two bucket of {@code v}: 0 for 0; {@code k + 1} for {@code [2^k, 2^(k+1))}; {@code -(k + 1)} for
     * {@code (-2^(k+1), -2^k]}.
     */
    static long bucket(long v) {
        if (v == 0) {
            return 0;
        }
        long magnitude = v == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(v);
        long k = 64 - Long.numberOfLeadingZeros(magnitude);
        return v > 0 ? k : -k;
    }

    /** The name of bucket {@code key}: {@code 0}, {@code [512, 1024)}, {@code (-1024, -512]}. */
    static String bucketName(long key) {
        if (key == 0) {
            return "0";
        }
        long k = Math.abs(key) - 1;
        String low = Long.toString(1L << k);
        String high = k == 62 ? "2^63" : Long.toString(1L << (k + 1));
        return key > 0 ? "[" + low + ", " + high + ")" : "(-" + high + ", -" + low + "]";
    }

    Row single() {
        return single;
    }

    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+
    Row ofThread(Thread t) {
        return of(t.getId(), null, t.getName());
    }

    /**
     * The row of key ({@code key}, {@code ref}); {@code label} names a new one (or marks how to name it). The
     * (max+1)-th distinct group and every later one get the others row.
     */
    Row of(long key, Object ref, String label) {
        int h = ref == null ? Long.hashCode(key * 0x9E3779B97F4A7C15L) : System.identityHashCode(ref) * 0x9E3779B9;
        int n = slots.length();
        for (int i = 0; i < n; i++) {
            int s = (h + i) & mask;
            Row r = slots.get(s);
            if (r == null) {
                if (size.incrementAndGet() > max) {
                    size.decrementAndGet();
                    return others;
                }
                Row fresh = new Row(key, ref, label, timed, window);
                if (slots.compareAndSet(s, null, fresh)) {
                    return fresh;
                }
                size.decrementAndGet();
                r = slots.get(s);
            }
            if (r.key == key && r.ref == ref) {
                return r;
            }
        }
        return others;
    }

    /** The rows that have events, the others row last when it has any. */
    List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        if (single.cells.get(COUNT) > 0) {
            rows.add(single);
        }
        for (int i = 0; i < slots.length(); i++) {
            Row r = slots.get(i);
            if (r != null && r.cells.get(COUNT) > 0) {
                rows.add(r);
            }
        }
        return rows;
    }

    Row others() {
        return others;
    }

    /** Every event recorded: the counts of every row, the others row included. */
    long total() {
        long n = single.cells.get(COUNT) + others.cells.get(COUNT);
        for (int i = 0; i < slots.length(); i++) {
            Row r = slots.get(i);
            if (r != null) {
                n += r.cells.get(COUNT);
            }
        }
        return n;
    }

    int size() {
        return size.get();
    }

    int max() {
        return max;
    }
}
