package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.cli.fleet.Fleet;
import org.dyper.cli.fleet.NatsFleet;
import org.dyper.runtime.monitor.CommandAccess;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl --nats URL ...}: the monitors a NATS server reaches (docs/fleet.md). {@code who} lists them (first
 * column: the id the other commands take), {@code ID COMMAND [DATA]} sends one command to one JVM on its read or, for
 * a command that changes the program ({@link CommandAccess}), its control subject; {@code --all [--main CLASS]} sends
 * it to many ({@link FleetCtl}), and {@code instrument}/{@code uninstrument} patch one JVM or all of them.
 */
record CtlNats(PrintStream out, PrintStream err) {
    /** The lines {@code dyper ctl --help} says about NATS. */
    static final String HELP = "--nats URL who: the monitors on a NATS server, one line each: id, host, pid, main\n"
            + "class, start, JDK. --nats URL ID COMMAND [DATA]: one command to the JVM of that id. --all [--main\n"
            + "CLASS] COMMAND [DATA]: to every JVM (of that main class), each answer under its JVM's name, the\n"
            + "missing named. ID|--all instrument --model FILE, ID|--all uninstrument [NAME]: one model, woven once\n"
            + "(docs/fleet.md). ID|--all ask QUESTION..., ID|--all answers: questions, as PID ask does.\n";
    /** How long WHO gathers answers, and how long a command waits, unless --timeout says otherwise. */
    static final Duration WHO_DEADLINE = Duration.ofSeconds(1);
    static final Duration COMMAND_DEADLINE = Duration.ofSeconds(60);

    /** {@code --nats URL who}. */
    record Who(NatsFleet.Login login, Duration deadline) implements CtlCommand.Request {
    }

    /** {@code --nats URL ID COMMAND [DATA]}. */
    record Send(NatsFleet.Login login, String id, String command, String data, boolean xml, int width,
            Duration deadline) implements CtlCommand.Request {
    }

    /** {@code --all [--main CLASS] COMMAND [DATA]}; {@code login} null: the local registry {@code dir}. */
    record All(NatsFleet.Login login, Path dir, String main, String command, String data, boolean xml, int width,
            Duration deadline) implements CtlCommand.Request {
    }

    /**
     * {@code ID|--all [--main CLASS] instrument --model FILE...} ({@code insert}) or {@code uninstrument [NAME]}:
     * {@code id} null is every JVM (of {@code main}).
     */
    record Patch(NatsFleet.Login login, Path dir, String id, String main, boolean insert, List<Path> models,
            List<Path> modes, Path cache, String name, Duration deadline) implements CtlCommand.Request {
    }

    /** The ctl options for NATS and for many JVMs. */
    static Options addOptions(Options o) {
        return org.dyper.cli.fleet.NatsOptions.add(o).addOption(Option.builder().longOpt("all")
                        .desc("send the command to every monitored JVM (with --main: of that main class)").build())
                .addOption(Option.builder().longOpt("main").hasArg().argName("CLASS")
                        .desc("--all: only the JVMs of this main class").build())
                .addOption(Option.builder().longOpt("timeout").hasArg().argName("MS")
                        .desc("--nats: how long who gathers answers (default 1000) and a command waits (default "
                                + "60000)").build());
    }

