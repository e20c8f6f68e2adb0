package org.dyper.runtime.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's slab of agent data. Only the owning thread writes it (so no locks and no atomic read-modify-write);
 * every store is a release store and report readers use acquire loads, so a report sees the writes without
 * stopping the writer. Storage grows on demand, by the owner only, and is reused in steady state.
 *
 * <p>Counts are one flat {@code long[]} indexed by the zig-zag index of the id, and so are the calls counted at call
 * sites ({@link #countCall}), kept in a second flat array so they never mix with the events counted at the same id.
 * The other agents keep one small row per (thread, site) in a table of their own ({@link #TIMING} and following),
 * created the first time the thread reaches that site, so a thread pays only for the sites it uses; a grown index
 * array shares its rows with the old one, so a reader holding the old array still sees them.
 */
public final class ThreadData {
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle ROWS = MethodHandles.arrayElementVarHandle(long[][].class);
    private static final VarHandle TABLES = MethodHandles.arrayElementVarHandle(long[][][].class);
    private static final VarHandle EPOCH;
    private static final VarHandle COUNTS;
    private static final VarHandle CALLS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            EPOCH = lookup.findVarHandle(ThreadData.class, "epoch", int.class);
            COUNTS = lookup.findVarHandle(ThreadData.class, "counts", long[].class);
            CALLS = lookup.findVarHandle(ThreadData.class, "calls", long[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Timing row: count, total, min, max, then 64 log2 buckets (bucket b: {@code 64 - nlz(d) == b}). */
    public static final int T_COUNT = 0, T_TOTAL = 1, T_MIN = 2, T_MAX = 3, T_HIST = 4, BUCKETS = 64,
            T_LENGTH = T_HIST + BUCKETS;
    /** Sampled row: calls, owner-only countdown, samples, sampled total, sum of squares (double bits). */
    public static final int S_COUNT = 0, S_COUNTDOWN = 1, S_SAMPLES = 2, S_TOTAL = 3, S_SUMSQ = 4, S_LENGTH = 5;
    /** Values row: count, sum, min, max of {@code record}; null and non-null counts of {@code recordRef}. */
    public static final int V_COUNT = 0, V_SUM = 1, V_MIN = 2, V_MAX = 3, V_NULLS = 4, V_NONNULLS = 5,
            V_LENGTH = 6;
    /**
     * Lock row (per lock site and per lock class): acquisitions, contended acquisitions, total and max wait, total
     * and max hold, holds measured, and for the longest wait the waiting and the holding thread's id (0: unknown).
     */
    public static final int L_ACQUISITIONS = 0, L_CONTENDED = 1, L_WAIT = 2, L_MAX_WAIT = 3, L_HOLD = 4,
            L_MAX_HOLD = 5, L_HOLDS = 6, L_WAITER = 7, L_HOLDER = 8, L_LENGTH = 9;
    /** Allocation row (per allocating site and per allocated type): allocations, arrays, total and max length. */
    public static final int A_COUNT = 0, A_ARRAYS = 1, A_TOTAL_LENGTH = 2, A_MAX_LENGTH = 3, A_LENGTH = 4;
    /**
     * Field row (per field): writes, writes without the owner's monitor, writes with no owner (static fields), the
     * owner-only ring position, then a ring of the last {@link #RING} writes, each {@link #E_LENGTH} longs.
     * A field-site row is the first three counters only.
     */
    public static final int F_WRITES = 0, F_UNLOCKED = 1, F_NO_OWNER = 2, F_NEXT = 3, F_RING = 4, RING = 16,
            F_LENGTH = F_RING + RING * 5, FS_LENGTH = 3;
    /** A ring entry: global sequence (0: empty or being written), old value, new value, flags, thread id. */
    public static final int E_SEQ = 0, E_OLD = 1, E_NEW = 2, E_FLAGS = 3, E_THREAD = 4, E_LENGTH = 5;
    /** Ring entry flags. */
    public static final long W_LOCKED = 1, W_NO_OWNER = 2, W_REF = 4, W_OLD_NULL = 8, W_NEW_NULL = 16;

    /** Row tables, by kind. {@link #LOCK_CLASSES} is indexed by {@link LockClasses} index, the others by site id. */
    public static final int TIMING = 0, SAMPLED = 1, VALUES = 2, LOCK_SITES = 3, LOCK_CLASSES = 4, ALLOC_SITES = 5,
            ALLOC_TYPES = 6, FIELDS = 7, FIELD_SITES = 8, TABLES_COUNT = 9;
    static final int[] ROW_LENGTH = {T_LENGTH, S_LENGTH, V_LENGTH, L_LENGTH, L_LENGTH, A_LENGTH, A_LENGTH,
            F_LENGTH, FS_LENGTH};

    private static final long[] NO_COUNTS = new long[0];
    private static final long[][] NO_ROWS = new long[0][];

    private static final ThreadLocal<ThreadData> CURRENT = ThreadLocal.withInitial(ThreadData::register);
    /** The slabs of recently active threads by the low bits of their ids; {@link #thread} is final, so a racy read
     *  sees a complete slab or misses. */
    private static final ThreadData[] FAST = new ThreadData[1024];

    final Thread thread;
    /** The thread's id, kept because {@code Thread.getId()} is deprecated from JDK 19 on and cannot change. */
    final long threadId;
    /** The {@link Registry#epoch} this slab's data belongs to; data of an older epoch was cleared by a reset. */
    int epoch;
    long[] counts = NO_COUNTS;
    /** Calls counted at call sites, by the zig-zag index of the called method's id. */
    long[] calls = NO_COUNTS;
    /** Row tables by kind; an element is replaced (release store) when it grows or on a reset. */
    final long[][][] tables = new long[TABLES_COUNT][][];
    /** Seeds where each new sampled row starts its countdown, so periodic call patterns do not alias. */
    private int seed;

    /** Owner-only: how many hooks of the user's own are running on this thread (see {@code Dyper.enterHook}). */
    private int hookDepth;
    /** Owner-only: the monitors this thread holds through patched sites. */
    private final HeldLocks holds = new HeldLocks();
    /** What {@code Locks.request} saw, for the matching {@code acquired}: the lock's hash and another holder (0: none). */
    private int pendingHash;
    private long pendingHolder;

    @SuppressWarnings("deprecation")
    private ThreadData(Thread thread) {
        this.thread = thread;
        this.threadId = thread.getId();
        this.seed = System.identityHashCode(thread) | 1;
        java.util.Arrays.fill(tables, NO_ROWS);
    }

    private static ThreadData register() {
        ThreadData data = new ThreadData(Thread.currentThread());
        Registry.register(data);
        return data;
    }

    /** The calling thread's slab, cleared first if a reset happened since it last recorded. */
    public static ThreadData current() {
        // a slot per thread id in front of the ThreadLocal: one array read and one compare on the hot path; threads
        // whose ids share a slot just take the ThreadLocal (a slot keeps at most one ended thread's slab reachable)
        Thread t = Thread.currentThread();
        int slot = (int) t.getId() & (FAST.length - 1);
        ThreadData data = FAST[slot];
        if (data == null || data.thread != t) {
            data = CURRENT.get();
            FAST[slot] = data;
        }
        int e = Registry.epoch;
        if (data.epoch != e) {
            data.restart(e);
        }
        return data;
    }

    private void restart(int newEpoch) {
        COUNTS.setRelease(this, NO_COUNTS);
        CALLS.setRelease(this, NO_COUNTS);
        for (int k = 0; k < TABLES_COUNT; k++) {
            TABLES.setRelease(tables, k, NO_ROWS);
        }
        EPOCH.setRelease(this, newEpoch);
    }

    // ---- hooks of the user's own: while one runs, this thread measures nothing ----

    /** Whether the calling thread is inside a hook of the user's own. */
    public static boolean insideHook() {
        return current().hookDepth > 0;
    }

    public static void enterHook() {
        current().hookDepth++;
    }

    /** Leaves a hook; never below zero (an {@link #enterHook} that failed did not count). */
    public static void exitHook() {
        ThreadData d = current();
        if (d.hookDepth > 0) {
            d.hookDepth--;
        }
    }

    // ---- hot path (owner thread only) ----

    /** One more event at {@code id}; returns this thread's new count there, 0 if the id is out of range. */
    public long count(int id) {
        int i = SiteIndexes.index(id);
        long[] c = counts;
        if (Integer.compareUnsigned(i, c.length) >= 0) {
            c = growCounts(id, i, false);
            if (c == null) {
                return 0;
            }
        }
        long n = c[i] + 1;
        LONGS.setRelease(c, i, n);
        return n;
    }

    /** One more call of the method {@code calleeId}, counted at a call site; kept apart from {@link #count}. */
    public void countCall(int calleeId) {
        int i = SiteIndexes.index(calleeId);
        long[] c = calls;
        if (Integer.compareUnsigned(i, c.length) >= 0) {
            c = growCounts(calleeId, i, true);
            if (c == null) {
                return;
            }
        }
        LONGS.setRelease(c, i, c[i] + 1);
    }

    public void time(int id, long duration) {
        long[] r = row(TIMING, id);
        if (r == null) {
            return;
        }
        long d = duration < 0 ? 0 : duration;
        LONGS.setRelease(r, T_COUNT, r[T_COUNT] + 1);
        LONGS.setRelease(r, T_TOTAL, r[T_TOTAL] + d);
        if (d < r[T_MIN]) {
            LONGS.setRelease(r, T_MIN, d);
        }
        if (d > r[T_MAX]) {
            LONGS.setRelease(r, T_MAX, d);
        }
        int b = T_HIST + BUCKETS - Long.numberOfLeadingZeros(d);
        LONGS.setRelease(r, b, r[b] + 1);
    }

    /** Counts one call; returns true when this call is the one in {@link Config#SAMPLE_EVERY} to be timed. */
    public boolean sampleCall(int id) {
        return sampledCall(id) < 0;
    }

    /**
     * Counts one call; returns this thread's new call count at {@code id}, negated when this call is the one in
     * {@link Config#SAMPLE_EVERY} to be timed; 0 if the id is out of range.
     */
    public long sampledCall(int id) {
        long[] r = row(SAMPLED, id);
        if (r == null) {
            return 0;
        }
        long n = r[S_COUNT] + 1;
        LONGS.setRelease(r, S_COUNT, n);
        long left = r[S_COUNTDOWN] - 1;
        if (left > 0) {
            r[S_COUNTDOWN] = left;
            return n;
        }
        r[S_COUNTDOWN] = Config.SAMPLE_EVERY;
        return -n;
    }

    public void sample(int id, long duration) {
        long[] r = row(SAMPLED, id);
        if (r == null) {
            return;
        }
        long d = duration < 0 ? 0 : duration;
        double dd = (double) d;
        LONGS.setRelease(r, S_SAMPLES, r[S_SAMPLES] + 1);
        LONGS.setRelease(r, S_TOTAL, r[S_TOTAL] + d);
        LONGS.setRelease(r, S_SUMSQ, Double.doubleToRawLongBits(Double.longBitsToDouble(r[S_SUMSQ]) + dd * dd));
    }

    public void value(int id, long value) {
        long[] r = row(VALUES, id);
        if (r == null) {
            return;
        }
        LONGS.setRelease(r, V_COUNT, r[V_COUNT] + 1);
        LONGS.setRelease(r, V_SUM, r[V_SUM] + value);
        if (value < r[V_MIN]) {
            LONGS.setRelease(r, V_MIN, value);
        }
        if (value > r[V_MAX]) {
            LONGS.setRelease(r, V_MAX, value);
        }
    }

    public void reference(int id, Object value) {
        long[] r = row(VALUES, id);
        if (r == null) {
            return;
        }
        int field = value == null ? V_NULLS : V_NONNULLS;
        LONGS.setRelease(r, field, r[field] + 1);
    }

    // ---- locks ----

    /**
     * Before the monitor of {@code lock} is requested: remembers which other thread holds it now, if the holder table
     * knows. A monitor this thread holds already (re-entry) has no other holder.
     */
    public void lockRequested(Object lock) {
        int hash = System.identityHashCode(lock);
        long holder = LockHolders.holder(hash);
        pendingHash = hash;
        pendingHolder = holder == threadId || holder != 0 && holds.contains(lock) ? 0 : holder;
    }

    /**
     * The monitor of {@code lock} (never null) is now held, {@code wait} ns after it was requested: records the
     * acquisition at the site and the lock's class, makes this thread the lock's holder, and pushes the hold. The
     * wait counts only where another thread held the monitor when it was requested (the holder table named one):
     * otherwise the time between the two hooks was not spent waiting for the monitor (re-entry, a free monitor, a
     * pause of the thread), and the acquisition waited 0.
     */
    public void lockAcquired(int siteId, Object lock, int classIndex, long wait, long now) {
        int hash = System.identityHashCode(lock);
        long holder = pendingHash == hash ? pendingHolder : 0;
        pendingHash = 0;
        pendingHolder = 0;
        long w = holder == 0 || wait < 0 ? 0 : wait;
        boolean contended = w > Config.LOCK_CONTENDED_NS;
        long[] s = row(LOCK_SITES, siteId);
        if (s != null) {
            HeldLocks.acquisition(s, w, contended, threadId, holder);
        }
        long[] c = row(LOCK_CLASSES, classIndex);
        if (c != null) {
            HeldLocks.acquisition(c, w, contended, threadId, holder);
        }
        LockHolders.hold(hash, threadId);
        holds.push(lock, now, siteId, classIndex, epoch);
    }

    /**
     * The monitor of {@code lock} is about to be released: pops its hold and records the hold time at the site that
     * acquired it and the lock's class. A release without a recorded acquisition (monitoring was switched on in
     * between) records nothing.
     */
    public void lockReleased(Object lock, long now) {
        if (!holds.pop(lock)) {
            return;
        }
        if (!holds.stillHeld) {
            LockHolders.release(System.identityHashCode(lock), threadId);  // an outer re-entrant hold keeps it
        }
        if (holds.epoch != epoch) {
            return;
        }
        long hold = now - holds.start;
        if (hold < 0) {
            hold = 0;
        }
        long[] s = row(LOCK_SITES, holds.siteId);
        if (s != null) {
            HeldLocks.holdTime(s, hold);
        }
        long[] c = row(LOCK_CLASSES, holds.classIndex);
        if (c != null) {
            HeldLocks.holdTime(c, hold);
        }
    }

    /** Holds this thread has on its stack (for tests). */
    public int holdDepth() {
        return holds.depth();
    }

    // ---- allocations ----

    public void allocation(int siteId, int typeId) {
        long[] s = row(ALLOC_SITES, siteId);
        if (s != null) {
            LONGS.setRelease(s, A_COUNT, s[A_COUNT] + 1);
        }
        long[] t = row(ALLOC_TYPES, typeId);
        if (t != null) {
            LONGS.setRelease(t, A_COUNT, t[A_COUNT] + 1);
        }
    }

    public void arrayAllocation(int siteId, int typeId, int length) {
        long n = length < 0 ? 0 : length;
        long[] s = row(ALLOC_SITES, siteId);
        if (s != null) {
            array(s, n);
        }
        long[] t = row(ALLOC_TYPES, typeId);
        if (t != null) {
            array(t, n);
        }
    }

    private static void array(long[] r, long length) {
        LONGS.setRelease(r, A_COUNT, r[A_COUNT] + 1);
        LONGS.setRelease(r, A_ARRAYS, r[A_ARRAYS] + 1);
        LONGS.setRelease(r, A_TOTAL_LENGTH, r[A_TOTAL_LENGTH] + length);
        if (length > r[A_MAX_LENGTH]) {
            LONGS.setRelease(r, A_MAX_LENGTH, length);
        }
    }

    // ---- field writes ----

    /** One write of field {@code fieldId} at site {@code siteId}; see {@link FieldWrites#record}. */
    public void fieldWrite(int siteId, int fieldId, long flags, long oldValue, long newValue) {
        FieldWrites.record(this, siteId, fieldId, flags, oldValue, newValue);
    }

    // ---- rows ----

    /** The row of {@code id} in table {@code kind}, created on first use; null if out of range. */
    long[] row(int kind, int id) {
        long[][] rows = tables[kind];
        int i = kind == LOCK_CLASSES ? id : SiteIndexes.index(id);
        if (Integer.compareUnsigned(i, rows.length) < 0) {
            long[] r = rows[i];
            if (r != null) {
                return r;
            }
        }
        return newRow(kind, id, i, rows);
    }

    // ---- slow path: first use of a site by this thread ----

    /** Grows {@link #calls} when {@code callSites}, else {@link #counts}, to hold index {@code i}; null if out of range. */
    private long[] growCounts(int id, int i, boolean callSites) {
        if (!SiteIndexes.inRange(i)) {
            Failures.outOfRange(id);
            return null;
        }
        long[] old = callSites ? calls : counts;
        long[] grown = new long[newLength(old.length, i)];
        System.arraycopy(old, 0, grown, 0, old.length);
        if (callSites) {
            CALLS.setRelease(this, grown);
        } else {
            COUNTS.setRelease(this, grown);
        }
        return grown;
    }

    private long[] newRow(int kind, int id, int i, long[][] rows) {
        if (!SiteIndexes.inRange(i)) {
            Failures.outOfRange(id);
            return null;
        }
        if (i >= rows.length) {
            long[][] grown = new long[newLength(rows.length, i)][];
            System.arraycopy(rows, 0, grown, 0, rows.length);
            TABLES.setRelease(tables, kind, grown);
            rows = grown;
        }
        long[] r = emptyRow(kind);
        if (kind == SAMPLED) {
            r[S_COUNTDOWN] = firstCountdown();
        }
        ROWS.setRelease(rows, i, r);
        return r;
    }

    /** A row with nothing recorded: minima start at the largest value, maxima at the smallest. */
    static long[] emptyRow(int kind) {
        long[] r = new long[ROW_LENGTH[kind]];
        if (kind == TIMING) {
            r[T_MIN] = Long.MAX_VALUE;
            r[T_MAX] = Long.MIN_VALUE;
        } else if (kind == VALUES) {
            r[V_MIN] = Long.MAX_VALUE;
            r[V_MAX] = Long.MIN_VALUE;
        }
        return r;
    }

    /** A pseudo-random start in [1, SAMPLE_EVERY]: the first call is not always the sampled one. */
    private int firstCountdown() {
        int x = seed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        seed = x;
        return 1 + Integer.remainderUnsigned(x, Config.SAMPLE_EVERY);
    }

    private static int newLength(int oldLength, int index) {
        long wanted = Math.max(Math.max(64L, (long) oldLength * 2), (long) index + 1);
        return (int) Math.min(wanted, (long) SiteIndexes.MAX_INDEX + 1);
    }

    // ---- reader side (any thread) ----

    int publishedEpoch() {
        return (int) EPOCH.getAcquire(this);
    }

    long[] publishedCounts() {
        return (long[]) COUNTS.getAcquire(this);
    }

    long[] publishedCalls() {
        return (long[]) CALLS.getAcquire(this);
    }

    long[][] publishedTable(int kind) {
        return (long[][]) TABLES.getAcquire(tables, kind);
    }

    static long read(long[] array, int i) {
        return (long) LONGS.getAcquire(array, i);
    }

    static long[] readRow(long[][] rows, int i) {
        return (long[]) ROWS.getAcquire(rows, i);
    }
}
