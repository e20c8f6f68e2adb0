package org.dyper.runtime.internal;

import static org.dyper.runtime.internal.ThreadData.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Agent data merged over threads, indexed like a slab (zig-zag index, rows per site). Used for reports and to keep
 * the data of threads that have ended. Not thread-safe: each instance is confined to the registry lock or one reader.
 */
public final class Totals {
    long[] counts = new long[0];
    long[] calls = new long[0];
    final long[][][] tables = new long[TABLES_COUNT][][];
    /** Names of the threads the lock rows and field rings refer to, by thread id, taken when merged. */
    final Map<Long, String> threadNames = new HashMap<>();

    Totals() {
        for (int k = 0; k < TABLES_COUNT; k++) {
            tables[k] = new long[0][];
        }
    }

    Totals copy() {
        Totals t = new Totals();
        t.add(this);
        return t;
    }

    /** Adds a live or ended thread's slab, read with acquire loads. */
    void add(ThreadData d) {
        counts = addCounts(counts, d.publishedCounts(), true);
        calls = addCounts(calls, d.publishedCalls(), true);
        for (int k = 0; k < TABLES_COUNT; k++) {
            tables[k] = addRows(tables[k], d.publishedTable(k), k, true);
        }
        name(d);
    }

    /** Remembers the name of {@code d}'s thread (as it is now), so reports can name it after the thread ended. */
    void name(ThreadData d) {
        try {
            threadNames.put(d.threadId, d.thread.getName());
        } catch (Throwable ignored) {
            // a Thread subclass cannot override getName (final); nothing else can fail here but memory
        }
    }

    void add(Totals other) {
        counts = addCounts(counts, other.counts, false);
        calls = addCounts(calls, other.calls, false);
        for (int k = 0; k < TABLES_COUNT; k++) {
            tables[k] = addRows(tables[k], other.tables[k], k, false);
        }
        threadNames.putAll(other.threadNames);
    }

    /** Adds {@code n} events at {@code id} (the owner cells, see {@link OwnerCells}). */
    void addCount(int id, long n) {
        int i = SiteIndexes.index(id);
        counts = ensure(counts, i + 1);
        counts[i] += n;
    }

    /** Adds {@code n} sampled-timing calls at {@code id} (the owner cells, see {@link OwnerCells}). */
    void addSampledCalls(int id, long n) {
        int i = SiteIndexes.index(id);
        long[][] rows = ensure(tables[SAMPLED], i + 1);
        tables[SAMPLED] = rows;
        if (rows[i] == null) {
            rows[i] = ThreadData.emptyRow(SAMPLED);
        }
        rows[i][S_COUNT] += n;
    }

    /**
     * Forgets thread names that no row refers to, neither these totals' nor those of the {@code live} slabs (a live
     * thread may have waited for one that ended), so ended threads do not grow memory without bound.
     */
    void pruneThreadNames(ThreadData[] live, int count) {
        Set<Long> used = new HashSet<>();
        usedThreads(tables[LOCK_SITES], tables[LOCK_CLASSES], tables[FIELDS], false, used);
        for (int i = 0; i < count; i++) {
            usedThreads(live[i].publishedTable(LOCK_SITES), live[i].publishedTable(LOCK_CLASSES),
                    live[i].publishedTable(FIELDS), true, used);
        }
        threadNames.keySet().retainAll(used);
    }

    private static void usedThreads(long[][] lockSites, long[][] lockClasses, long[][] fields, boolean acquire,
            Set<Long> used) {
        for (long[][] rows : List.of(lockSites, lockClasses)) {
            for (int i = 0; i < rows.length; i++) {
                long[] r = acquire ? ThreadData.readRow(rows, i) : rows[i];
                if (r != null) {
                    used.add(acquire ? ThreadData.read(r, L_WAITER) : r[L_WAITER]);
                    used.add(acquire ? ThreadData.read(r, L_HOLDER) : r[L_HOLDER]);
                }
            }
        }
        for (int i = 0; i < fields.length; i++) {
            long[] r = acquire ? ThreadData.readRow(fields, i) : fields[i];
            if (r != null) {
                for (int e = 0; e < RING; e++) {
                    int k = F_RING + e * E_LENGTH + E_THREAD;
                    used.add(acquire ? ThreadData.read(r, k) : r[k]);
                }
            }
        }
    }

    private static long[] addCounts(long[] into, long[] from, boolean acquire) {
        into = ensure(into, from.length);
        for (int i = 0; i < from.length; i++) {
            into[i] += acquire ? ThreadData.read(from, i) : from[i];
        }
        return into;
    }

