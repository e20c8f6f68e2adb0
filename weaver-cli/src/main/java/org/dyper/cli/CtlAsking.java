package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.cli.CommandLine;
import org.dyper.cli.ask.AskedQuestions;
import org.dyper.patch.ask.QuestionCompiler;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.runtime.ask.AnswerReport;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl PID ask QUESTION...} and {@code dyper ctl PID answers}: questions (docs/questions.md) put to a
 * running program. ask compiles them against the process's class path, as its monitor gives it, and inserts the
 * model they make through run-time patching, the question table inside the same INSTRUMENT; answers shows what the
 * program's questions have gathered so far (REPORT TYPE='ANSWERS').
 */
record CtlAsking(PrintStream out, PrintStream err, Path dir) {
    /** The lines {@code dyper ctl --help} says about these subcommands. */
    static final String HELP = "PID ask QUESTION... [--ask-file FILE]: put questions to the running program (docs/"
            + "questions.md): they\nreplace the model in, as one run-time model; PID answers shows their answers so "
            + "far (--xml: <ANSWERS>).\n";
    /** A dotted name in a question: a class, method or package (the class path's listing is cut to its start). */
    private static final Pattern DOTTED = Pattern.compile("[A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)+");

    /** Whether {@code word} (the ctl argument after the PID) is one of these subcommands. */
    static boolean handles(String word) {
        return word.equals("ask") || word.equals("answers");
    }

    /** Reads {@code args} ({@code PID ask QUESTION...} or {@code PID answers}) into a request. */
    static CtlCommand.Request request(CommandLine line, List<String> args, long pid, Path defaultCache, int width)
            throws UsageError, IOException {
        if (args.get(1).equals("answers")) {
            if (args.size() > 2) {
                throw new UsageError("answers takes no argument, got '" + args.get(2) + "'");
            }
            return new CtlCommand.Answers(pid, line.hasOption("xml"), width);
        }
        List<AskedQuestions.Asked> asks = AskedQuestions.read(args.subList(2, args.size()).toArray(String[]::new),
                "question", line.getOptionValues("ask-file"));
        if (asks.isEmpty()) {
            throw new UsageError("ask needs a question, e.g. dyper ctl " + pid + " ask 'time of com.acme.Shop.checkout"
                    + " by caller' (or --ask-file FILE)");
        }
        Path cache = line.hasOption("cache") ? Path.of(line.getOptionValue("cache")) : defaultCache;
        return new CtlCommand.Ask(pid, asks, cache, line.hasOption("inline"));
    }

    int run(CtlCommand.Request request) throws CommandFailure, IOException {
        if (request instanceof CtlCommand.Answers a) {
            return answers(a.pid(), a.xml(), a.width());
        }
        CtlCommand.Ask a = (CtlCommand.Ask) request;
        try {
            return ask(a.pid(), a.asks(), a.cache(), a.inline());
        } catch (InvalidInputException e) {
            e.listed().forEach(p -> err.println("dyper: " + (p.warning() ? "" : "error: ") + p));
            err.println("dyper: " + e.errorCount() + " problem(s) in the model the questions made; nothing was "
                    + "instrumented (please report it)");
            return ExitCode.INTERNAL;
        } catch (WeaveException e) {
            return CtlPatching.notInstrumented(err, e);
        }
    }

    private MonitorEntry entry(long pid) throws CommandFailure {
        try {
            return MonitorEntry.of(dir, pid);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
    }

    int ask(long pid, List<AskedQuestions.Asked> asks, Path cache, boolean inline)
            throws CommandFailure, IOException, InvalidInputException, WeaveException {
        LivePatching.Asked asked = LivePatching.ask(entry(pid), asks, cache, 300_000, inline);
        QuestionCompiler.Result compiled = asked.compiled();
        compiled.warnings().forEach(w -> err.println("dyper: warning: " + w));
        LivePatching.Inserted in = asked.inserted();
        in.warnings().forEach(w -> err.println("dyper: " + w));
        Element reply = in.reply();
        for (Element note : Xml.children(reply, "NOTE")) {
            err.println("dyper: note: " + note.getTextContent());
        }
        out.printf(Locale.ROOT, "dyper: %d question(s) asked in process %d: %d site(s), %s class(es) patched now, %s "
                + "when they load (model '%s'); the answers: dyper ctl %d answers%n", asks.size(), pid,
                compiled.sites(), reply.getAttribute("CLASSES"), reply.getAttribute("PENDING"), in.model(), pid);
        return ExitCode.OK;
    }

    /** The dotted names of the questions (classes, methods), to cut CLASSMODEL's listing to their packages. */
    static List<String> dottedNames(List<AskedQuestions.Asked> asks) {
        List<String> names = new ArrayList<>();
        for (AskedQuestions.Asked a : asks) {
            Matcher m = DOTTED.matcher(a.text());
            while (m.find()) {
                names.add(m.group());
            }
        }
        return names;
    }

    int answers(long pid, boolean xml, int width) throws CommandFailure, IOException {
        String reply;
        try (WireClient c = LivePatching.connect(entry(pid), 120_000)) {
            reply = c.command("REPORT", "<REPORT TYPE='ANSWERS'/>");
        }
        Element report = Xml.child(LivePatching.answer(pid, reply), "MONITOR_REPORT");
        Element answers = report == null ? null : Xml.child(report, "ANSWERS");
        if (xml) {
            out.println(answers == null ? "" : Xml.serialize(answers));
        } else if (answers == null) {
            out.println("No question was asked in process " + pid + " (dyper ctl " + pid + " ask 'QUESTION', or dyper "
                    + "run --ask).");
        } else {
            out.print(AnswerReport.text(answers, width).stripLeading());
        }
        return ExitCode.OK;
    }
}
