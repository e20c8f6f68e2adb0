package org.dyper.cli.ask;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.cli.CliCommand;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.UsageError;
import org.dyper.patch.ask.QuestionCompiler;

/**
 * {@code dyper ask --explain}: compiles questions against a class path and prints what they would patch (each site)
 * and the model, modes and question table {@code dyper run --ask} would use, without running anything.
 */
public final class AskCommand implements CliCommand<AskCommand.Parsed> {
    static final String PURPOSE = "explain the instrumentation that answers a question (dyper run --ask runs it)";
    static final String USAGE = "dyper ask --explain [--classpath PATH] [--ask-file FILE] ['QUESTION' ...]";
    static final String DETAILS = "A question reads like 'time of acme.Bank.transfer by caller' or 'count of calls to\n"
            + "acme.Account.withdraw from acme.Bank.transfer where arg1 > 1000' (grammar: docs/questions.md).\n"
            + "Names are resolved against the classes of --classpath; a name they lack is an error naming\n"
            + "its column. --explain prints each question's patched sites, their number, and the model,\n"
            + "modes and question table a run would use.";

    /** The questions and the class path to resolve them against. */
    public record Parsed(List<AskedQuestions.Asked> questions, List<Path> classpath) {
    }

    @Override
    public Help help() {
        Options o = new Options()
                .addOption(Option.builder().longOpt("explain")
                        .desc("print the sites, model, modes and question table (required)").build())
                .addOption(Option.builder().longOpt("classpath").hasArg().argName("PATH")
                        .desc("the classes the questions name (" + File.pathSeparator + "-separated jars and "
                                + "folders)").build())
                .addOption(Option.builder().longOpt("ask-file").hasArg().argName("FILE")
                        .desc("questions: one per line (# comments), or a <QUESTIONS> XML file; repeatable").build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build());
        return new Help("ask", PURPOSE, USAGE, o, DETAILS, true);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
        if (!line.hasOption("explain")) {
            throw new UsageError("give --explain (to run a program with questions: dyper run --ask 'QUESTION' -- ...)");
        }
        List<AskedQuestions.Asked> questions = AskedQuestions.read(line.getArgList().toArray(String[]::new),
                line.getOptionValues("ask-file"));
        if (questions.isEmpty()) {
            throw new UsageError("no question: give one, quoted, e.g. dyper ask --explain 'count of acme.Bank.audit'");
        }
        List<Path> classpath = new ArrayList<>();
        String cp = line.getOptionValue("classpath", ".");
        for (String e : cp.split(File.pathSeparator)) {
            if (!e.isBlank()) {
                Path p = Path.of(e);
                if (!Files.exists(p)) {
                    throw new UsageError("--classpath " + e + ": no such jar or folder");
                }
                classpath.add(p);
            }
        }
        return new Parsed(questions, classpath);
    }

    @Override
    public int run(Parsed p, Context context) throws CommandFailure, IOException {
        QuestionCompiler.Result r = AskedQuestions.compile(p.questions(), p.classpath());
        PrintStream out = context.out();
        for (QuestionCompiler.Compiled c : r.questions()) {
            out.println("question " + (c.index() + 1) + ": " + c.question().text());
            out.println("  " + c.sites().size() + (c.sites().size() == 1 ? " site" : " sites") + ":");
            c.sites().forEach(s -> out.println("    " + s));
        }
        r.warnings().forEach(w -> context.err().println("dyper: warning: " + w));
        out.println();
        out.println("sites in all: " + r.sites());
        out.println();
        out.println("model:");
        out.print(r.model());
        out.println();
        out.println("modes:");
        out.print(r.modes());
        out.println();
        out.println("question table (-D" + "dyper.ask=FILE):");
        out.print(r.table());
        return 0;
    }
}