    private static long[][] addRows(long[][] into, long[][] from, int kind, boolean acquire) {
        into = ensure(into, from.length);
        int length = ROW_LENGTH[kind];
        long[] src = new long[length];
        for (int i = 0; i < from.length; i++) {
            long[] row = acquire ? ThreadData.readRow(from, i) : from[i];
            if (row == null) {
                continue;
            }
            if (acquire) {
                readRow(row, src, kind);
            } else {
                System.arraycopy(row, 0, src, 0, length);
            }
            if (into[i] == null) {
                into[i] = ThreadData.emptyRow(kind);
            }
            merge(into[i], src, kind);
        }
        return into;
    }

    /** Copies a live row with acquire loads; a field-ring entry being rewritten meanwhile is copied as empty. */
    private static void readRow(long[] row, long[] src, int kind) {
        if (kind != FIELDS) {
            for (int f = 0; f < src.length; f++) {
                src[f] = ThreadData.read(row, f);
            }
            return;
        }
        for (int f = 0; f < F_RING; f++) {
            src[f] = ThreadData.read(row, f);
        }
        for (int e = 0; e < RING; e++) {
            int base = F_RING + e * E_LENGTH;
            long seq = ThreadData.read(row, base + E_SEQ);
            for (int f = 1; f < E_LENGTH; f++) {
                src[base + f] = ThreadData.read(row, base + f);
            }
            src[base + E_SEQ] = ThreadData.read(row, base + E_SEQ) == seq ? seq : 0;
        }
    }

    private static void merge(long[] into, long[] src, int kind) {
        switch (kind) {
            case TIMING -> {
                into[T_COUNT] += src[T_COUNT];
                into[T_TOTAL] += src[T_TOTAL];
                if (src[T_COUNT] > 0) {
                    into[T_MIN] = Math.min(into[T_MIN], src[T_MIN]);
                    into[T_MAX] = Math.max(into[T_MAX], src[T_MAX]);
                }
                for (int b = T_HIST; b < T_LENGTH; b++) {
                    into[b] += src[b];
                }
            }
            case SAMPLED -> {
                into[S_COUNT] += src[S_COUNT];
                into[S_SAMPLES] += src[S_SAMPLES];
                into[S_TOTAL] += src[S_TOTAL];
                into[S_SUMSQ] = Double.doubleToRawLongBits(
                        Double.longBitsToDouble(into[S_SUMSQ]) + Double.longBitsToDouble(src[S_SUMSQ]));
            }
            case VALUES -> {
                into[V_COUNT] += src[V_COUNT];
                into[V_SUM] += src[V_SUM];
                if (src[V_COUNT] > 0) {
                    into[V_MIN] = Math.min(into[V_MIN], src[V_MIN]);
                    into[V_MAX] = Math.max(into[V_MAX], src[V_MAX]);
                }
                into[V_NULLS] += src[V_NULLS];
                into[V_NONNULLS] += src[V_NONNULLS];
            }
            case LOCK_SITES, LOCK_CLASSES -> {
                into[L_ACQUISITIONS] += src[L_ACQUISITIONS];
                into[L_CONTENDED] += src[L_CONTENDED];
                into[L_WAIT] += src[L_WAIT];
                into[L_HOLD] += src[L_HOLD];
                into[L_HOLDS] += src[L_HOLDS];
                into[L_MAX_HOLD] = Math.max(into[L_MAX_HOLD], src[L_MAX_HOLD]);
                if (src[L_MAX_WAIT] > into[L_MAX_WAIT]) {
                    into[L_MAX_WAIT] = src[L_MAX_WAIT];
                    into[L_WAITER] = src[L_WAITER];
                    into[L_HOLDER] = src[L_HOLDER];
                }
            }
            case ALLOC_SITES, ALLOC_TYPES -> {
                into[A_COUNT] += src[A_COUNT];
                into[A_ARRAYS] += src[A_ARRAYS];
                into[A_TOTAL_LENGTH] += src[A_TOTAL_LENGTH];
                into[A_MAX_LENGTH] = Math.max(into[A_MAX_LENGTH], src[A_MAX_LENGTH]);
            }
            case FIELDS -> {
                addFieldCounts(into, src);
                mergeRings(into, src);
            }
            case FIELD_SITES -> addFieldCounts(into, src);
            default -> throw new IllegalArgumentException("table " + kind);
        }
    }

    private static void addFieldCounts(long[] into, long[] src) {
        into[F_WRITES] += src[F_WRITES];
        into[F_UNLOCKED] += src[F_UNLOCKED];
        into[F_NO_OWNER] += src[F_NO_OWNER];
    }

    /** Keeps the {@link ThreadData#RING} entries with the highest sequence, oldest first, in {@code into}. */
    private static void mergeRings(long[] into, long[] src) {
        List<long[]> entries = new ArrayList<>(2 * RING);
        collect(into, entries);
        collect(src, entries);
        entries.sort((a, b) -> Long.compare(a[E_SEQ], b[E_SEQ]));
        int skip = Math.max(0, entries.size() - RING);
        java.util.Arrays.fill(into, F_RING, F_LENGTH, 0L);
        for (int e = skip; e < entries.size(); e++) {
            System.arraycopy(entries.get(e), 0, into, F_RING + (e - skip) * E_LENGTH, E_LENGTH);
        }
    }

