package org.dyper.patch.build;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.aspectj.bridge.IMessage;
import org.aspectj.bridge.MessageHandler;

/**
 * Runs the AspectJ compiler in-process (never {@code Main.main}, which exits the JVM). Public for the run-time way
 * ({@code org.dyper.patch.runtime}), which weaves with it too.
 */
public final class Ajc {
    /**
     * The lint ajc reports when it weaves a whole input: advice that matched nothing, a pointcut naming a type that
     * does not exist, an array spelled where a varargs parameter is. Everything else stays quiet.
     */
    private static final String LINT = "adviceDidNotMatch = warning\ninvalidAbsoluteTypeName = warning\n"
            + "cantMatchArrayTypeOnVarargs = warning\n";

    /** Set to {@code false}, {@link #warmUp} does nothing (to compare the two). */
    static final String WARM_UP_PROPERTY = "dyper.weave.warmUp";
    /** The warm-up run ({@link #warmUp}), which {@link #run} waits for: ajc cannot run twice at once in one JVM. */
    private static Thread warmUp;

    private Ajc() {}

    /**
     * Starts compiling a one-line class with ajc on a daemon thread, so that loading ajc's classes and its walk of the
     * JDK's module image (a quarter of a 5-class weave, docs/performance.md) overlap with reading the model and
     * scanning the jars, on another core; the next {@link #run} waits for it. For a command that will run ajc anyway.
     * A failure of the warm-up is ignored: the real run reports its own.
     */
    public static synchronized void warmUp() {
        if (warmUp != null || "false".equals(System.getProperty(WARM_UP_PROPERTY))) {
            return;
        }
        warmUp = new Thread(() -> {
            try {
                Path dir = TempFiles.directory("warm-up");
                try {
                    Path source = dir.resolve("DyperWarmUp.java");
                    java.nio.file.Files.writeString(source, "final class DyperWarmUp {\n}\n");
                    new org.aspectj.tools.ajc.Main().run(new String[] {"-17", "-proc:none", "-Xlint:ignore", "-d",
                        dir.resolve("out").toString(), "-classpath", path(Weaver.runtimeClasspath()),
                        source.toString()}, new MessageHandler(true));
                } finally {
                    Weaver.deleteTree(dir);
                }
            } catch (Exception | LinkageError e) {
                // only a warm-up
            }
        }, "dyper-ajc-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    private static void awaitWarmUp() throws WeaveException {
        Thread t;
        synchronized (Ajc.class) {
            t = warmUp;
        }
        if (t == null) {
            return;
        }
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeaveException("interrupted while ajc warmed up", List.of(e.toString()));
        }
    }

    /**
     * ajc's warnings, for callers that show them with {@code --verbose}, and where it reported advice that it did
     * not apply anywhere ({@code adviceDidNotMatch}).
     */
    public record Result(List<String> warnings, List<String> weaveInfo, List<Unapplied> unapplied) {}

    /** Advice declared at {@code line} of the aspect source file {@code file} (a file name) that ajc did not apply. */
    public record Unapplied(String file, int line) {}

    /** Compiles and weaves without lint: for aspects compiled alone, or woven into only some of the classes. */
    public static Result run(List<String> args, String what) throws WeaveException {
        return run(args, what, false);
    }

    /**
     * Compiles and weaves; with {@code lint}, for a weave that sees every class the advice was generated for, the
     * lint above is on and advice that matched nothing is listed in {@link Result#unapplied()}.
     */
    public static Result run(List<String> args, String what, boolean lint) throws WeaveException {
        awaitWarmUp();
        MessageHandler handler = new MessageHandler(true);
        handler.dontIgnore(IMessage.WEAVEINFO);
        // -proc:none: no annotation processing, whose set-up (walking the JDK image) cost a third of a small weave
        List<String> all = new ArrayList<>(List.of("-17", "-encoding", "UTF-8", "-proc:none", "-Xlint:ignore",
                "-showWeaveInfo"));
        java.nio.file.Path lintFile = null;
        if (lint) {
            try {
                lintFile = TempFiles.file("lint", ".properties");
                java.nio.file.Files.writeString(lintFile, LINT);
            } catch (java.io.IOException e) {
                throw new WeaveException(what + " failed", List.of("cannot write ajc's lint settings: " + e));
            }
            all.addAll(List.of("-Xlintfile", lintFile.toString()));
        }
        all.addAll(args);
        try {
            new org.aspectj.tools.ajc.Main().run(all.toArray(String[]::new), handler);
        } finally {
            if (lintFile != null) {
                try {
                    java.nio.file.Files.deleteIfExists(lintFile);
                } catch (java.io.IOException ignored) {
                    // a temporary file of a few bytes
                }
            }
        }
        List<String> errors = new ArrayList<>();
        for (IMessage m : handler.getMessages(IMessage.ERROR, true)) {
            errors.add(format(m));
        }
        if (!errors.isEmpty()) {
            throw new WeaveException(what + " failed", errors);
        }
        List<String> warnings = new ArrayList<>();
        List<Unapplied> unapplied = new ArrayList<>();
        for (IMessage m : handler.getMessages(IMessage.WARNING, false)) {
            if (m instanceof org.aspectj.weaver.LintMessage lm && lm.getLintKind().equals("adviceDidNotMatch")
                    && m.getSourceLocation() != null && m.getSourceLocation().getSourceFile() != null) {
                unapplied.add(new Unapplied(m.getSourceLocation().getSourceFile().getName(),
                        m.getSourceLocation().getLine()));
            } else {
                warnings.add(format(m));
            }
        }
        List<String> info = List.of(handler.getMessages(IMessage.WEAVEINFO, false)).stream()
                .map(IMessage::getMessage).collect(Collectors.toList());
        return new Result(warnings, info, unapplied);
    }

    private static String format(IMessage m) {
        String where = m.getSourceLocation() == null || m.getSourceLocation().getSourceFile() == null ? ""
                : m.getSourceLocation().getSourceFile().getName() + ":" + m.getSourceLocation().getLine() + ": ";
        String text = m.getMessage();
        if (m.getThrown() != null) {
            text += " (" + m.getThrown() + ")";
        }
        return where + text;
    }

    public static String path(List<Path> entries) {
        return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
