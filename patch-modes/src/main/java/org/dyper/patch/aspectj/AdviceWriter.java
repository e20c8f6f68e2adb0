package org.dyper.patch.aspectj;

import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.bytecode.ContextLocals;
import org.dyper.patch.scan.MethodInfo;
import org.dyper.patch.scan.Types;
import org.dyper.runtime.ContextStack;

/**
 * The fourth step of generation: the mode calls of one join point group ({@link PhasedCode}) to AspectJ advice. The
 * pointcut binds only the values the calls use; the phases decide the advice kinds: before, after returning, after
 * (throwing) or, where both sides share a context and weaving inlines it, around advice.
 */
final class AdviceWriter {
    private final GenerationContext ctx;

    AdviceWriter(GenerationContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The advice of one join point group, with a comment naming it and its patches: the pointcut binds what the mode
     * calls use; a context shared by before and after travels in a local of around advice, on the per-thread
     * {@code ContextStack} where around advice is not allowed, or (run-time patching) in a local of the method.
     */
    String write(AdviceBuilder builder, PhasedCode code) {
        boolean anyReturning = code.anyReturning();
        boolean anyAfterAll = code.anyAlways();
        List<String> formals = new ArrayList<>();
        List<String> actuals = new ArrayList<>();
        String pointcut = builder.joinPoint.pointcut;
        if (builder.usesSelf && builder.selfBound) {
            formals.add(builder.selfType + " self");
            actuals.add("self");
            pointcut += " && this(self)";
        }
        if (builder.usesTarget) {
            formals.add(ctx.formalType(builder.joinPoint.targetType) + " target");
            actuals.add("target");
            pointcut += " && target(target)";
        }
        if (!builder.argsUsed.isEmpty()) {
            List<String> pattern = new ArrayList<>();
            for (int i = 1; i <= builder.params.size(); i++) {
                if (builder.argsUsed.contains(i)) {
                    formals.add(ctx.formalType(builder.params.get(i - 1)) + " a" + i);
                    actuals.add("a" + i);
                    pattern.add("a" + i);
                } else {
                    pattern.add("*");
                }
            }
            for (int i = builder.params.size(); i < builder.joinPoint.argsArity; i++) {
                pattern.add("*");
            }
            pointcut += " && args(" + String.join(", ", pattern) + ")";
        }
        String header = "(" + String.join(", ", formals) + ")";
        String ret = ctx.formalType(builder.returnType);
        boolean isVoid = builder.returnType.equals("void");
        String t = builder.contextType;
        String ctxDecl = t == null ? "" : ctx.formalType(t) + " ctx = " + Types.zero(t) + ";\n";
        StringBuilder out = new StringBuilder();
        out.append("    // ").append(builder.describe()).append('\n');
        boolean around = !code.before.isEmpty() && !code.after.isEmpty() || anyReturning && anyAfterAll;
        if (around && ctx.contextsInLocals && t != null && builder.joinPoint.kind == JoinPoint.Kind.EXECUTION
                && !builder.method.isConstructor()) {
            return contextLocals(builder, code);
        }
        // an after patch that reads the exception (ARG TYPE='EXCEPTION') sees null on a normal return, and the exception
        // bound by after throwing advice (or caught and thrown on by around advice) otherwise
        boolean thrown = builder.usesThrown;
        String thrownNull = thrown ? "Throwable thrown$ = null;\n" : "";
        if (around && (ctx.loadTime || !builder.joinPoint.aroundAllowed())) {
            // no around advice here (see aroundAllowed; under load-time weaving it is not inlined and would allocate
            // a closure per call): before and after advice, and when they share a context it travels on the
            // per-thread ContextStack, tagged with the monitoring state (an after returning advice, declared first
            // so it runs first, peeks at it; the after advice pops it). When patches that run on normal returns only
            // and patches that run on every exit are mixed, an after returning advice runs them all in the model's
            // order and an after throwing advice the others, each popping the context
            String binding = isVoid ? "returning" : "returning(" + ret + " ret)";
            boolean mixed = anyReturning && anyAfterAll;
            String onReturn = thrownNull + code.afterOnReturn(mixed);
            String throwing = thrown ? " throwing(Throwable thrown$)" : " throwing";
            if (t == null) {
                if (!code.before.isEmpty()) {
                    advice(out, "before" + header + " : " + pointcut, Source.guarded(code.beforeText()));
                }
                if (anyReturning) {
                    advice(out, "after" + header + " " + binding + " : " + pointcut, Source.guarded(onReturn));
                }
                if (anyAfterAll) {
                    String always = code.afterText(Phase.AFTER_ALWAYS);
                    if (mixed) {
                        advice(out, "after" + header + throwing + " : " + pointcut, Source.guarded(always));
                    } else {
                        after(out, header, pointcut, thrown, always, Source::guarded);
                    }
                }
            } else {
                String stack = ContextStack.class.getName();
                String state = "final int s$ = " + Source.RUNTIME + ".state();\nif ((s$ & 1) != 0) {\n";
                String push = Types.isPrimitive(t) ? stack + ".pushLong(s$, " + toLong(t, "ctx") + ");"
                        : stack + ".pushObject(s$, ctx);";
                String read = ctx.formalType(t) + " ctx = " + (Types.isPrimitive(t) ? fromLong(t, "c$.longValue()")
                        : "(" + ctx.formalType(t) + ") c$.objectValue()") + ";\n";
                advice(out, "before" + header + " : " + pointcut, state + Source.indent(ctxDecl + code.beforeText()
                        + "\n" + push) + "\n}");
                if (anyReturning) {
                    advice(out, "after" + header + " " + binding + " : " + pointcut, state + Source.indent(stack + " c$ = "
                            + stack + (mixed ? ".pop" : ".peek") + "(s$);\nif (c$.found()) {\n" + Source.indent(read + onReturn)
                            + "\n}") + "\n}");
                }
                java.util.function.UnaryOperator<String> popped = body -> state + Source.indent(stack + " c$ = " + stack
                        + ".pop(s$);\nif (c$.found()) {\n" + Source.indent(read + body) + "\n}") + "\n}";
                String always = code.afterText(Phase.AFTER_ALWAYS);
                if (mixed) {
                    advice(out, "after" + header + throwing + " : " + pointcut, popped.apply(always));
                } else {
                    after(out, header, pointcut, thrown, always, popped);
                }
            }
        } else if (!around && code.after.isEmpty()) {
            advice(out, "before" + header + " : " + pointcut, Source.guarded(ctxDecl + code.beforeText()));
        } else if (!around && !anyReturning) {
            after(out, header, pointcut, thrown, code.afterText(Phase.AFTER_ALWAYS), body -> Source.guarded(ctxDecl
                    + body));
        } else if (!around) {
            // after returning only: the returned value is bound by the advice, every exit is a normal one
            String binding = isVoid ? "returning" : "returning(" + ret + " ret)";
            advice(out, "after" + header + " " + binding + " : " + pointcut, Source.guarded(ctxDecl + thrownNull
                    + code.afterOnReturn(false)));
        } else {
            StringBuilder b = new StringBuilder();
            b.append("final boolean on$ = ").append(Source.RUNTIME).append(".on();\n").append(ctxDecl);
            if (!code.before.isEmpty()) {
                b.append("if (on$) {\n").append(Source.indent(code.beforeText())).append("\n}\n");
            }
            if (!isVoid) {
                b.append(ret).append(" ret = ").append(Types.zero(builder.returnType)).append(";\n");
            }
            b.append("boolean normal$ = false;\n").append(thrownNull);
            String proceed = "proceed(" + String.join(", ", actuals) + ");";
            b.append("try {\n").append(Source.indent((isVoid ? "" : "ret = ") + proceed + "\nnormal$ = true;"
                    + (isVoid ? "" : "\nreturn ret;")))
                    // thrown on unchanged; to the compiler unchecked (proceed declares no exception here)
                    .append(thrown ? "\n} catch (Throwable e$) {\n    thrown$ = e$;\n    throw " + Source.RUNTIME
                            + ".<RuntimeException>rethrow(e$);" : "")
                    .append("\n} finally {\n");
            b.append(Source.indent("if (on$) {\n" + Source.indent(code.afterInFinally()) + "\n}"));
            b.append("\n}");
            advice(out, ret + " around" + header + " : " + pointcut, b.toString());
        }
        return out.toString();
    }

    /**
     * After advice for patches that run on every exit: one {@code after} advice, or, when they read the exception,
     * an after returning advice (the exception null) and an after throwing advice that binds it.
     */
    private static void after(StringBuilder out, String header, String pointcut, boolean thrown, String statements,
                              java.util.function.UnaryOperator<String> wrap) {
        if (!thrown) {
            advice(out, "after" + header + " : " + pointcut, wrap.apply(statements));
            return;
        }
        advice(out, "after" + header + " returning : " + pointcut, wrap.apply("Throwable thrown$ = null;\n"
                + statements));
        advice(out, "after" + header + " throwing(Throwable thrown$) : " + pointcut, wrap.apply(statements));
    }

    /**
     * Run-time patching ({@link #contextsInLocals()}): the patches of an execution whose context is kept in a local
     * become two wrapper methods the method itself calls ({@link ContextLocals#wrappers}), no advice; returns the
     * empty advice text.
     */
    private String contextLocals(AdviceBuilder builder, PhasedCode code) {
        MethodInfo m = builder.method;
        String aspect = AspectFiles.bytecodeAspect(ctx.pkg, ctx.wrappers.size()).replace('.', '/');
        ContextLocals.Wrappers w = ContextLocals.wrappers(m, builder.contextType, builder.usesSelf && builder.selfBound,
                builder.argsUsed, builder.usesReturn && !builder.returnType.equals("void"), builder.usesThrown,
                code.before, List.of(code.afterInFinally()), builder.describe(),
                aspect, "c$" + (ctx.wrappers.size() + 1), BytecodeWrappers.formal(ctx), ctx::formalType);
        ctx.wrappers.add(new AspectFiles.Piece(m.owner(), w.source()));
        byte[] original = ctx.classFile(m.owner());
        ctx.bytecode.addContext(m.owner(), original, m.name() + m.descriptor(), w.plan());
        return "";
    }

    private static void advice(StringBuilder out, String declaration, String body) {
        out.append("    ").append(declaration).append(" {\n").append(Source.indent(Source.indent(body))).append("\n    }\n");
    }

    private static String toLong(String type, String v) {
        return switch (type) {
            case "boolean" -> "(" + v + " ? 1L : 0L)";
            case "float" -> "(long) Float.floatToRawIntBits(" + v + ")";
            case "double" -> "Double.doubleToRawLongBits(" + v + ")";
            default -> "(long) " + v;
        };
    }

    private static String fromLong(String type, String v) {
        return switch (type) {
            case "boolean" -> v + " != 0L";
            case "float" -> "Float.intBitsToFloat((int) " + v + ")";
            case "double" -> "Double.longBitsToDouble(" + v + ")";
            case "long" -> v;
            default -> "(" + type + ") " + v;
        };
    }
}
