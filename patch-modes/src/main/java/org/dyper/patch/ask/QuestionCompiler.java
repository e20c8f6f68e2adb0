package org.dyper.patch.ask;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dyper.patch.ask.Question.Condition;
import org.dyper.patch.ask.Question.GroupBy;
import org.dyper.patch.ask.Question.Measure;
import org.dyper.patch.ask.Question.Target;
import org.dyper.patch.ask.Question.ValueRef;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.MethodInfo;

/**
 * Compiles questions into the least instrumentation that answers them: a patch model, the modes it uses (calls of
 * {@code org.dyper.runtime.ask.Ask}) and the run time's question table (docs/questions.md, "What a question becomes").
 * Only join points that can contribute are patched: for a question about calls from a caller, or grouped by caller,
 * the call sites in the callers (never the callee's entry); for {@code during M} the entry and exits of M; each
 * condition is tested where its data first exists (arguments at the start of the event, the returned value at its
 * end).
 */
public final class QuestionCompiler {
    /** The runtime class the generated modes call. */
    static final String ASK = "org.dyper.runtime.ask.Ask";
    private static final int SLOTS = 3;

    /** Where the measuring patches of a question go. */
    enum Where { EXEC, CALL, ALLOC, LOCK, WRITE }

    /** One compiled question: where it patches (each site described for {@code --explain}) and its table line. */
    public record Compiled(Question question, int index, List<String> sites, String tableLine) {
    }

    /** Everything the questions of one run become. */
    public record Result(List<Compiled> questions, String model, String modes, String table, List<String> warnings) {
        /** The number of join points patched, over every question. */
        public int sites() {
            return questions.stream().mapToInt(c -> c.sites().size()).sum();
        }
    }

    private final Resolver resolver;
    private final StringBuilder model = new StringBuilder();
    private final StringBuilder modes = new StringBuilder();
    private final StringBuilder table = new StringBuilder();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, Integer> duringFlags = new LinkedHashMap<>();
    /** Join points where a question keeps a context (one per join point), to the question's text. */
    private final Map<String, String> contexts = new HashMap<>();

    private QuestionCompiler(ClassIndex index) {
        this.resolver = new Resolver(index);
    }

    /**
     * Compiles questions (one-line form) against the classes of {@code index}; a question that cannot be parsed or
     * names what the classes lack throws, naming the question's position and the column.
     */
    public static Result compile(List<String> questions, ClassIndex index) throws QuestionException, IOException {
        QuestionCompiler c = new QuestionCompiler(index);
        c.model.append("<MODEL NAME='dyper-ask'>\n");
        c.modes.append("<DYPATCH>\n");
        c.table.append("# Dyper question table (docs/questions.md): one question per line, TAB-separated key=value\n");
        List<Compiled> compiled = new ArrayList<>();
        for (int q = 0; q < questions.size(); q++) {
            try {
                compiled.add(c.compile(QuestionParser.parse(questions.get(q)), q));
            } catch (QuestionException e) {
                throw e.in(q);
            }
        }
        c.model.append("</MODEL>\n");
        c.modes.append("</DYPATCH>\n");
        return new Result(compiled, c.model.toString(), c.modes.toString(), c.table.toString(), c.warnings);
    }

