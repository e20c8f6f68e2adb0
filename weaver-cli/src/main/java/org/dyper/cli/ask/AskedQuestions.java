package org.dyper.cli.ask;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.UsageError;
import org.dyper.patch.ask.QuestionCompiler;
import org.dyper.patch.ask.QuestionException;
import org.dyper.patch.ask.QuestionsFile;
import org.dyper.patch.scan.ClassIndex;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.runtime.io.AtomicWrite;

/**
 * The questions of one command line ({@code --ask}, {@code --ask-file}), compiled against the class path and written
 * as the files a run needs: the model, the modes and the run time's question table. Shared by {@code dyper ask} and
 * {@code dyper run}.
 */
public final class AskedQuestions {
    /**
     * One question with where it came from: {@code --ask #2} or {@code questions.txt:3}; {@code columnOffset}: what
     * to add to a column of the question to get the file's (an XML file's QUESTION starts inside its line).
     */
    public record Asked(String text, String origin, boolean inFile, int columnOffset) {
        public Asked(String text, String origin, boolean inFile) {
            this(text, origin, inFile, 0);
        }
    }

    /** The files a run with questions uses. */
    public record Files3(Path model, Path modes, Path table) {
    }

    private AskedQuestions() {
    }

    /** The questions of {@code --ask} values, then of {@code --ask-file} files (one per line; # comments). */
    public static List<Asked> read(String[] asks, String[] files) throws UsageError, IOException {
        return read(asks, "--ask", files);
    }

    /** As {@link #read(String[], String[])}, the questions of {@code asks} named {@code label #N} in messages. */
    public static List<Asked> read(String[] asks, String label, String[] files) throws UsageError, IOException {
        List<Asked> out = new ArrayList<>();
        if (asks != null) {
            for (int i = 0; i < asks.length; i++) {
                if (asks[i].isBlank()) {
                    throw new UsageError(label + ": the question is empty");
                }
                out.add(new Asked(asks[i], label + " #" + (i + 1), false));
            }
        }
        if (files != null) {
            for (String f : files) {
                if (!Files.isRegularFile(Path.of(f))) {
                    throw new UsageError("--ask-file " + f + ": no such file");
                }
                try {
                    for (QuestionsFile.Entry e : QuestionsFile.readAny(Path.of(f))) {
                        out.add(new Asked(e.text(), f + ":" + e.line(), true, e.column() - 1));
                    }
                } catch (QuestionsFile.QuestionFileException e) {
                    throw new UsageError("--ask-file " + e.getMessage());
                }
            }
        }
        return out;
    }

    /**
     * Compiles the questions against the classes of {@code targets}. A question that cannot be answered is an
     * invalid-input failure naming it, its column, and showing where.
     */
    public static QuestionCompiler.Result compile(List<Asked> asked, List<Path> targets)
            throws CommandFailure, IOException {
        ClassIndex index = ClassScanner.scan(targets);
        try {
            return QuestionCompiler.compile(asked.stream().map(Asked::text).toList(), index);
        } catch (QuestionException e) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, describe(e, asked));
        }
    }

    /** The message of a question that cannot be answered: origin, column, problem, the question and a caret. */
    static String describe(QuestionException e, List<Asked> asked) {
        int q = e.question();
        Asked a = q >= 0 && q < asked.size() ? asked.get(q) : null;
        String message = e.problem();
        if (a == null) {
            return e.getMessage();
        }
        String where = a.inFile() ? a.origin() + ":" + (e.column() + a.columnOffset()) + ": "
                : a.origin() + ", column " + e.column() + ": ";
        return where + message + "\ndyper:   " + a.text() + "\ndyper:   " + " ".repeat(Math.max(0, e.column() - 1))
                + "^";
    }

    /** Writes the compiled questions' files into {@code cache}/ask/HASH (each written whole, then renamed). */
    public static Files3 write(QuestionCompiler.Result r, Path cache) throws IOException {
        String hash;
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(r.model().getBytes(StandardCharsets.UTF_8));
            d.update(r.modes().getBytes(StandardCharsets.UTF_8));
            d.update(r.table().getBytes(StandardCharsets.UTF_8));
            hash = HexFormat.of().formatHex(d.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path dir = cache.resolve("ask").resolve(hash);
        Files.createDirectories(dir);
        Files3 f = new Files3(dir.resolve("model.xml"), dir.resolve("modes.xml"), dir.resolve("questions.txt"));
        AtomicWrite.write(f.model(), r.model());
        AtomicWrite.write(f.modes(), r.modes());
        AtomicWrite.write(f.table(), r.table());
        return f;
    }
}
