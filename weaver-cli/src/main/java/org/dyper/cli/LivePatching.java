package org.dyper.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.instrument.PatchSetFiles;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The one path that patches a running program: fetch the classes a model names through the process's monitor, make
 * the patched class files with the DYPATCH service in this process (cached), send INSTRUMENT. {@code dyper ctl PID
 * instrument} and {@code dyper ui} both go through here; INSERT='FALSE' takes a model out again.
 */
public final class LivePatching {
    private LivePatching() {
    }

    /** What an INSTRUMENT that went in says: its PATCH reply, the service's warnings, and where the files came from. */
    public record Inserted(String model, Element reply, List<String> warnings, boolean cached, Path dir) {
    }

    /** What questions put to a process became: the compiled questions and the INSTRUMENT that put them in. */
    public record Asked(org.dyper.patch.ask.QuestionCompiler.Result compiled, Inserted inserted) {
    }

    /**
     * Puts {@code questions} (one-line form) to the process of {@code entry}, as {@code dyper ctl PID ask} does:
     * compiled against its class path (CLASSMODEL), their model and table inserted in one INSTRUMENT. A question that
     * cannot be answered is an invalid-input {@link CommandFailure} naming its column; a refusal, the monitor's reason.
     */
    public static Asked ask(MonitorEntry entry, List<org.dyper.cli.ask.AskedQuestions.Asked> questions, Path cacheRoot,
            int timeoutMillis, boolean inline) throws CommandFailure, IOException, InvalidInputException,
            WeaveException {
        List<Path> classPath;
        try (WireClient c = connect(entry, timeoutMillis)) {
            classPath = MonitorTargets.classPath(c::command, MonitorTargets.prefix(CtlAsking.dottedNames(questions)));
        }
        org.dyper.patch.ask.QuestionCompiler.Result compiled = org.dyper.cli.ask.AskedQuestions.compile(questions,
                classPath);
        org.dyper.cli.ask.AskedQuestions.Files3 files = org.dyper.cli.ask.AskedQuestions.write(compiled, cacheRoot);
        Model model = org.dyper.patch.xml.ModelReader.read(files.model());
        return new Asked(compiled, insert(entry, ModeCatalog.load(List.of(files.modes())), model, cacheRoot,
                timeoutMillis, inline, compiled.table()));
    }

    /**
     * Inserts {@code model} (its FORs; a model of the same name replaces the one in, in one step) into the process of
     * {@code entry}, every monitor call under {@code timeoutMillis}. A refusal is a {@link CommandFailure} with the
     * monitor's reason.
     */
    public static Inserted insert(MonitorEntry entry, ModeCatalog catalog, Model model, Path cacheRoot,
            int timeoutMillis) throws CommandFailure, IOException, InvalidInputException, WeaveException {
        return insert(entry, catalog, model, cacheRoot, timeoutMillis, false, null);
    }

    /**
     * As {@link #insert(MonitorEntry, ModeCatalog, Model, Path, int)}; {@code inline}: INSTRUMENT carries the patched
     * class files' bytes ({@link PatchSetFiles#inlined}) rather than their paths, so that the monitor reads no file of
     * this machine (the form for a monitor on another machine); {@code questions}: the question table the model's
     * code answers to (the compiled questions of {@code dyper ctl PID ask}), or null.
     */
    public static Inserted insert(MonitorEntry entry, ModeCatalog catalog, Model model, Path cacheRoot,
            int timeoutMillis, boolean inline, String questions) throws CommandFailure, IOException, InvalidInputException,
            WeaveException {
        try (WireClient c = connect(entry, timeoutMillis)) {
            return insert(entry.pid(), c::command, catalog, model, cacheRoot, inline, questions);
        }
    }