    private Compiled compile(Question q, int index) throws QuestionException, IOException {
        Target target = q.target();
        GroupBy group = q.group();
        // ---- where the events are: the targets resolved, and the kind of join point that sees them ----
        List<MethodInfo> methods = List.of();
        Resolver.Writes writes = target.kind() == Target.Kind.WRITES ? resolver.writes(target.name()) : null;
        Where where;
        switch (target.kind()) {
            case NEW -> where = Where.ALLOC;
            case WRITES -> where = Where.WRITE;
            case LOCK -> {
                where = Where.LOCK;
                methods = resolver.methods(target.name());
            }
            case CALLS_FROM -> {
                where = Where.CALL;
                methods = resolver.calledMethods(target.name());
            }
            default -> {
                // a JDK method's own code is not woven: its calls are counted where the program makes them
                boolean jdk = resolver.isJdkClass(target.name());
                where = group.kind() == GroupBy.Kind.CALLER || jdk ? Where.CALL : Where.EXEC;
                methods = where == Where.CALL ? resolver.calledMethods(target.name())
                        : resolver.methods(target.name());
                if (jdk && group.kind() != GroupBy.Kind.CALLER) {
                    warnings.add(target.name().text() + ": a JDK method; its calls are measured in the callers on "
                            + "the class path (calls from the JDK's own code are not seen)");
                }
            }
        }
        checkMeasure(q, where);
        // ---- the values the question reads, each in a slot ----
        List<ValueRef> slots = new ArrayList<>();
        List<ValueRef> refs = new ArrayList<>();
        if (q.value() != null) {
            refs.add(q.value());
        }
        q.conditions().forEach(c -> refs.add(c.value()));
        if (group.value() != null) {
            refs.add(group.value());
        }
        Map<String, String> fieldArgs = new HashMap<>();
        for (ValueRef r : refs) {
            if (r.isField()) {
                fieldArgs.put(r.field(), fieldArg(r, where, methods));
            } else if (r.isWritten() != (where == Where.WRITE)) {
                throw new QuestionException(r.column(), r.isWritten() ? "value: only a field write has a written value "
                        + "(ask about 'writes to Class.field')" : r + ": a field write has no arguments or return "
                        + "value (use 'value', the value written)");
            }
            if (!r.isField() && (where == Where.ALLOC || where == Where.LOCK)) {
                throw new QuestionException(r.column(), r + ": " + (where == Where.ALLOC ? "an allocation"
                        : "a lock") + " has no arguments or return value a question can use");
            }
            for (MethodInfo m : r.isField() ? List.<MethodInfo>of() : methods) {
                resolver.checkValue(r, m);
            }
            if (writes != null && !r.isField() && !INTEGRAL.contains(org.objectweb.asm.Type.getType(writes.field().descriptor())
                    .getClassName())) {
                throw new QuestionException(r.column(), "value: " + writes.field().owner() + "."
                        + writes.field().name() + " is a " + org.objectweb.asm.Type.getType(writes.field()
                        .descriptor()).getClassName() + ": questions compare, sum and group whole numbers only (int, "
                        + "long, short, byte, char)");
            }
            if (slots.stream().noneMatch(s -> s.same(r))) {
                if (slots.size() == SLOTS) {
                    throw new QuestionException(r.column(), "a question reads at most " + SLOTS
                            + " distinct arguments or return values");
                }
                slots.add(r);
            }
        }
        boolean usesReturn = slots.stream().anyMatch(ValueRef::isReturn);
        // ---- how the event ends: the exception (null on a normal return) is read at its end ----
        String exitField = "ANY";
        String exceptionType = "";
        boolean byException = group.kind() == GroupBy.Kind.EXCEPTION;
        Question.ExitCondition exit = q.exit();
        if (exit != null || byException) {
            int col = exit != null ? exit.column() : group.column();
            if (where != Where.EXEC && where != Where.CALL) {
                throw new QuestionException(col, (exit == null ? "by exception" : exit.exceptional() ? "exception"
                        : "normal") + ": only calls of a method end normally or by an exception (" + (where
                        == Where.ALLOC ? "an allocation" : where == Where.LOCK ? "a lock" : "a field write")
                        + " is asked about where it happens)");
            }
            if (usesReturn && (byException || exit.exceptional())) {
                throw new QuestionException(col, (byException ? "by exception" : "exception") + ": a question about "
                        + "the returned value sees normal returns only");
            }
            if (byException && exit != null && !exit.exceptional()) {
                throw new QuestionException(group.column(), "by exception: 'where normal' leaves only normal "
                        + "returns, one group");
            }
            if (exit != null && exit.type() != null) {
                exceptionType = resolver.exceptionClass(exit.type(), exit.typeColumn());
            }
            if (exit != null && !usesReturn) {
                exitField = exit.exceptional() ? "EXCEPTION" : "NORMAL";
            }
        }
        boolean thrown = !exitField.equals("ANY") || byException;
        boolean timed = q.measure() == Measure.TIME || q.measure() == Measure.WAIT;
        boolean hasBefore = q.thread() != null || q.during() != null
                || q.conditions().stream().anyMatch(c -> !c.value().isReturn());
        boolean atEnd = usesReturn || thrown;
        boolean split = timed || atEnd && hasBefore;
        // ---- the grouping ----
        String groupKind;
        String groupTitle;
        String siteArg = "METHODID";
        String receiverArg = null;
        switch (group.kind()) {
            case NONE -> {
                groupKind = "NONE";
                groupTitle = "";
            }
            case CALLER -> {
                if (where == Where.LOCK) {
                    throw new QuestionException(group.column(), "by caller: a lock has no caller here (use 'by "
                            + "thread', or ask about calls of the method)");
                }
                groupKind = "SITE";
                groupTitle = where == Where.ALLOC ? "allocating method" : where == Where.WRITE ? "writing method"
                        : "caller";
            }
            case METHOD -> {
                groupKind = "SITE";
                groupTitle = "method";
                if (where == Where.CALL) {
                    siteArg = "REFMETHODID";
                }
            }
            case THREAD -> {
                groupKind = "THREAD";
                groupTitle = "thread";
            }
            case EXCEPTION -> {
                groupKind = "EXCEPTION";
                groupTitle = "exception";
            }
            case RECEIVER -> {
                if (thrown) {
                    throw new QuestionException(group.column(), "by receiver: a question about how calls end cannot "
                            + "group by receiver (ask it without the condition on the exception, or group otherwise)");
                }
                groupKind = "RECEIVER";
                groupTitle = "receiver class";
                switch (where) {
                    case EXEC -> {
                        if (methods.stream().allMatch(MethodInfo::isStatic)) {
                            throw new QuestionException(group.column(), "by receiver: " + target.name().text()
                                    + " is static (no receiver)");
                        }
                        receiverArg = "<ARG TYPE='THIS'/>";
                    }
                    case CALL -> receiverArg = "<ARG TYPE='TARGET'/>";
                    case LOCK -> receiverArg = "<ARG TYPE='ARG' VALUE='1'/>";
                    case WRITE -> {
                        if (writes.field().isStatic()) {
                            throw new QuestionException(group.column(), "by receiver: " + target.name().text()
                                    + " is static (no object is written)");
                        }
                        receiverArg = "<ARG TYPE='TARGET'/>";
                    }
                    default -> throw new QuestionException(group.column(), "by receiver: an allocation has no "
                            + "receiver (use 'by method' or 'by thread')");
                }
            }
            case BUCKET -> {
                groupKind = "BUCKET";
                groupTitle = group.value() + " (bucket)";
            }
            default -> {
                groupKind = "SLOT";
                groupTitle = group.value().toString();
            }
        }
        // ---- the join points ----
        List<JoinPoint> points = switch (where) {
            case EXEC -> methods.stream().map(m -> new JoinPoint(m, null, 1, (split ? "ENTER/EXIT "
                    : atEnd ? "EXIT " : "ENTER ") + m.displayName())).toList();
            case CALL -> resolver.calls(methods, target.kind() == Target.Kind.CALLS_FROM
                    ? resolver.methods(target.from()) : null, target, warnings);
            case ALLOC -> resolver.allocations(target.name());
            case LOCK -> resolver.locks(methods, target.name(), q.measure() == Measure.HOLD ? "SYNC_ENTER/SYNC_EXIT"
                    : "SYNC_TEST/SYNC_ENTER");
            case WRITE -> writes.points();
        };
        // ---- the model and modes ----
        String mode = "ASK_Q" + index;
        String receiver = receiverArg == null ? "<ARG TYPE='NULL'/>" : receiverArg;
        // at the end of an event about how it ends, the exception takes the receiver's place
        String endReceiver = thrown ? "<ARG TYPE='EXCEPTION'/>" : receiver;
        String startWhat = switch (where) {
            case EXEC -> "ENTER";
            case CALL -> "CALL";
            case ALLOC -> "OBJECT_ALLOC";
            case LOCK -> timed ? "SYNC_TEST" : "SYNC_ENTER";
            case WRITE -> writes.field().isStatic() ? "STATIC_WRITE" : "FIELD_WRITE";
        };
        String endWhat = switch (where) {
            case EXEC -> "EXIT";
            case CALL -> "CALL";
            case LOCK -> "SYNC_ENTER";
            default -> null;
        };
        List<String> patches = new ArrayList<>();
        if (q.measure() == Measure.HOLD) {
            // from each acquisition to its release: two join points, paired on a per-thread stack at run time (Held)
            modes.append(modeXml(mode + "_ACQUIRED", null, "acquired", "void (int, int, java.lang.Object, long, long, "
                    + "long)", index, null, siteArg, receiver, slotArgs(slots, false, fieldArgs), ""));
            modes.append(modeXml(mode + "_RELEASED", null, "released", "void (int, int, java.lang.Object, long, long, "
                    + "long)", index, null, siteArg, receiver, slotArgs(slots, false, fieldArgs), ""));
            patches.add(patch("SYNC_ENTER", mode + "_ACQUIRED", where, target));
            patches.add(patch("SYNC_EXIT", mode + "_RELEASED", where, target));
        } else if (split) {
            modes.append(modeXml(mode + "_BEGIN", "long", "begin", "long (int, int, java.lang.Object, long, long, long)",
                    index, null, siteArg, receiver, slotArgs(slots, false, fieldArgs), "      <RETURN TYPE='CONTEXT'/>\n"));
            modes.append(modeXml(mode + "_END", "long", "end",
                    "void (int, long, int, java.lang.Object, long, long, long)", index,
                    "      <ARG TYPE='CONTEXT'/>\n", siteArg, endReceiver, slotArgs(slots, true, fieldArgs), ""));
            patches.add(patch(startWhat, mode + "_BEGIN", where, target));
            patches.add(patch(endWhat, mode + "_END", where, target));
        } else {
            modes.append(modeXml(mode + "_POINT", null, "point", "void (int, int, java.lang.Object, long, long, long)",
                    index, null, siteArg, atEnd ? endReceiver : receiver, slotArgs(slots, atEnd, fieldArgs), ""));
            patches.add(patch(atEnd ? endWhat : startWhat, mode + "_POINT", where, target));
        }
        List<String> sites = new ArrayList<>();
        for (JoinPoint p : points) {
            if (split) {
                String key = p.method().owner() + "." + p.method().name() + p.method().descriptor() + " " + where
                        + (p.detail() == null ? "" : " " + p.detail());
                String other = contexts.putIfAbsent(key, q.text());
                if (other != null) {
                    throw new QuestionException(target.name().column(), "'" + other + "' already keeps a context "
                            + "at " + p.description() + "; a join point holds one: ask these in separate runs");
                }
            }
            sites.add(p.description());
        }
        for (MethodInfo m : distinctMethods(points)) {
            model.append("  <FOR CLASS='").append(xml(m.owner())).append("' METHOD='")
                    .append(xml(Resolver.methodPattern(m))).append("'>\n");
            patches.forEach(model::append);
            model.append("  </FOR>\n");
        }
        // ---- during ----
        int flag = -1;
        if (q.during() != null) {
            List<MethodInfo> in = resolver.methods(q.during());
            String key = q.during().text();
            Integer f = duringFlags.get(key);
            if (f == null) {
                f = duringFlags.size();
                duringFlags.put(key, f);
                modes.append(modeXml("ASK_DURING" + f + "_ENTER", null, "enterDuring", "void (int)", f, null, null,
                        null, "", ""));
                modes.append(modeXml("ASK_DURING" + f + "_EXIT", null, "exitDuring", "void (int)", f, null, null,
                        null, "", ""));
                for (MethodInfo m : in) {
                    model.append("  <FOR CLASS='").append(xml(m.owner())).append("' METHOD='")
                            .append(xml(Resolver.methodPattern(m))).append("'>\n")
                            .append("    <PATCH WHAT='ENTER' MODE='ASK_DURING").append(f).append("_ENTER'/>\n")
                            .append("    <PATCH WHAT='EXIT' MODE='ASK_DURING").append(f).append("_EXIT'/>\n")
                            .append("  </FOR>\n");
                }
            }
            flag = f;
            for (MethodInfo m : in) {
                sites.add("ENTER/EXIT " + m.displayName() + " (the during flag)");
            }
        }
        // ---- the run time's line ----
        String valueSlot = q.value() == null ? "-1" : Integer.toString(slotOf(slots, q.value()));
        StringBuilder line = new StringBuilder();
        line.append("id=").append(index).append("\tmeasure=").append(q.measure()).append("\tstat=").append(q.stat())
                .append("\tvalue=").append(valueSlot).append("\tgroup=").append(groupKind)
                .append("\tgroupSlot=").append(group.value() == null ? -1 : slotOf(slots, group.value()))
                .append("\tgroupTitle=").append(groupTitle)
                .append("\tvalueTitle=").append(q.value() == null ? "" : q.value().toString())
                .append("\ttop=").append(q.top()).append("\tduring=").append(flag)
                .append("\tthread=").append(threadPattern(q))
                .append(exitField.equals("ANY") ? "" : "\texit=" + exitField)
                .append(exceptionType.isEmpty() ? "" : "\texception=" + exceptionType)
                .append(q.window() == 0 ? "" : "\twindow=" + q.window())
                .append("\tbefore=").append(conditions(q, slots, false))
                .append("\tafter=").append(conditions(q, slots, true))
                .append("\tsites=").append(sites.size())
                .append("\ttext=").append(q.text().replaceAll("[\\t\\r\\n]", " "));
        table.append(line).append('\n');
        return new Compiled(q, index, List.copyOf(sites), line.toString());
    }

