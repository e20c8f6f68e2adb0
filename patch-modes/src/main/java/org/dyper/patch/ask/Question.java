package org.dyper.patch.ask;

import java.util.List;

/**
 * One question as parsed from its one-line form (docs/questions.md), names not yet resolved. Every part keeps the
 * column where it was written, so that the compiler can point at it.
 *
 * @param text the question as asked
 * @param measure what is measured; {@code stat} the statistic that orders the groups
 * @param value the argument or return value a VALUE measure summarises (null otherwise)
 * @param target what events the question is about
 * @param conditions the {@code where} conditions on values (all must hold)
 * @param thread a thread-name condition, or null
 * @param exit a condition on how the event ends (normally, or by an exception), or null
 * @param during the {@code during} method, or null
 * @param group how events are grouped ({@link GroupBy#NONE} when no {@code by})
 * @param top how many groups to show (0: all)
 * @param window the N of {@code last N seconds} (0: since the start)
 */
public record Question(String text, Measure measure, Stat stat, ValueRef value, Target target,
                       List<Condition> conditions, ThreadCondition thread, ExitCondition exit, Name during,
                       GroupBy group, int top, int window) {
    public Question {
        conditions = List.copyOf(conditions);
    }

    /** What is measured. */
    public enum Measure { COUNT, RATE, TIME, WAIT, HOLD, VALUE }

    /** The statistic that orders the groups; for a VALUE measure the aggregate asked for. */
    public enum Stat { COUNT, TOTAL, MEAN, MIN, MAX, P50, P99, SUM }

    /** A name as written ({@code acme.Bank.transfer} or {@code acme.Bank.transfer(int,int,long)}), with its column. */
    public record Name(String text, int column) {
    }

    /**
     * {@code argN} (index from 1), {@code return} (index 0), {@code value} ({@link #WRITTEN}: a field write's), or a
     * field ({@link #FIELD}, {@code field} its name as written: {@code Class.field}).
     */
    public record ValueRef(int index, int column, String field) {
        /** The index of {@code value}, the value a field write writes. */
        public static final int WRITTEN = -1;
        /** The index of a field read at the event. */
        public static final int FIELD = -2;

        public ValueRef(int index, int column) {
            this(index, column, null);
        }

        public boolean isReturn() {
            return index == 0;
        }

        public boolean isWritten() {
            return index == WRITTEN;
        }

        public boolean isField() {
            return index == FIELD;
        }

        /** Whether two references read the same value (and so share a slot). */
        public boolean same(ValueRef other) {
            return index == other.index && java.util.Objects.equals(field, other.field);
        }

        @Override
        public String toString() {
            return index == 0 ? "return" : index == WRITTEN ? "value" : index == FIELD ? field : "arg" + index;
        }
    }

    /** The target: calls of a method, calls of it from a caller, allocations of a type, the locks taken in a method. */
    public record Target(Kind kind, Name name, Name from) {
        public enum Kind { CALLS, CALLS_FROM, NEW, LOCK, WRITES }
    }

    /** {@code value op constant}. */
    public record Condition(ValueRef value, Op op, long constant) {
    }

    /** Comparison operators, with the names the runtime's question table uses. */
    public enum Op {
        EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }
    }

    /** {@code thread = NAME} (exact) or {@code thread ~ PATTERN} ({@code *}: any run of characters). */
    public record ThreadCondition(String pattern, boolean exact, int column) {
    }

    /**
     * {@code normal} (the event returned normally) or {@code exception} (it ended by an exception), with
     * {@code exception = Class} a class the exception must be or extend ({@code type} null for any).
     */
    public record ExitCondition(boolean exceptional, String type, int column, int typeColumn) {
    }

    /**
     * The grouping: none, the caller (or allocating method), the method, the thread, the receiver's class, a value, or
     * a value's power-of-two bucket, or the class of the exception that ended the event.
     */
    public record GroupBy(Kind kind, ValueRef value, int column) {
        public enum Kind { NONE, CALLER, METHOD, THREAD, RECEIVER, VALUE, BUCKET, EXCEPTION }

        public static final GroupBy NONE = new GroupBy(Kind.NONE, null, 0);
    }
}
