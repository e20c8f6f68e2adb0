package org.dyper.runtime.ask;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.dyper.runtime.internal.Config;
import org.dyper.runtime.internal.ReportHook;

/**
 * The question table of this JVM: the questions {@code dyper run --ask} compiled, read once from the file the system
 * property {@value #PROPERTY} names (written by the question compiler; one question per line, format in
 * {@link Question#parse}), or given with {@link #define}. Question {@code q} of the generated advice is line
 * {@code q} of the table. Problems reading it are kept and shown in the report's Answers section, never thrown.
 */
public final class Questions {
    /** The system property naming the question table file. */
    public static final String PROPERTY = "dyper.ask";
    /** The system property bounding the groups kept per question (default {@value #DEFAULT_MAX_GROUPS}). */
    public static final String MAX_GROUPS_PROPERTY = "dyper.ask.groups";
    public static final int DEFAULT_MAX_GROUPS = 1000;

    private static final List<String> PROBLEMS = Collections.synchronizedList(new ArrayList<>());
    private static volatile Question[] table = load();

    private Questions() {
    }

    static Question get(int q) {
        Question[] t = table;
        return q >= 0 && q < t.length ? t[q] : null;
    }

    static Question[] all() {
        return table;
    }

    static List<String> problems() {
        synchronized (PROBLEMS) {
            return List.copyOf(PROBLEMS);
        }
    }

    /** Whether any question is defined (the report then has an Answers section). */
    public static boolean any() {
        return table.length > 0 || !PROBLEMS.isEmpty();
    }

    /**
     * Replaces the question table with {@code text} (the file format); the old questions' answers and problems are
     * dropped. Installs the exit report when there is a question. Malformed lines are skipped and reported. Returns
     * what puts the table before back (INSTRUMENT defines the table its questions' code needs before it inserts that
     * code, and puts the old one back when the insert is refused).
     */
    public static Runnable define(String text) {
        Question[] before = table;
        List<String> problemsBefore = problems();
        PROBLEMS.clear();
        Held.reset();
        table = parse("the question table", text);
        if (any()) {
            ReportHook.install();
        }
        return () -> {
            synchronized (PROBLEMS) {
                PROBLEMS.clear();
                PROBLEMS.addAll(problemsBefore);
            }
            table = before;
        };
    }

    /**
     * The question table of classes woven at build time (the Maven plugin's {@code questions}): a resource beside the
     * site table, read when {@value #PROPERTY} names no file.
     */
    public static final String RESOURCE = "META-INF/dyper/questions.txt";

    private static Question[] load() {
        String file = Config.property(PROPERTY);
        if (file == null || file.isBlank()) {
            return fromResource(Questions.class.getClassLoader(), Thread.currentThread().getContextClassLoader());
        }
        try {
            Question[] t = parse(file, Files.readString(Paths.get(file), StandardCharsets.UTF_8));
            ReportHook.install();
            return t;
        } catch (IOException | RuntimeException e) {
            PROBLEMS.add(file + ": cannot read the question table: " + e);
            return new Question[0];
        }
    }

    /**
     * The table in the first {@value #RESOURCE} that {@code loaders} (nulls skipped) find, or none. Two different
     * tables on the class path (two woven modules each with questions) are a problem reported, and the first is used.
     */
    static Question[] fromResource(ClassLoader... loaders) {
        java.util.Set<String> seen = new java.util.LinkedHashSet<>();
        String first = null;
        String where = null;
        for (ClassLoader loader : loaders) {
            if (loader == null) {
                continue;
            }
            try {
                for (java.util.Enumeration<java.net.URL> e = loader.getResources(RESOURCE); e.hasMoreElements(); ) {
                    java.net.URL url = e.nextElement();
                    if (!seen.add(url.toString())) {
                        continue;
                    }
                    String text;
                    try (java.io.InputStream in = url.openStream()) {
                        text = new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
                    }
                    if (first == null) {
                        first = text;
                        where = url.toString();
                    } else if (!first.equals(text)) {
                        PROBLEMS.add(url + ": a second question table on the class path, left out (" + where
                                + " is used; weave the questions into one module)");
                    }
                }
            } catch (IOException | RuntimeException e) {
                PROBLEMS.add(RESOURCE + ": cannot read the question table: " + e);
            }
        }
        if (first == null) {
            return new Question[0];
        }
        Question[] t = parse(where, first);
        ReportHook.install();
        return t;
    }

    private static Question[] parse(String source, String text) {
        int max = maxGroups();
        List<Question> questions = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                Question q = Question.parse(line, max);
                if (q.id != questions.size()) {
                    throw new IllegalArgumentException("id=" + q.id + " where " + questions.size() + " was expected");
                }
                questions.add(q);
            } catch (RuntimeException e) {
                PROBLEMS.add(source + ":" + (i + 1) + ": " + e.getMessage());
                questions.add(null);
            }
        }
        return questions.toArray(new Question[0]);
    }

    private static int maxGroups() {
        String v = Config.property(MAX_GROUPS_PROPERTY);
        if (v != null) {
            try {
                int n = Integer.parseInt(v.strip());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // fall through to the default, said below
            }
            PROBLEMS.add(MAX_GROUPS_PROPERTY + "=" + v + " is not a positive int; " + DEFAULT_MAX_GROUPS + " used");
        }
        return DEFAULT_MAX_GROUPS;
    }
}
