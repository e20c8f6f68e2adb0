package org.dyper.patch.ask;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dyper.patch.ask.Question.Condition;
import org.dyper.patch.ask.Question.GroupBy;
import org.dyper.patch.ask.Question.Measure;
import org.dyper.patch.ask.Question.Name;
import org.dyper.patch.ask.Question.Op;
import org.dyper.patch.ask.Question.Stat;
import org.dyper.patch.ask.Question.Target;
import org.dyper.patch.ask.Question.ThreadCondition;
import org.dyper.patch.ask.Question.ValueRef;

/**
 * Reads the one-line form of a question (the grammar is docs/questions.md). Every error names the column where the
 * question stops making sense and what was expected there.
 */
public final class QuestionParser {
    private record Token(String text, int column, boolean quoted) {
        String lower() {
            return quoted ? "" : text.toLowerCase(Locale.ROOT);
        }

        boolean is(String word) {
            return !quoted && text.equalsIgnoreCase(word);
        }
    }

    private static final String CLASS_NAME = "[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*";

    private final String text;
    private final List<Token> tokens;
    private int pos;

    private QuestionParser(String text, List<Token> tokens) {
        this.text = text;
        this.tokens = tokens;
    }

    /** Parses one question; the text is taken as written (stripped). */
    public static Question parse(String question) throws QuestionException {
        String text = question.strip();
        int lead = question.indexOf(text.isEmpty() ? " " : text.substring(0, 1));
        QuestionParser p = new QuestionParser(text, tokens(question, Math.max(0, lead)));
        return p.question();
    }