    private static void checkMeasure(Question q, Where where) throws QuestionException {
        int col = 1;
        switch (q.measure()) {
            case TIME -> {
                if (where == Where.ALLOC || where == Where.LOCK || where == Where.WRITE) {
                    throw new QuestionException(col, "time: " + (where == Where.LOCK ? "a lock's time is its wait "
                            + "(use 'wait of lock in ...')" : (where == Where.ALLOC ? "an allocation" : "a field write")
                            + " has no duration (use count)"));
                }
            }
            case WAIT -> {
                if (where != Where.LOCK) {
                    throw new QuestionException(col, "wait: only a lock is waited for (use 'wait of lock in "
                            + "Class.method')");
                }
            }
            case HOLD -> {
                if (where != Where.LOCK) {
                    throw new QuestionException(col, "hold: only a lock is held (use 'hold of lock in "
                            + "Class.method')");
                }
            }
            case VALUE -> {
                if (where == Where.ALLOC || where == Where.LOCK) {
                    throw new QuestionException(q.value().column(), q.value() + ": " + (where == Where.ALLOC
                            ? "an allocation" : "a lock") + " has no arguments or return value a question can use");
                }
            }
            default -> {
            }
        }
        if (q.window() > 0 && (q.stat() == Question.Stat.P50 || q.stat() == Question.Stat.P99)) {
            throw new QuestionException(col, q.stat().name().toLowerCase(java.util.Locale.ROOT) + ": a window keeps "
                    + "count, sum, min and max of each slot, no percentiles (ask total, mean, min or max)");
        }
        if (q.thread() != null && q.thread().exact() && q.thread().pattern().contains("*")) {
            throw new QuestionException(q.thread().column(), "thread = compares the whole name; for a pattern with "
                    + "* use thread ~");
        }
    }