    /** Reads {@code args} of {@code --nats URL} or {@code --all} into a request. */
    static CtlCommand.Request request(CommandLine line, List<String> args, Path dir, Path defaultCache)
            throws UsageError, java.io.IOException {
        NatsFleet.Login login = line.hasOption("nats") ? login(line) : null;
        Duration timeout = timeout(line.getOptionValue("timeout"));
        if (line.hasOption("main") && !line.hasOption("all")) {
            throw new UsageError("--main CLASS goes with --all");
        }
        int word = line.hasOption("all") ? 0 : 1;
        if (args.size() > word && args.get(word).equals("heap")) {
            throw new UsageError("heap reads the program's dump file where the program runs, so it does not go "
                    + "through " + (line.hasOption("nats") ? "--nats" : "--all") + ": run dyper ctl PID heap on its "
                    + "machine");
        }
        if (line.hasOption("all")) {
            if (args.isEmpty()) {
                throw new UsageError("--all: say COMMAND [DATA], instrument --model FILE or uninstrument [NAME]");
            }
            if (args.get(0).equals("who")) {
                throw new UsageError("--all: who lists every JVM already; give a command");
            }
            String main = line.getOptionValue("main");
            if (FleetAsking.handles(args.get(0))) {
                return FleetAsking.request(line, login, dir, null, main, args, defaultCache, timeout);
            }
            if (args.get(0).equals("instrument") || args.get(0).equals("uninstrument")) {
                return patch(line, login, dir, null, main, args, defaultCache, timeout);
            }
            if (args.size() > 2) {
                throw new UsageError("--all: expected COMMAND [DATA], got " + args.size() + " arguments");
            }
            return new All(login, dir, main, args.get(0), args.size() == 2 ? args.get(1) : null,
                    line.hasOption("xml"), CtlCommand.width(line.hasOption("wide"), line.getOptionValue("width")),
                    timeout == null ? COMMAND_DEADLINE : timeout);
        }
        if (args.isEmpty()) {
            throw new UsageError("--nats: say who, or ID COMMAND [DATA] (see dyper ctl --help)");
        }
        if (args.get(0).equals("who")) {
            if (args.size() > 1) {
                throw new UsageError("who takes no arguments, got '" + args.get(1) + "'");
            }
            return new Who(login, timeout == null ? WHO_DEADLINE : timeout);
        }
        String id = args.get(0);
        boolean asking = args.size() >= 2 && FleetAsking.handles(args.get(1));
        if (!asking && (args.size() < 2 || args.size() > 3)) {
            throw new UsageError("--nats: expected ID COMMAND [DATA], got " + args.size() + " argument(s)");
        }
        if (!id.matches("[A-Za-z0-9-]+_\\d+_\\d+")) {
            throw new UsageError("'" + id + "' is not a JVM id (host_pid_start; dyper ctl --nats URL who lists them)");
        }
        if (asking) {
            return FleetAsking.request(line, login, dir, id, null, args.subList(1, args.size()), defaultCache,
                    timeout);
        }
        if (args.get(1).equals("uninstrument") || args.get(1).equals("instrument") && line.hasOption("model")) {
            return patch(line, login, dir, id, null, args.subList(1, args.size()), defaultCache, timeout);
        }
        return new Send(login, id, args.get(1), args.size() == 3 ? args.get(2) : null, line.hasOption("xml"),
                CtlCommand.width(line.hasOption("wide"), line.getOptionValue("width")),
                timeout == null ? COMMAND_DEADLINE : timeout);
    }

    private static Patch patch(CommandLine line, NatsFleet.Login login, Path dir, String id, String main,
            List<String> args, Path defaultCache, Duration timeout) throws UsageError {
        Duration deadline = timeout == null ? Duration.ofMinutes(5) : timeout;
        if (args.get(0).equals("uninstrument")) {
            if (args.size() > 2) {
                throw new UsageError("uninstrument takes at most a model NAME");
            }
            return new Patch(login, dir, id, main, false, List.of(), List.of(), null, args.size() == 2 ? args.get(1)
                    : null, deadline);
        }
        if (args.size() > 1) {
            throw new UsageError("instrument takes its model with --model, not '" + args.get(1) + "'");
        }
        List<Path> models = CtlPatching.files(line, "model");
        if (models.isEmpty()) {
            throw new UsageError("instrument needs --model FILE");
        }
        return new Patch(login, dir, id, main, true, models, CtlPatching.files(line, "modes"), line.hasOption("cache")
                ? Path.of(line.getOptionValue("cache")) : defaultCache, null, deadline);
    }

    /** The login the options give; a bad URL or an unreadable .creds file is a usage error. */
    static NatsFleet.Login login(CommandLine line) throws UsageError {
        return org.dyper.cli.fleet.NatsOptions.login(line);
    }

