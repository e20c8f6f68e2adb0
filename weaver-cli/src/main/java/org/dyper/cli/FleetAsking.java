package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.dyper.cli.ask.AskedQuestions;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.NatsFleet;
import org.dyper.patch.ask.QuestionCompiler;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.runtime.ask.AnswerReport;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl --nats URL ID|--all ask QUESTION...} and {@code ... answers}: questions (docs/questions.md) put to
 * JVMs a NATS server reaches, as {@code dyper ctl PID ask} does for a local one. The questions are compiled against
 * the first JVM's classes (its class path where this machine has it, and the class files it loaded from elsewhere,
 * fetched through its monitor); the model they make is woven once and sent with its bytes and the question table in
 * one INSTRUMENT to each JVM ({@link FleetCtl#instrument}); answers is REPORT TYPE='ANSWERS' of each.
 */
record FleetAsking(PrintStream out, PrintStream err) {
    /** {@code ask}: {@code id} null is every JVM (of {@code main}). */
    record Ask(NatsFleet.Login login, Path dir, String id, String main, List<AskedQuestions.Asked> asks, Path cache,
            Duration deadline) implements CtlCommand.Request {
    }

    /** {@code answers}: {@code id} null is every JVM (of {@code main}). */
    record Answers(NatsFleet.Login login, Path dir, String id, String main, boolean xml, int width,
            Duration deadline) implements CtlCommand.Request {
    }

    /** Whether {@code word} (the command after ID or --all) is one of these. */
    static boolean handles(String word) {
        return word.equals("ask") || word.equals("answers");
    }

    /** Reads {@code args} ({@code ask QUESTION...} or {@code answers}, after the ID) into a request. */
    static CtlCommand.Request request(CommandLine line, NatsFleet.Login login, Path dir, String id, String main,
            List<String> args, Path defaultCache, Duration timeout) throws UsageError, IOException {
        Duration deadline = timeout == null ? Duration.ofMinutes(5) : timeout;
        if (args.get(0).equals("answers")) {
            if (args.size() > 1) {
                throw new UsageError("answers takes no argument, got '" + args.get(1) + "'");
            }
            return new Answers(login, dir, id, main, line.hasOption("xml"), CtlCommand.width(line.hasOption("wide"),
                    line.getOptionValue("width")), timeout == null ? CtlNats.COMMAND_DEADLINE : timeout);
        }
        List<AskedQuestions.Asked> asks = AskedQuestions.read(args.subList(1, args.size()).toArray(String[]::new),
                "question", line.getOptionValues("ask-file"));
        if (asks.isEmpty()) {
            throw new UsageError("ask needs a question, e.g. dyper ctl --nats URL ID ask 'time of "
                    + "com.acme.Shop.checkout by caller' (or --ask-file FILE)");
        }
        return new Ask(login, dir, id, main, asks, line.hasOption("cache") ? Path.of(line.getOptionValue("cache"))
                : defaultCache, deadline);
    }

    int run(CtlCommand.Request request) throws CommandFailure, IOException, InvalidInputException, WeaveException {
        if (request instanceof Answers a) {
            try (Fleet fleet = CtlNats.fleet(a.login(), a.dir())) {
                return answers(fleet, members(fleet, a.id(), a.main()), a.xml(), a.width(), a.deadline());
            }
        }
        Ask a = (Ask) request;
        try (Fleet fleet = CtlNats.fleet(a.login(), a.dir())) {
            return ask(fleet, members(fleet, a.id(), a.main()), a.asks(), a.cache(), a.deadline());
        }
    }

    private static List<Fleet.Member> members(Fleet fleet, String id, String main) throws CommandFailure,
            IOException {
        return id == null ? FleetCtl.members(fleet, main, CtlNats.WHO_DEADLINE) : List.of(CtlNats.member(id));
    }

    private int ask(Fleet fleet, List<Fleet.Member> members, List<AskedQuestions.Asked> asks, Path cache,
            Duration deadline) throws CommandFailure, IOException, InvalidInputException, WeaveException {
        Fleet.Member source = members.get(0);
        Path classes = cache.resolve("classes").resolve("fleet-ask-" + ProcessHandle.current().pid());
        QuestionCompiler.Result compiled;
        try {
            // the classes the questions name: the class path's, and those loaded from elsewhere under their prefix
            String prefix = MonitorTargets.prefix(CtlAsking.dottedNames(asks));
            MonitorTargets.Found found = MonitorTargets.fetch((command, data) -> FleetCtl.one(fleet, source, command,
                    data, deadline), List.of(prefix + "*"), classes);
            if (!found.classPathHere()) {
                err.println("dyper: warning: " + notHere(fleet.describe(source), found.fetched(), prefix));
            }
            compiled = AskedQuestions.compile(asks, found.targets().roots());
        } finally {
            Weaver.deleteTree(classes);
        }
        compiled.warnings().forEach(w -> err.println("dyper: warning: " + w));
        AskedQuestions.Files3 files = AskedQuestions.write(compiled, cache);
        int code = new FleetCtl(out, err).instrument(fleet, members, List.of(files.model()), List.of(files.modes()),
                cache, deadline, compiled.table());
        out.printf(Locale.ROOT, "dyper: %d question(s), %d site(s); the answers: dyper ctl --nats URL %s answers%n",
                asks.size(), compiled.sites(), members.size() == 1 ? members.get(0).id() : "--all");
        return code;
    }

    /**
     * The warning when no entry of the JVM's class path exists here: the questions see only the classes it loaded
     * under the questions' prefix, so a caller elsewhere (a CALL site a question needs) would go unmeasured unsaid.
     */
    static String notHere(String jvm, int fetched, String prefix) {
        return "the class path of " + jvm + " is not on this machine: the questions were compiled against the "
                + fetched + " class(es) it has loaded" + (prefix.isEmpty() ? "" : " under '" + prefix + "'")
                + " (fetched through its monitor); callers elsewhere, and classes not loaded yet, are not seen";
    }

    private int answers(Fleet fleet, List<Fleet.Member> members, boolean xml, int width, Duration deadline)
            throws IOException {
        List<Fleet.Answer> answers = FleetCtl.sendEach(fleet, members, "REPORT", "<REPORT TYPE='ANSWERS'/>", false,
                deadline);
        int code = ExitCode.OK;
        for (Fleet.Answer a : answers) {
            String name = fleet.describe(a.member());
            if (!a.ok()) {
                err.println("dyper: error: " + a.error());
                code = ExitCode.NO_PROCESS;
                continue;
            }
            Reply reply = Reply.of(a.reply(), "from " + name);
            if (reply.error() != null) {
                err.println("dyper: error: " + name + ": " + reply.error());
                code = ExitCode.COMMAND_FAILED;
                continue;
            }
            Element report = Xml.child(reply.root(), "MONITOR_REPORT");
            Element found = report == null ? null : Xml.child(report, "ANSWERS");
            if (members.size() > 1) {
                out.println("== " + name);
            }
            if (xml) {
                out.println(found == null ? "" : Xml.serialize(found));
            } else if (found == null) {
                out.println("No question was asked in " + name + ".");
            } else {
                out.print(AnswerReport.text(found, width).stripLeading());
            }
        }
        return code;
    }
}