    private static void collect(long[] row, List<long[]> entries) {
        for (int e = 0; e < RING; e++) {
            int base = F_RING + e * E_LENGTH;
            if (row[base + E_SEQ] != 0) {
                entries.add(java.util.Arrays.copyOfRange(row, base, base + E_LENGTH));
            }
        }
    }

    private static long[] ensure(long[] a, int length) {
        return a.length >= length ? a : java.util.Arrays.copyOf(a, length);
    }

    private static long[][] ensure(long[][] a, int length) {
        return a.length >= length ? a : java.util.Arrays.copyOf(a, length);
    }

    // ---- read access for reports and tests (by site id) ----

    /** Events counted at {@code id}. */
    public long count(int id) {
        int i = SiteIndexes.index(id);
        return Integer.compareUnsigned(i, counts.length) < 0 ? counts[i] : 0;
    }

    /** Calls of the method {@code id} counted at call sites ({@code Counting.countCall}). */
    public long calls(int id) {
        int i = SiteIndexes.index(id);
        return Integer.compareUnsigned(i, calls.length) < 0 ? calls[i] : 0;
    }

    /** A copy of the timing row of {@code id} (see {@link ThreadData#T_COUNT} and following), or null. */
    public long[] timing(int id) {
        return rowCopy(TIMING, id);
    }

    /** A copy of the sampled-timing row of {@code id} (see {@link ThreadData#S_COUNT} and following), or null. */
    public long[] sampled(int id) {
        return rowCopy(SAMPLED, id);
    }

    /** A copy of the values row of {@code id} (see {@link ThreadData#V_COUNT} and following), or null. */
    public long[] values(int id) {
        return rowCopy(VALUES, id);
    }

    /** A copy of the lock row of site {@code id} (see {@link ThreadData#L_ACQUISITIONS} and following), or null. */
    public long[] lockSite(int id) {
        return rowCopy(LOCK_SITES, id);
    }

    /** A copy of the lock row of the lock class {@code type}, or null. */
    public long[] lockClass(Class<?> type) {
        int i = LockClasses.index(type);
        long[][] rows = tables[LOCK_CLASSES];
        return i < rows.length && rows[i] != null ? rows[i].clone() : null;
    }

    /** A copy of the allocation row of site {@code id} (see {@link ThreadData#A_COUNT} and following), or null. */
    public long[] allocationSite(int id) {
        return rowCopy(ALLOC_SITES, id);
    }

    /** A copy of the allocation row of type {@code id}, or null. */
    public long[] allocationType(int id) {
        return rowCopy(ALLOC_TYPES, id);
    }

    /** A copy of the row of field {@code id} (see {@link ThreadData#F_WRITES} and following), or null. */
    public long[] field(int id) {
        return rowCopy(FIELDS, id);
    }

    /** A copy of the field-write row of site {@code id} (writes, unlocked, no owner), or null. */
    public long[] fieldSite(int id) {
        return rowCopy(FIELD_SITES, id);
    }

    /** The name of thread {@code id} as it was when last merged; {@code thread #id} if unknown, "" for 0. */
    public String threadName(long id) {
        if (id == 0) {
            return "";
        }
        String name = threadNames.get(id);
        return name != null ? name : "thread #" + id;
    }

    private long[] rowCopy(int kind, int id) {
        long[][] rows = tables[kind];
        int i = SiteIndexes.index(id);
        if (Integer.compareUnsigned(i, rows.length) >= 0 || rows[i] == null) {
            return null;
        }
        return rows[i].clone();
    }

    /** Whether any agent recorded anything. */
    public boolean isEmpty() {
        for (long c : counts) {
            if (c != 0) {
                return false;
            }
        }
        for (long c : calls) {
            if (c != 0) {
                return false;
            }
        }
        return allEmpty(TIMING, T_COUNT) && allEmpty(SAMPLED, S_COUNT) && allEmpty(VALUES, V_COUNT)
                && allEmpty(VALUES, V_NULLS) && allEmpty(VALUES, V_NONNULLS)
                && allEmpty(LOCK_SITES, L_ACQUISITIONS) && allEmpty(LOCK_SITES, L_HOLDS)
                && allEmpty(ALLOC_SITES, A_COUNT) && allEmpty(ALLOC_TYPES, A_COUNT)
                && allEmpty(FIELDS, F_WRITES) && allEmpty(FIELD_SITES, F_WRITES);
    }

    private boolean allEmpty(int kind, int field) {
        for (long[] r : tables[kind]) {
            if (r != null && r[field] != 0) {
                return false;
            }
        }
        return true;
    }
}
