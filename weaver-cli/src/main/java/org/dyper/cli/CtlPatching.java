package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.Problem;
import org.dyper.patch.runtime.PatchService;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.xml.ModelReader;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.monitor.ReportText;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl PID instrument --model M.xml [--modes X.xml]}, {@code uninstrument [NAME]} and
 * {@code instrumented}: the run-time patching loop for a monitored process. instrument asks the monitor for the
 * process's classes, makes the patched class files with the DYPATCH service in this process (cached), and sends
 * INSTRUMENT; uninstrument takes the model out again; instrumented lists what is patched and since when.
 */
record CtlPatching(PrintStream out, PrintStream err, Path dir) {
    /** The lines {@code dyper ctl --help} says about these subcommands. */
    static final String HELP = "PID instrument --model FILE: patch the running program with the model (its classes are\n"
            + "fetched, patched and swapped in; prints the time it took); uninstrument [NAME] takes it out;\n"
            + "instrumented lists what is patched and since when (docs/runtime-patching.md); --inline sends the\n"
            + "patched class files' bytes, not their paths (for a monitor that cannot read this machine's files).\n";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    /** The ctl options these subcommands add. */
    static Options addOptions(Options o) {
        return o.addOption(Option.builder().longOpt("model").hasArg().argName("FILE")
                        .desc("instrument: the patch model; repeatable (one model: the first file's NAME)").build())
                .addOption(Option.builder().longOpt("modes").hasArg().argName("FILE")
                        .desc("instrument: a mode file; repeatable").build())
                .addOption(Option.builder().longOpt("cache").hasArg().argName("DIR")
                        .desc("instrument: where patched class files are kept (default: the dyper cache)").build())
                .addOption(Option.builder().longOpt("inline").desc("instrument: send the patched class files' bytes "
                        + "in the command, not their paths (the monitor reads no file of this machine)").build());
    }

    /** Whether {@code word} (the ctl argument after the PID) is one of these subcommands. */
    static boolean handles(String word, boolean hasModel) {
        return word.equals("instrumented") || word.equals("uninstrument")
                || word.equals("instrument") && hasModel;
    }

    /** The files of a repeatable option ({@code --model}, {@code --modes}); one that is not there is a usage error. */
    static List<Path> files(CommandLine line, String option) throws UsageError {
        List<Path> files = new ArrayList<>();
        for (String v : line.getOptionValues(option) == null ? new String[0] : line.getOptionValues(option)) {
            if (!Files.isRegularFile(Path.of(v))) {
                throw new UsageError("--" + option + " " + v + ": no such file");
            }
            files.add(Path.of(v));
        }
        return files;
    }

    /** Reads {@code args} ({@code PID instrument|uninstrument [NAME]|instrumented}) into a request. */
    static CtlCommand.Request request(CommandLine line, List<String> args, long pid, Path defaultCache)
            throws UsageError {
        String what = args.get(1);
        if (what.equals("instrument")) {
            if (args.size() > 2) {
                throw new UsageError("instrument takes its model with --model, not '" + args.get(2) + "'");
            }
            List<Path> models = files(line, "model");
            List<Path> modes = files(line, "modes");
            Path cache = line.hasOption("cache") ? Path.of(line.getOptionValue("cache")) : defaultCache;
            return new CtlCommand.Instrument(pid, models, modes, cache, line.hasOption("inline"));
        }
        if (what.equals("uninstrument")) {
            if (args.size() > 3) {
                throw new UsageError("uninstrument takes at most a model NAME");
            }
            return new CtlCommand.Uninstrument(pid, args.size() == 3 ? args.get(2) : null);
        }
        if (args.size() > 2) {
            throw new UsageError("instrumented takes no argument, got '" + args.get(2) + "'");
        }
        return new CtlCommand.Instrumented(pid, line.hasOption("xml"));
    }

    /**
     * Runs an instrument, uninstrument or instrumented request; returns the exit code. Invalid models are reported
     * here; monitor failures go up as {@link CommandFailure}.
     */
    int run(CtlCommand.Request request) throws CommandFailure, IOException {
        if (request instanceof CtlCommand.Instrument r) {
            try {
                return instrument(r.pid(), r.models(), r.modes(), r.cache(), r.inline());
            } catch (InvalidInputException | WeaveException e) {
                return notInstrumented(err, e);
            }
        }
        if (request instanceof CtlCommand.Uninstrument r) {
            return uninstrument(r.pid(), r.name());
        }
        CtlCommand.Instrumented r = (CtlCommand.Instrumented) request;
        return instrumented(r.pid(), r.xml());
    }