    private static Duration timeout(String value) throws UsageError {
        if (value == null) {
            return null;
        }
        try {
            long ms = Long.parseLong(value.trim());
            if (ms > 0) {
                return Duration.ofMillis(ms);
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new UsageError("--timeout takes a positive number of milliseconds, not '" + value + "'");
    }

    /** Whether {@code r} is one of these requests. */
    static boolean handles(CtlCommand.Request r) {
        return r instanceof Who || r instanceof Send || r instanceof All || r instanceof Patch
                || r instanceof FleetAsking.Ask || r instanceof FleetAsking.Answers;
    }

    /** The fleet of {@code login}'s NATS server, or (null) of the registry folder {@code dir}. */
    static Fleet fleet(NatsFleet.Login login, Path dir) throws CommandFailure {
        if (login != null) {
            return connect(login);
        }
        return new org.dyper.cli.fleet.LocalFleet(dir);
    }

    int run(CtlCommand.Request request) throws CommandFailure, IOException {
        try {
            return doRun(request);
        } catch (InvalidInputException | WeaveException e) {
            return CtlPatching.notInstrumented(err, e);
        }
    }

    private int doRun(CtlCommand.Request request) throws CommandFailure, IOException, InvalidInputException,
            WeaveException {
        NatsFleet.Login login = request instanceof All a ? a.login() : request instanceof Patch p ? p.login()
                : request instanceof Who w ? w.login() : request instanceof FleetAsking.Ask k ? k.login()
                : request instanceof FleetAsking.Answers n ? n.login() : ((Send) request).login();
        if (login != null && login.warning() != null) {
            err.println("dyper: warning: " + login.warning());
        }
        FleetCtl many = new FleetCtl(out, err);
        if (request instanceof FleetAsking.Ask || request instanceof FleetAsking.Answers) {
            return new FleetAsking(out, err).run(request);
        }
        if (request instanceof All a) {
            try (Fleet fleet = fleet(a.login(), a.dir())) {
                return many.all(fleet, FleetCtl.members(fleet, a.main(), WHO_DEADLINE), a.command(), a.data(), a.xml(),
                        a.width(), a.deadline());
            }
        }
        if (request instanceof Patch p) {
            try (Fleet fleet = fleet(p.login(), p.dir())) {
                List<Fleet.Member> members = p.id() == null ? FleetCtl.members(fleet, p.main(), WHO_DEADLINE)
                        : List.of(member(p.id()));
                return p.insert() ? many.instrument(fleet, members, p.models(), p.modes(), p.cache(), p.deadline(),
                        null)
                        : many.uninstrument(fleet, members, p.name(), p.deadline());
            }
        }
        if (request instanceof Who w) {
            try (NatsFleet fleet = connect(w.login())) {
                List<Fleet.Member> members = fleet.who(w.deadline());
                for (Fleet.Member m : members) {
                    out.println(m.id() + "  " + m.host() + "  " + m.pid() + "  " + m.mainClass() + "  "
                            + CtlPatching.time(m.startMillis()) + "  " + m.jdk());
                }
                if (members.isEmpty()) {
                    err.println("dyper: no monitor answered on " + fleet.describe() + " within "
                            + w.deadline().toMillis() + " ms (start one with dyper run --nats URL)");
                }
                return ExitCode.OK;
            }
        }
        Send s = (Send) request;
        String command = s.command().toUpperCase(Locale.ROOT);
        Fleet.Member member = member(s.id());
        String message = "<DYPER PID='" + member.pid() + "' COMMAND='" + Xml.esc(command) + "'>"
                + (s.data() == null ? "" : s.data()) + "</DYPER>";
        try (NatsFleet fleet = connect(s.login())) {
            boolean control = CommandAccess.controlOnly(command, s.data() != null);
            // WHORU answers a reader without the JVM's arguments and properties: ask on the control subject first,
            // where a user with control rights gets them all
            boolean fuller = command.equals("WHORU");
            Fleet.Answer a = fleet.send(List.of(member), message, control || fuller, s.deadline()).get(0);
            if (fuller && !a.ok() && a.error().contains("the NATS server refused")) {
                a = fleet.send(List.of(member), message, false, s.deadline()).get(0);
            }
            if (!a.ok()) {
                // the server refusing a user the subject is a refused command; no answer is no process
                throw new CommandFailure(a.error().contains("the NATS server refused") ? ExitCode.COMMAND_FAILED
                        : ExitCode.NO_PROCESS, a.error());
            }
            Reply reply = Reply.of(a.reply(), "from " + NatsFleet.name(member));
            if (s.xml()) {
                out.println(a.reply());
            }
            if (reply.error() != null) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, NatsFleet.name(member) + ": " + reply.error());
            }
            if (!s.xml()) {
                out.print(Ctl.readable(command, reply.root(), s.width()));
            }
            return ExitCode.OK;
        }
    }

    /** The member an id names (host_pid_start); its main class is not known without WHO. */
    static Fleet.Member member(String id) {
        int start = id.lastIndexOf('_');
        int pid = id.lastIndexOf('_', start - 1);
        return new Fleet.Member(id, id.substring(0, pid), Long.parseLong(id.substring(pid + 1, start)), "?",
                Long.parseLong(id.substring(start + 1)), "");
    }

    static NatsFleet connect(NatsFleet.Login login) throws CommandFailure {
        try {
            return NatsFleet.connect(login, Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
    }
}