    private static String threadPattern(Question q) {
        return q.thread() == null ? "" : q.thread().pattern().replaceAll("[\\t\\r\\n]", " ");
    }

    private static int slotOf(List<ValueRef> slots, ValueRef r) {
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i).same(r)) {
                return i;
            }
        }
        throw new IllegalStateException("no slot for " + r);
    }

    private static String conditions(Question q, List<ValueRef> slots, boolean after) {
        List<String> out = new ArrayList<>();
        for (Condition c : q.conditions()) {
            if (c.value().isReturn() == after) {
                out.add(slotOf(slots, c.value()) + ":" + c.op().name() + ":" + c.constant());
            }
        }
        return String.join(",", out);
    }

    /**
     * How a question reads a field at its events (the ARG FIELD VALUE): a static field by its class's name, anywhere;
     * an instance field by its name, only where the event runs on an object of its class (a method's execution).
     */
    private String fieldArg(ValueRef r, Where where, List<MethodInfo> methods) throws QuestionException {
        org.dyper.patch.scan.FieldInfo f = resolver.field(new Question.Name(r.field(), r.column()));
        String type = org.objectweb.asm.Type.getType(f.descriptor()).getClassName();
        if (!INTEGRAL.contains(type)) {
            throw new QuestionException(r.column(), r + " is a " + type + ": questions compare, sum and group whole "
                    + "numbers only (int, long, short, byte, char)");
        }
        if (f.isStatic()) {
            return f.owner() + "." + f.name();
        }
        if (where != Where.EXEC) {
            throw new QuestionException(r.column(), r + " is an instance field: it is read from the object a method "
                    + "runs on, so ask about the method's executions (no 'by caller', no 'calls to'), or use a static "
                    + "field");
        }
        for (MethodInfo m : methods) {
            if (m.isStatic() || !resolver.sees(m.owner(), f)) {
                throw new QuestionException(r.column(), r + " is an instance field, and " + m.displayName() + " does "
                        + "not run on an object of its class");
            }
        }
        return f.name();
    }

    /** The slot arguments of a mode: ARG n, RETURN (only at the end of an event), a field, or 0. */
    private static String slotArgs(List<ValueRef> slots, boolean atEnd, Map<String, String> fieldArgs) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < SLOTS; i++) {
            ValueRef r = i < slots.size() ? slots.get(i) : null;
            if (r == null || r.isReturn() && !atEnd) {
                s.append("      <ARG TYPE='INTEGER' VALUE='0'/>\n");
            } else if (r.isField()) {
                s.append("      <ARG TYPE='FIELD' VALUE='").append(xml(fieldArgs.get(r.field()))).append("'/>\n");
            } else if (r.isReturn()) {
                s.append("      <ARG TYPE='RETURN'/>\n");
            } else if (r.isWritten()) {
                s.append("      <ARG TYPE='ARG' VALUE='1'/>\n");   // at a field write: the value written
            } else {
                s.append("      <ARG TYPE='ARG' VALUE='").append(r.index()).append("'/>\n");
            }
        }
        return s.toString();
    }

    private static String modeXml(String name, String context, String method, String signature, int index,
            String contextArg, String siteArg, String receiver, String slots, String tail) {
        StringBuilder m = new StringBuilder();
        m.append("  <DYPATCH_MODE NAME='").append(name).append('\'');
        if (context != null) {
            m.append(" CONTEXT='").append(context).append('\'');
        }
        m.append(">\n    <CODE TYPE='CALL' CLASS='").append(ASK).append("' METHOD='").append(method)
                .append("' SIGNATURE='").append(signature).append("'>\n");
        if (contextArg != null) {
            m.append("      <CONDITION TYPE='CONTEXT'/>\n");
        }
        m.append("      <ARG TYPE='INTEGER' VALUE='").append(index).append("'/>\n");
        if (contextArg != null) {
            m.append(contextArg);
        }
        if (siteArg != null) {
            m.append("      <ARG TYPE='").append(siteArg).append("'/>\n");
            m.append("      ").append(receiver).append('\n');
        }
        m.append(slots).append(tail).append("    </CODE>\n  </DYPATCH_MODE>\n");
        return m.toString();
    }

    private static String patch(String what, String mode, Where where, Target target) {
        StringBuilder p = new StringBuilder("    <PATCH WHAT='").append(what).append("' MODE='").append(mode)
                .append('\'');
        if (where == Where.CALL) {
            p.append(">\n      <WHEN CASE='METHOD' ARG='").append(xml(Resolver.calledPattern(target.name())))
                    .append("'/>\n    </PATCH>\n");
        } else if (where == Where.WRITE) {
            p.append(">\n      <WHEN CASE='FIELD' ARG='").append(xml(target.name().text()))
                    .append("'/>\n    </PATCH>\n");
        } else if (where == Where.ALLOC) {
            p.append(">\n      <WHEN CASE='CLASS' ARG='").append(xml(target.name().text()))
                    .append("'/>\n    </PATCH>\n");
        } else {
            p.append("/>\n");
        }
        return p.toString();
    }

    private static List<MethodInfo> distinctMethods(List<JoinPoint> points) {
        Map<String, MethodInfo> seen = new LinkedHashMap<>();
        for (JoinPoint p : points) {
            seen.putIfAbsent(p.method().owner() + "." + p.method().name() + p.method().descriptor(), p.method());
        }
        return List.copyOf(seen.values());
    }

    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace("'", "&apos;");
    }

    /** One patched join point: the method it is in, what it calls or allocates (null at ENTER/EXIT), a description. */
    record JoinPoint(MethodInfo method, String detail, int count, String description) {
    }

    static final Set<String> INTEGRAL = Set.of("int", "long", "short", "byte", "char");
}