    /**
     * Says why nothing was instrumented, for every front end that instruments: each problem of an invalid model or
     * mode file ({@link InvalidInputException}), or why the weave failed ({@link WeaveException}); returns the exit
     * code.
     */
    static int notInstrumented(PrintStream err, Exception e) {
        if (e instanceof InvalidInputException invalid) {
            invalid.listed().forEach(p -> err.println("dyper: " + (p.warning() ? "" : "error: ") + p));
            err.println("dyper: " + invalid.errorCount() + " problem(s); nothing was instrumented");
            return ExitCode.INVALID_INPUT;
        }
        err.println("dyper: error: " + e.getMessage().replace("\n", "\ndyper:   "));
        return ExitCode.WEAVE_FAILED;
    }

    private MonitorEntry entry(long pid) throws CommandFailure {
        try {
            return MonitorEntry.of(dir, pid);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
    }

    private static WireClient connect(MonitorEntry entry) throws CommandFailure, IOException {
        return LivePatching.connect(entry, 300_000);
    }

    private static Element answer(long pid, String reply) throws CommandFailure, IOException {
        return Reply.of(reply, "from process " + pid).orFail(pid);
    }

    /** The mode catalog and the one model (the first file's NAME, every file's FORs) that instrument sends. */
    record Loaded(ModeCatalog catalog, Model model) {
    }

    /** Reads the model and mode files; every problem in them at once. */
    static Loaded load(List<Path> modelFiles, List<Path> modeFiles) throws InvalidInputException {
        List<Problem> problems = new ArrayList<>();
        ModeCatalog catalog = null;
        try {
            catalog = ModeCatalog.load(modeFiles);
        } catch (InvalidInputException e) {
            problems.addAll(e.problems());
        }
        List<Model> models = new ArrayList<>();
        for (Path f : modelFiles) {
            try {
                models.add(ModelReader.read(f));
            } catch (InvalidInputException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidInputException(problems);
        }
        List<ForSpec> fors = new ArrayList<>();
        models.forEach(m -> fors.addAll(m.fors()));
        return new Loaded(catalog, new Model(models.get(0).name(), fors, models.get(0).at()));
    }

    int instrument(long pid, List<Path> modelFiles, List<Path> modeFiles, Path cacheRoot, boolean inline)
            throws CommandFailure, IOException, InvalidInputException, WeaveException {
        long start = System.nanoTime();
        Loaded loaded = load(modelFiles, modeFiles);
        ModeCatalog catalog = loaded.catalog();
        Model model = loaded.model();
        LivePatching.Inserted in = LivePatching.insert(entry(pid), catalog, model, cacheRoot, 300_000,
                inline, null);
        in.warnings().forEach(w -> err.println("dyper: " + w));
        Element reply = in.reply();
        for (Element note : Xml.children(reply, "NOTE")) {
            err.println("dyper: note: " + note.getTextContent());
        }
        double total = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "dyper: model '%s' instrumented in process %d: %s class(es) patched now, %s when "
                + "they load%s%n", model.name(), pid, reply.getAttribute("CLASSES"), reply.getAttribute("PENDING"),
                reply.hasAttribute("FIRSTID") ? " (site ids " + reply.getAttribute("FIRSTID") + "-"
                + reply.getAttribute("LASTID") + ")" : "");
        out.printf(Locale.ROOT, "dyper: INSTRUMENT took %.1f ms in the JVM (redefinition %.1f ms); the whole "
                + "round trip %.2f s (patched class files %s %s)%n",
                Long.parseLong(reply.getAttribute("NANOS")) / 1e6,
                Long.parseLong(reply.getAttribute("REDEFINE_NANOS")) / 1e6, total,
                in.cached() ? "reused from" : "woven into", in.dir());
        if (reply.hasAttribute("PHASES")) {  // the JVM runs with -Ddyper.instrument.phases=true
            out.println("dyper: INSTRUMENT's phases in the JVM (wall µs/CPU µs/classes loaded): "
                    + reply.getAttribute("PHASES"));
        }
        return ExitCode.OK;
    }

    int uninstrument(long pid, String name) throws CommandFailure, IOException {
        Element reply = LivePatching.remove(entry(pid), name, 300_000);
        out.printf(Locale.ROOT, "dyper: model '%s' removed from process %d: %s class(es) restored in %.1f ms%n",
                reply.getAttribute("MODEL"), pid, reply.getAttribute("CLASSES"),
                Long.parseLong(reply.getAttribute("NANOS")) / 1e6);
        return ExitCode.OK;
    }

    int instrumented(long pid, boolean xml) throws CommandFailure, IOException {
        String reply;
        String detail;
        try (WireClient c = connect(entry(pid))) {
            reply = c.command("INSTRUMENTED", null);
            detail = xml ? null : c.command("REPORT", "<REPORT TYPE='DETAIL'/>");
        }
        Element patches = Xml.child(answer(pid, reply), "PATCHES");
        if (xml) {
            out.println(reply);
            return ExitCode.OK;
        }
        List<Element> models = Xml.children(patches, "MODEL");
        if (models.isEmpty()) {
            out.println("No model was instrumented in process " + pid + ".");
        }
        detailedNow(pid, detail);
        for (Element m : models) {
            boolean active = "true".equals(m.getAttribute("ACTIVE"));
            out.println("model " + m.getAttribute("NAME") + " (patch " + m.getAttribute("ID")
                    + (m.hasAttribute("FIRSTID") ? ", site ids " + m.getAttribute("FIRSTID") + "-"
                    + m.getAttribute("LASTID") : "") + "): "
                    + (active ? "in since " + time(m.getAttribute("SINCE"))
                    : "was in from " + time(m.getAttribute("SINCE")) + " to " + time(m.getAttribute("UNTIL"))));
            List<List<String>> classes = new ArrayList<>();
            for (Element cls : Xml.children(m, "CLASS")) {
                classes.add(List.of(cls.getAttribute("NAME"), cls.getAttribute("LOADER"), cls.getAttribute("STATE"),
                        time(cls.getAttribute("SINCE")), time(cls.getAttribute("UNTIL"))));
            }
            StringBuilder s = new StringBuilder();
            s.append(ReportText.table(List.of("class", "loader", "state", "since", "until"), classes));
            List<List<String>> sites = new ArrayList<>();
            for (Element site : Xml.children(m, "SITE")) {
                sites.add(List.of(site.getAttribute("NAME"), site.getAttribute("ID"), time(site.getAttribute("SINCE")),
                        "true".equals(site.getAttribute("ACTIVE")) ? "patched" : "-"));
            }
            s.append('\n');
            s.append(ReportText.table(List.of("site", "id", "patched since", "now"), sites));
            for (Element note : Xml.children(m, "NOTE")) {
                s.append("  note: ").append(note.getTextContent()).append('\n');
            }
            out.print(s.append('\n'));
        }
        return ExitCode.OK;
    }

    /** Automatic detailing's items patched now (docs/detailing.md), from the DETAIL section of a REPORT. */
    private void detailedNow(long pid, String reply) throws CommandFailure, IOException {
        Element report = Xml.child(answer(pid, reply), "MONITOR_REPORT");
        Element detail = report == null ? null : Xml.child(report, "DETAIL");
        if (detail == null || !"true".equals(detail.getAttribute("AUTO"))) {
            return;
        }
        List<Element> now = Xml.children(detail, "DETAILED").stream()
                .filter(d -> d.getAttribute("STATE").equals("PATCHED")).toList();
        out.println("Detailed now by automatic detailing (model " + detail.getAttribute("MODEL") + "): " + now.size()
                + " method(s), at most " + detail.getAttribute("MAX"));
        List<List<String>> rows = new ArrayList<>();
        for (Element d : now) {
            rows.add(List.of(d.getAttribute("CLASS") + "." + d.getAttribute("NAME"), time(d.getAttribute("SINCE")),
                    Xml.child(d, "EXACT").getAttribute("COUNT")));
        }
        StringBuilder s = new StringBuilder(ReportText.table(List.of("method", "since", "exact calls"), rows));
        for (Element w : Xml.children(detail, "WAITING")) {
            s.append("  waiting: ").append(w.getTextContent()).append('\n');
        }
        out.print(s.append('\n'));
    }

    private static String time(String millis) {
        if (millis == null || millis.isEmpty()) {
            return "";
        }
        return time(Long.parseLong(millis));
    }

    /** A time as {@code dyper ctl} prints it: local date and time to the second. */
    static String time(long millis) {
        return TIME.format(Instant.ofEpochMilli(millis).atZone(ZoneId.systemDefault()));
    }
}