    /**
     * As {@link #insert(MonitorEntry, ModeCatalog, Model, Path, int, boolean, String)}, through {@code c}: the
     * monitor of process {@code pid} on a socket, or a JVM on a NATS server (then {@code inline}, and {@code c} asks
     * on its control subject: CLASSMODEL and the whole WHORU are an operator's).
     */
    public static Inserted insert(long pid, MonitorTargets.Requests c, ModeCatalog catalog, Model model,
            Path cacheRoot, boolean inline, String questions) throws CommandFailure, IOException,
            InvalidInputException, WeaveException {
        return insert(pid, c, catalog, model, cacheRoot, inline, questions, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #insert(MonitorEntry, ModeCatalog, Model, Path, int)}, the woven patch set passed through
     * {@code transform} before it goes in (dyper whatif's loop heads: a bytecode insertion where AspectJ has no join
     * point; the transform writes its class files elsewhere, never over the patch cache's).
     */
    public static Inserted insert(MonitorEntry entry, ModeCatalog catalog, Model model, Path cacheRoot,
            int timeoutMillis, java.util.function.UnaryOperator<PatchSetFiles> transform) throws CommandFailure,
            IOException, InvalidInputException, WeaveException {
        try (WireClient c = connect(entry, timeoutMillis)) {
            return insert(entry.pid(), c::command, catalog, model, cacheRoot, false, null, transform);
        }
    }

    private static Inserted insert(long pid, MonitorTargets.Requests c, ModeCatalog catalog, Model model,
            Path cacheRoot, boolean inline, String questions, java.util.function.UnaryOperator<PatchSetFiles> transform)
            throws CommandFailure, IOException, InvalidInputException, WeaveException {
        List<ForSpec> fors = new ArrayList<>(model.fors());
        Path patches = cacheRoot.resolve("patch");
        Path classes = cacheRoot.resolve("classes").resolve(pid + "-" + Thread.currentThread().getId());
        try {
            MonitorTargets.Found found = MonitorTargets.fetch(c, fors.stream().map(ForSpec::className).toList(),
                    classes);
            PatchService service = new PatchService(catalog, found.targets(), patches);
            service.model(model);
            PatchService.Patched patched = service.patch(model.name(), true, List.of());
            // the patch set in its one form, with the classes it changes and the runtime jars the woven code needs
            String message;
            try {
                message = instrumentMessage(model.name(), transform.apply(patched.files()), inline, questions);
            } catch (IllegalArgumentException e) {
                throw new CommandFailure(ExitCode.INVALID_INPUT, e.getMessage());
            }
            Element reply = Xml.child(answer(pid, c.command("INSTRUMENT", message)), "PATCH");
            return new Inserted(model.name(), reply, patched.warnings(), patched.cached(), patched.dir());
        } finally {
            Weaver.deleteTree(classes);
        }
    }

    /**
     * Weaves {@code model}'s patch set for the process of {@code entry} into the patch cache under {@code cacheRoot}
     * (its classes fetched from the monitor, as {@link #insert} does) without inserting it, so that an
     * {@link #insert} of the same model later finds it there. Returns whether it was in the cache already.
     */
    public static boolean prepare(MonitorEntry entry, ModeCatalog catalog, Model model, Path cacheRoot,
            int timeoutMillis) throws CommandFailure, IOException, InvalidInputException, WeaveException {
        Path classes = cacheRoot.resolve("classes").resolve(entry.pid() + "-" + Thread.currentThread().getId());
        try (WireClient c = connect(entry, timeoutMillis)) {
            MonitorTargets.Found found = MonitorTargets.fetch(c::command, model.fors().stream().map(ForSpec::className)
                    .toList(), classes);
            PatchService service = new PatchService(catalog, found.targets(), cacheRoot.resolve("patch"));
            service.model(model);
            return service.patch(model.name(), true, List.of()).cached();
        } finally {
            Weaver.deleteTree(classes);
        }
    }

    /**
     * INSTRUMENT's data for the patch set {@code files} of model {@code name}: the classes it changes and the runtime
     * jars the woven code needs, by path, or with their bytes inline ({@code inline}; the monitor then falls back to
     * the AspectJ runtime beside its own jar when the paths are not on its machine). Throws
     * IllegalArgumentException when a file cannot be read or is larger than INSTRUMENT takes. {@code questions}: the
     * question table to define with it, or null.
     */
    public static String instrumentMessage(String name, PatchSetFiles files, boolean inline, String questions) {
        PatchSetFiles set = files.patchedOnly().withRuntime(Weaver.runtimeClasspath());
        String message = "<MODEL NAME='" + MonitorReply.escape(name) + "' INSERT='TRUE'>"
                + (inline ? set.inlined() : set).toXml()
                + (questions == null ? "" : "<QUESTIONS>" + Xml.text(questions) + "</QUESTIONS>") + "</MODEL>";
        // the frame holds the whole <DYPER> message: its command and escaping add a little
        if (message.length() > org.dyper.runtime.wire.Frames.MAX_MESSAGE - 256) {
            throw new IllegalArgumentException("model '" + name + "': its patched classes take " + message.length()
                    + " bytes inline, more than one command carries (" + org.dyper.runtime.wire.Frames.MAX_MESSAGE
                    + "): patch fewer classes at once" + (inline ? ", or send paths to a monitor on this machine" : ""));
        }
        return message;
    }

    /** Takes model {@code name} out (null: the one that is in); returns the PATCH reply. */
    public static Element remove(MonitorEntry entry, String name, int timeoutMillis) throws CommandFailure,
            IOException {
        try (WireClient c = connect(entry, timeoutMillis)) {
            return remove(entry.pid(), c::command, name);
        }
    }

    /** As {@link #remove(MonitorEntry, String, int)}, through {@code c} (a socket, or a JVM on a NATS server). */
    public static Element remove(long pid, MonitorTargets.Requests c, String name) throws CommandFailure,
            IOException {
        String model = name;
        if (model == null) {
            for (Element m : Xml.children(Xml.child(answer(pid, c.command("INSTRUMENTED", null)), "PATCHES"),
                    "MODEL")) {
                if ("true".equals(m.getAttribute("ACTIVE"))) {
                    model = m.getAttribute("NAME");
                }
            }
            if (model == null) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + " has no model instrumented");
            }
        }
        return Xml.child(answer(pid, c.command("INSTRUMENT", "<MODEL NAME='" + MonitorReply.escape(model)
                + "' INSERT='FALSE'/>")), "PATCH");
    }

    /** A connection to a monitor whose every read and write has a deadline. */
    public static WireClient connect(MonitorEntry entry, int timeoutMillis) throws CommandFailure, IOException {
        try {
            WireClient c = entry.connect(false);
            c.timeout(timeoutMillis);
            return c;
        } catch (java.net.ConnectException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, "process " + entry.pid() + " does not answer on "
                    + entry.endpoint());
        }
    }

    /** The reply's root; an ERROR in it is a failure naming the process. */
    public static Element answer(long pid, String reply) throws CommandFailure, IOException {
        return Reply.of(reply, "from process " + pid).orFail(pid);
    }

    /** Loads the monitor into process {@code pid} with the attach API; returns its registry entry. */
    public static MonitorEntry attach(Path registry, long pid, String options) throws CommandFailure, IOException {
        new Ctl(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), System.err, registry)
                .attach(pid, options, Weaver.runtimeClasspath().get(0));
        return MonitorEntry.of(registry, pid);
    }
}
