package org.dyper.runtime.ask;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One compiled question as the run time sees it: its conditions (split into those tested at the start of an event
 * and those that need its end), its grouping and its measure, with its groups ({@link Groups}) and the seed's two
 * work counters: <em>checks</em> (events whose conditions were tested) and <em>records</em> (events recorded).
 * Built from one line of the question table (format in {@link #parse}); immutable but for the counters and groups.
 */
final class Question {
    /** What is measured: events counted, durations (of a call, or of a lock wait), or a value (argument or return). */
    enum Measure { COUNT, RATE, TIME, WAIT, HOLD, VALUE }

    /** How events are grouped: not at all, by site (caller or method id), thread, receiver class, a value. */
    enum Group { NONE, SITE, THREAD, RECEIVER, SLOT, BUCKET, EXCEPTION }

    /** Which exits count: every one, normal returns only, or exceptional ones only (of {@link #exceptionType}). */
    enum Exit { ANY, NORMAL, EXCEPTION }

    /** The statistic that orders the groups (and picks the top N). */
    enum Stat { COUNT, TOTAL, MEAN, MIN, MAX, P50, P99, SUM }

    static final int EQ = 0, NE = 1, LT = 2, LE = 3, GT = 4, GE = 5;
    private static final String[] OPS = {"EQ", "NE", "LT", "LE", "GT", "GE"};

    final int id;
    final String text;
    final Measure measure;
    final Stat stat;
    final int valueSlot;
    final Group group;
    final int groupSlot;
    final String groupTitle;
    final String valueTitle;
    final int top;
    final int during;
    final String threadPattern;
    final Exit exit;
    /** With {@link Exit#EXCEPTION}: the class (binary name) the exception must be, or extend; null for any. */
    final String exceptionType;
    final int sites;
    /** The window of a question about the last N seconds, or null (since the start). */
    final Window window;
    /** Conditions tested at the start: slot, operator, constant, as three parallel arrays. */
    private final int[] beforeSlot, beforeOp;
    private final long[] beforeValue;
    private final int[] afterSlot, afterOp;
    private final long[] afterValue;
    final Groups groups;
    final LongAdder checks = new LongAdder();
    /** When the question was defined: a RATE is its count over the time since. */
    final long definedNanos = System.nanoTime();

    private Question(Map<String, String> f, int maxGroups) {
        id = Integer.parseInt(f.get("id"));
        text = f.getOrDefault("text", "");
        measure = Measure.valueOf(f.get("measure"));
        stat = Stat.valueOf(f.get("stat"));
        valueSlot = Integer.parseInt(f.getOrDefault("value", "-1"));
        group = Group.valueOf(f.getOrDefault("group", "NONE"));
        groupSlot = Integer.parseInt(f.getOrDefault("groupSlot", "-1"));
        groupTitle = f.getOrDefault("groupTitle", "");
        valueTitle = f.getOrDefault("valueTitle", "");
        top = Integer.parseInt(f.getOrDefault("top", "0"));
        during = Integer.parseInt(f.getOrDefault("during", "-1"));
        String t = f.getOrDefault("thread", "");
        threadPattern = t.isEmpty() ? null : t;
        exit = Exit.valueOf(f.getOrDefault("exit", "ANY"));
        String e = f.getOrDefault("exception", "");
        exceptionType = e.isEmpty() ? null : e;
        sites = Integer.parseInt(f.getOrDefault("sites", "0"));
        long[][] before = conditions(f.getOrDefault("before", ""));
        beforeSlot = ints(before[0]);
        beforeOp = ints(before[1]);
        beforeValue = before[2];
        long[][] after = conditions(f.getOrDefault("after", ""));
        afterSlot = ints(after[0]);
        afterOp = ints(after[1]);
        afterValue = after[2];
        int w = Integer.parseInt(f.getOrDefault("window", "0"));
        if (w < 0 || w > 86_400) {
            throw new IllegalArgumentException("window=" + w + " is not 0 to 86400 seconds");
        }
        window = w == 0 ? null : new Window(w);
        groups = new Groups(maxGroups, timed(), window);
    }

    /**
     * Reads one line of the question table: TAB-separated {@code key=value} fields: {@code id}, {@code measure}
     * ({@link Measure}), {@code stat} ({@link Stat}), {@code value} (slot 0-2 of the measured value, or -1),
     * {@code group} ({@link Group}), {@code groupSlot}, {@code groupTitle}, {@code valueTitle}, {@code top} (0: all),
     * {@code during} (a flag, or -1), {@code thread} (a thread-name pattern, {@code *} any run of characters),
     * {@code before} and {@code after} (conditions {@code slot:OP:constant} separated by commas, OP one of EQ NE LT LE
     * GT GE), {@code exit} ({@link Exit}: which exits count; the exception, or null for a normal one, is the
     * {@code receiver} the end of the event passes), {@code exception} (a class the exception must be or extend),
     * {@code window} (the N of "last N seconds", 0 or absent: since the start), {@code sites} (how many sites were
     * patched) and {@code text} (last: the question as asked).
     *
     * @throws IllegalArgumentException when a field is missing or malformed
     */
    static Question parse(String line, int maxGroups) {
        Map<String, String> fields = new HashMap<>();
        for (String part : line.split("\t")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not key=value: " + part);
            }
            fields.put(part.substring(0, eq), part.substring(eq + 1));
        }
        for (String required : new String[] {"id", "measure", "stat"}) {
            if (!fields.containsKey(required)) {
                throw new IllegalArgumentException("no " + required + "= field");
            }
        }
        return new Question(fields, maxGroups);
    }

    private static long[][] conditions(String spec) {
        if (spec.isEmpty()) {
            return new long[][] {{}, {}, {}};
        }
        String[] parts = spec.split(",");
        long[][] c = new long[3][parts.length];
        for (int i = 0; i < parts.length; i++) {
            String[] p = parts[i].split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("not slot:OP:constant: " + parts[i]);
            }
            c[0][i] = Integer.parseInt(p[0]);
            c[1][i] = op(p[1]);
            c[2][i] = Long.parseLong(p[2]);
        }
        return c;
    }

    private static int op(String name) {
        for (int i = 0; i < OPS.length; i++) {
            if (OPS[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown operator " + name);
    }

    private static int[] ints(long[] values) {
        int[] r = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            r[i] = (int) values[i];
        }
        return r;
    }

    boolean timed() {
        return measure == Measure.TIME || measure == Measure.WAIT || measure == Measure.HOLD;
    }

    /** Counts one check. Always true (so it reads as a step of the condition chain). */
    boolean checked() {
        checks.increment();
        return true;
    }

    /** The conditions whose data exists at the start of the event: the thread, the during flag, argument tests. */
    boolean before(long a, long b, long c) {
        if (during >= 0 && !During.on(during)) {
            return false;
        }
        if (threadPattern != null && !Glob.matches(threadPattern, Thread.currentThread().getName())) {
            return false;
        }
        return test(beforeSlot, beforeOp, beforeValue, a, b, c);
    }

    /** The conditions that need the end of the event (the returned value). */
    boolean after(long a, long b, long c) {
        return test(afterSlot, afterOp, afterValue, a, b, c);
    }

    /**
     * Whether an exit counts: {@code thrown} is the exception that ended the event, or null for a normal return (only
     * questions with an exit condition are passed it). The type is compared by name along the superclasses, which
     * allocates nothing ({@code Class.getName} is cached by the class).
     */
    boolean exitAllowed(Object thrown) {
        if (exit == Exit.ANY) {
            return true;
        }
        if (exit == Exit.NORMAL) {
            return thrown == null;
        }
        if (thrown == null) {
            return false;
        }
        if (exceptionType == null) {
            return true;
        }
        for (Class<?> c = thrown.getClass(); c != null; c = c.getSuperclass()) {
            if (c.getName().equals(exceptionType)) {
                return true;
            }
        }
        return false;
    }

    private static boolean test(int[] slot, int[] op, long[] value, long a, long b, long c) {
        for (int i = 0; i < slot.length; i++) {
            long v = slot[i] == 0 ? a : slot[i] == 1 ? b : c;
            long k = value[i];
            boolean ok = switch (op[i]) {
                case EQ -> v == k;
                case NE -> v != k;
                case LT -> v < k;
                case LE -> v <= k;
                case GT -> v > k;
                default -> v >= k;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The measured value of a VALUE question (a slot); 0 for the others. */
    long value(long a, long b, long c) {
        return valueSlot < 0 ? 0 : valueSlot == 0 ? a : valueSlot == 1 ? b : c;
    }

    /** Records one event in its group. */
    @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, and a thread's id never changes
    void record(int site, Object receiver, long a, long b, long c, long value) {
        Groups.Row row = switch (group) {
            case NONE -> groups.single();
            case SITE -> groups.of(site, null, Groups.SITE_LABEL);
            case THREAD -> groups.ofThread(Thread.currentThread());
            case RECEIVER -> receiver == null ? groups.of(0, Groups.NO_RECEIVER, "(static)")
                    : groups.of(0, receiver.getClass(), null);
            case SLOT -> {
                long k = groupSlot == 0 ? a : groupSlot == 1 ? b : c;
                yield groups.of(k, null, Groups.VALUE_LABEL);
            }
            case BUCKET -> {
                long k = groupSlot == 0 ? a : groupSlot == 1 ? b : c;
                yield groups.of(Groups.bucket(k), null, Groups.BUCKET_LABEL);
            }
            case EXCEPTION -> receiver == null ? groups.of(0, Groups.NO_EXCEPTION, "(normal)")
                    : groups.of(0, receiver.getClass(), null);
        };
        row.add(value);
        if (window != null) {
            window.add(row.ring, window.period(Window.nanos(), definedNanos), value);
        }
    }

    /** The events recorded: every group's count (each record adds one to exactly one group). */
    long records() {
        return groups.total();
    }
}