    private static List<Token> tokens(String s, int from) throws QuestionException {
        List<Token> out = new ArrayList<>();
        int i = from;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '"' || c == '\'') {
                int end = s.indexOf(c, i + 1);
                if (end < 0) {
                    throw new QuestionException(i + 1, "the quoted name is not closed (" + c + " missing)");
                }
                out.add(new Token(s.substring(i + 1, end), i + 1, true));
                i = end + 1;
            } else if ("=!<>~".indexOf(c) >= 0) {
                int start = i;
                i++;
                if (i < s.length() && s.charAt(i) == '=' && c != '~') {
                    i++;   // <=, >=, !=, and == (the same as =)
                }
                String op = s.substring(start, i);
                if (op.equals("!")) {
                    throw new QuestionException(start + 1, "'!' alone is no operator (use !=)");
                }
                out.add(new Token(op, start + 1, false));
            } else {
                int start = i;
                while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && "=!<>~\"'".indexOf(s.charAt(i)) < 0) {
                    if (s.charAt(i) == '(') {
                        int end = s.indexOf(')', i);
                        if (end < 0) {
                            throw new QuestionException(i + 1, "the parameter list is not closed (')' missing)");
                        }
                        i = end;
                    }
                    i++;
                }
                out.add(new Token(s.substring(start, i).replace(" ", ""), start + 1, false));
            }
        }
        return out;
    }

    private Token peek() {
        return pos < tokens.size() ? tokens.get(pos) : null;
    }

    private Token next(String expected) throws QuestionException {
        Token t = peek();
        if (t == null) {
            throw new QuestionException(text.length() + 1, "the question ends where " + expected + " was expected");
        }
        pos++;
        return t;
    }

    private void expect(String word, String context) throws QuestionException {
        Token t = next("'" + word + "'");
        if (!t.is(word)) {
            throw new QuestionException(t.column, "expected '" + word + "'" + context + ", found '" + t.text + "'");
        }
    }

    private Question question() throws QuestionException {
        Token m = next("a measure (count, rate, time, wait, hold, sum, min, max, mean)");
        Measure measure;
        Stat stat;
        ValueRef value = null;
        switch (m.lower()) {
            case "count", "rate" -> {
                measure = m.is("rate") ? Measure.RATE : Measure.COUNT;
                stat = Stat.COUNT;
            }
            case "time", "wait", "hold" -> {
                measure = m.is("time") ? Measure.TIME : m.is("wait") ? Measure.WAIT : Measure.HOLD;
                stat = Stat.TOTAL;
                Token s = peek();
                if (s != null && !s.is("of")) {
                    pos++;
                    stat = switch (s.lower()) {
                        case "total" -> Stat.TOTAL;
                        case "mean" -> Stat.MEAN;
                        case "min" -> Stat.MIN;
                        case "max" -> Stat.MAX;
                        case "p50" -> Stat.P50;
                        case "p99" -> Stat.P99;
                        default -> throw new QuestionException(s.column, "expected 'of' or a statistic of " + m.text
                                + " (total, mean, min, max, p50, p99), found '" + s.text + "'");
                    };
                }
            }
            case "sum", "min", "max", "mean" -> {
                measure = Measure.VALUE;
                stat = Stat.valueOf(m.lower().toUpperCase(Locale.ROOT));
                value = valueRef(next("argN, return or value"), "after '" + m.text + "'");
            }
            default -> throw new QuestionException(m.column, "expected a measure (count, rate, time, wait, hold, sum, "
                    + "min, max, mean), found '" + m.text + "'");
        }
        expect("of", " after the measure");
        Target target = target();
        List<Condition> conditions = new ArrayList<>();
        ThreadCondition thread = null;
        Question.ExitCondition exit = null;
        Name during = null;
        GroupBy group = GroupBy.NONE;
        int top = 0;
        boolean hasWhere = false;
        boolean hasTop = false;
        boolean hasWindow = false;
        int window = 0;
        for (Token t = peek(); t != null; t = peek()) {
            pos++;
            switch (t.lower()) {
                case "where" -> {
                    if (hasWhere) {
                        throw new QuestionException(t.column, "a second 'where' (join conditions with 'and')");
                    }
                    hasWhere = true;
                    do {
                        Token v = next("a condition (argN, return, thread, normal or exception)");
                        if (v.is("normal") || v.is("exception")) {
                            if (exit != null) {
                                throw new QuestionException(v.column, "a second condition on how the event ends");
                            }
                            String type = null;
                            int typeColumn = 0;
                            if (v.is("exception") && peek() != null && peek().text.equals("=") && !peek().quoted) {
                                pos++;
                                Token c = next("an exception class after 'exception ='");
                                if (c.quoted || !c.text.matches(CLASS_NAME)) {
                                    throw new QuestionException(c.column, "expected an exception class (fully "
                                            + "qualified) after 'exception =', found '" + c.text + "'");
                                }
                                type = c.text;
                                typeColumn = c.column;
                            }
                            exit = new Question.ExitCondition(v.is("exception"), type, v.column, typeColumn);
                        } else if (v.is("thread")) {
                            if (thread != null) {
                                throw new QuestionException(v.column, "a second thread condition");
                            }
                            Token op = next("'=' or '~'");
                            if (!op.text.equals("=") && !op.text.equals("~")) {
                                throw new QuestionException(op.column, "a thread condition takes '=' (the name) or "
                                        + "'~' (a pattern with *), found '" + op.text + "'");
                            }
                            Token name = next("a thread name");
                            thread = new ThreadCondition(name.text, op.text.equals("="), v.column);
                        } else {
                            ValueRef ref = valueRef(v, "in a condition");
                            Token op = next("a comparison (=, !=, <, <=, >, >=)");
                            Op o = op(op);
                            Token k = next("a whole number");
                            conditions.add(new Condition(ref, o, number(k)));
                        }
                    } while (peek() != null && peek().is("and") && pos++ >= 0);
                }
                case "during" -> {
                    if (during != null) {
                        throw new QuestionException(t.column, "a second 'during' (one method per question)");
                    }
                    during = name(next("a method after 'during'"), "a method (Class.method) after 'during'");
                }
                case "by" -> {
                    if (group.kind() != GroupBy.Kind.NONE) {
                        throw new QuestionException(t.column, "a second 'by' (one grouping per question)");
                    }
                    Token g = next("caller, method, thread, receiver or argN after 'by'");
                    group = switch (g.lower()) {
                        case "caller" -> new GroupBy(GroupBy.Kind.CALLER, null, g.column);
                        case "method" -> new GroupBy(GroupBy.Kind.METHOD, null, g.column);
                        case "thread" -> new GroupBy(GroupBy.Kind.THREAD, null, g.column);
                        case "exception" -> new GroupBy(GroupBy.Kind.EXCEPTION, null, g.column);
                        case "receiver" -> {
                            if (peek() != null && peek().is("class")) {
                                pos++;
                            }
                            yield new GroupBy(GroupBy.Kind.RECEIVER, null, g.column);
                        }
                        case "field" -> {
                            Token f = next("a field (Class.field) after 'by field'");
                            ValueRef v = valueRef(f, "after 'by field'");
                            if (!v.isField()) {
                                throw new QuestionException(f.column, "expected a field (Class.field) after 'by "
                                        + "field', found '" + f.text + "'");
                            }
                            if (peek() != null && peek().is("bucket")) {
                                pos++;
                                yield new GroupBy(GroupBy.Kind.BUCKET, v, f.column);
                            }
                            yield new GroupBy(GroupBy.Kind.VALUE, v, f.column);
                        }
                        default -> {
                            if (!g.lower().matches("arg[0-9]+|value")) {
                                throw new QuestionException(g.column, "expected caller, method, thread, receiver "
                                        + "class, exception or argN after 'by', found '" + g.text + "'");
                            }
                            ValueRef v = valueRef(g, "after 'by'");
                            if (peek() != null && peek().is("bucket")) {
                                pos++;
                                yield new GroupBy(GroupBy.Kind.BUCKET, v, g.column);
                            }
                            yield new GroupBy(GroupBy.Kind.VALUE, v, g.column);
                        }
                    };
                }
                case "top" -> {
                    if (hasTop) {
                        throw new QuestionException(t.column, "a second 'top'");
                    }
                    hasTop = true;
                    Token n = next("a number after 'top'");
                    long v = number(n);
                    if (v < 1 || v > 1_000_000) {
                        throw new QuestionException(n.column, "top takes a number from 1 to 1000000, found " + v);
                    }
                    top = (int) v;
                }
                case "last", "since" -> {
                    if (hasWindow) {
                        throw new QuestionException(t.column, "a second window ('last N seconds' or 'since start')");
                    }
                    hasWindow = true;
                    if (t.is("since")) {
                        expect("start", " after 'since'");
                    } else {
                        Token n = next("a number of seconds after 'last'");
                        long v = number(n);
                        if (v < 1 || v > 86_400) {
                            throw new QuestionException(n.column, "last takes 1 to 86400 seconds, found " + v);
                        }
                        Token unit = next("'seconds' after the number");
                        if (!unit.is("seconds") && !unit.is("second")) {
                            throw new QuestionException(unit.column, "expected 'seconds' after the number, found '"
                                    + unit.text + "'");
                        }
                        window = (int) v;
                    }
                }
                default -> throw new QuestionException(t.column, "expected where, during, by, top, last or since, "
                        + "found '" + t.text + "'");
            }
        }
        return new Question(text, measure, stat, value, target, conditions, thread, exit, during, group, top,
                window);
    }

    private Target target() throws QuestionException {
        Token t = next("what to measure (a method, 'calls to', 'new', 'lock in' or 'writes to')");
        if (t.is("calls")) {
            expect("to", " after 'calls'");
            Name called = name(next("a method after 'calls to'"), "a method (Class.method) after 'calls to'");
            if (peek() != null && peek().is("from")) {
                pos++;
                Name from = name(next("a method after 'from'"), "a method (Class.method) after 'from'");
                return new Target(Target.Kind.CALLS_FROM, called, from);
            }
            return new Target(Target.Kind.CALLS, called, null);
        }
        if (t.is("new")) {
            Token type = next("a class after 'new'");
            if (!type.text.matches(CLASS_NAME)) {
                throw new QuestionException(type.column, "expected a class name after 'new', found '" + type.text
                        + "'");
            }
            return new Target(Target.Kind.NEW, new Name(type.text, type.column), null);
        }
        if (t.is("writes")) {
            expect("to", " after 'writes'");
            return new Target(Target.Kind.WRITES, name(next("a field after 'writes to'"), "a field (Class.field) after "
                    + "'writes to'"), null);
        }
        if (t.is("lock")) {
            expect("in", " after 'lock'");
            return new Target(Target.Kind.LOCK, name(next("a method after 'lock in'"), "a method (Class.method) "
                    + "after 'lock in'"), null);
        }
        return new Target(Target.Kind.CALLS, name(t, "a method (Class.method), 'calls to', 'new', 'lock in' or "
                + "'writes to' after 'of'"), null);
    }

    private static Name name(Token t, String expected) throws QuestionException {
        String s = t.text;
        int paren = s.indexOf('(');
        String head = paren < 0 ? s : s.substring(0, paren);
        if (t.quoted || head.indexOf('.') <= 0 || head.endsWith(".")
                || !head.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$<>][\\p{L}\\p{N}_$<>]*)+")
                || paren >= 0 && !s.endsWith(")")) {
            throw new QuestionException(t.column, "expected " + expected + ", found '" + s + "'");
        }
        return new Name(s, t.column);
    }

    private static ValueRef valueRef(Token t, String where) throws QuestionException {
        String s = t.lower();
        if (s.equals("return")) {
            return new ValueRef(0, t.column);
        }
        if (s.matches("arg[1-9][0-9]{0,2}")) {
            return new ValueRef(Integer.parseInt(s.substring(3)), t.column);
        }
        if (s.equals("value")) {
            return new ValueRef(ValueRef.WRITTEN, t.column);
        }
        if (!t.quoted && t.text.indexOf('.') > 0 && t.text.matches(CLASS_NAME)) {
            return new ValueRef(ValueRef.FIELD, t.column, t.text);   // a field: Class.field
        }
        throw new QuestionException(t.column, "expected argN (N from 1), return, value or a field (Class.field) "
                + where + ", found '" + t.text + "'");
    }

    private static Op op(Token t) throws QuestionException {
        for (Op o : Op.values()) {
            if ((o.symbol.equals(t.text) || o == Op.EQ && t.text.equals("==")) && !t.quoted) {
                return o;
            }
        }
        throw new QuestionException(t.column, "expected a comparison (=, !=, <, <=, >, >=), found '" + t.text + "'");
    }

    private static long number(Token t) throws QuestionException {
        try {
            return Long.parseLong(t.text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new QuestionException(t.column, "expected a whole number, found '" + t.text + "'");
        }
    }
}
