package org.dyper.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.maven.plugin.MojoFailureException;
import org.dyper.patch.ask.QuestionCompiler;
import org.dyper.patch.ask.QuestionException;
import org.dyper.patch.ask.QuestionsFile;
import org.dyper.patch.scan.ClassScanner;
import org.dyper.runtime.io.AtomicWrite;

/**
 * A questions file compiled against the classes to weave (as {@code dyper run --ask-file} does), written as the
 * files a weave uses: the model, the modes and the run time's question table.
 */
record AskedFiles(Path model, Path modes, Path table) {
    /**
     * Compiles the questions of {@code file} against the classes of {@code targets} into {@code dir}; the compiler's
     * warnings go to {@code warn}. A question that cannot be answered fails the build naming {@code file:line:col}.
     */
    static AskedFiles compile(Path file, List<Path> targets, Path dir, Consumer<String> warn)
            throws MojoFailureException, IOException {
        if (!Files.isRegularFile(file)) {
            throw new MojoFailureException("dyper: questions: " + file + ": no such file");
        }
        List<QuestionsFile.Entry> entries;
        try {
            entries = QuestionsFile.readAny(file);
        } catch (QuestionsFile.QuestionFileException e) {
            throw new MojoFailureException("dyper: " + e.getMessage());
        }
        QuestionCompiler.Result r;
        try {
            r = QuestionCompiler.compile(entries.stream().map(QuestionsFile.Entry::text).toList(),
                    ClassScanner.scan(targets));
        } catch (QuestionException e) {
            int q = e.question();
            if (q < 0 || q >= entries.size()) {
                throw new MojoFailureException("dyper: " + file + ": " + e.getMessage());
            }
            QuestionsFile.Entry at = entries.get(q);
            throw new MojoFailureException("dyper: " + file + ":" + at.line() + ":" + (at.column() + e.column() - 1)
                    + ": " + e.problem() + "\n  " + at.text() + "\n  " + " ".repeat(Math.max(0, e.column() - 1))
                    + "^");
        }
        r.warnings().forEach(warn);
        Files.createDirectories(dir);
        AskedFiles f = new AskedFiles(dir.resolve("model.xml"), dir.resolve("modes.xml"), dir.resolve("questions.txt"));
        AtomicWrite.write(f.model(), r.model());
        AtomicWrite.write(f.modes(), r.modes());
        AtomicWrite.write(f.table(), r.table());
        return f;
    }
}
