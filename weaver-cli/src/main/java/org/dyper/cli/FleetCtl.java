package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dyper.cli.fleet.Fleet;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.monitor.CommandAccess;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl} over many JVMs of one {@link Fleet}: one command to every JVM (of a main class), and
 * instrument/uninstrument with one model for all of them, woven once. Each JVM gets its own result, a JVM that does
 * not answer in time is named, and the exit code is not 0 when any failed.
 */
record FleetCtl(PrintStream out, PrintStream err) {
    /** The JVMs of {@code fleet} (of main class {@code main}, when given); none is a failure naming the fleet. */
    static List<Fleet.Member> members(Fleet fleet, String main, Duration whoDeadline) throws CommandFailure,
            IOException {
        List<Fleet.Member> all = fleet.who(whoDeadline);
        List<Fleet.Member> chosen = org.dyper.cli.fleet.Carrier.select(all, main);
        if (chosen.isEmpty()) {
            throw new CommandFailure(ExitCode.NO_PROCESS, "no monitored JVM" + (main == null ? "" : " of main class "
                    + main) + " answers on " + fleet.describe() + " (within " + whoDeadline.toMillis() + " ms)"
                    + (main == null || all.isEmpty() ? "" : "; main classes there: " + all.stream()
                    .map(Fleet.Member::mainClass).distinct().sorted().toList()));
        }
        return chosen;
    }

    /** The DYPER message of {@code command} with optional {@code data} for {@code m}. */
    static String message(Fleet.Member m, String command, String data) {
        return "<DYPER PID='" + m.pid() + "' COMMAND='" + Xml.esc(command) + "'>" + (data == null ? "" : data)
                + "</DYPER>";
    }

    /**
     * Sends {@code command} to each of {@code members} and prints each reply under a line naming its JVM (readable,
     * or raw with {@code xml}); the failures go to stderr, one line per JVM, and decide the exit code.
     */
    int all(Fleet fleet, List<Fleet.Member> members, String command, String data, boolean xml, int width,
            Duration deadline) throws IOException {
        String cmd = command.toUpperCase(Locale.ROOT);
        boolean control = CommandAccess.controlOnly(cmd, data != null);
        List<Fleet.Answer> answers = sendEach(fleet, members, cmd, data, control, deadline);
        int code = ExitCode.OK;
        for (Fleet.Answer a : answers) {
            String name = fleet.describe(a.member());
            if (!a.ok()) {
                err.println("dyper: error: " + a.error());
                code = worse(code, a.error().contains("refused") ? ExitCode.COMMAND_FAILED : ExitCode.NO_PROCESS);
                continue;
            }
            Reply reply;
            try {
                reply = Reply.of(a.reply(), "from " + name);
            } catch (IOException e) {
                err.println("dyper: error: " + e.getMessage());
                code = worse(code, ExitCode.COMMAND_FAILED);
                continue;
            }
            out.println("== " + name);
            if (xml) {
                out.println(a.reply());
            } else if (reply.error() == null) {
                out.print(Ctl.readable(cmd, reply.root(), width));
            }
            if (reply.error() != null) {
                err.println("dyper: error: " + name + ": " + reply.error());
                code = worse(code, ExitCode.COMMAND_FAILED);
            }
        }
        summary(answers);
        return code;
    }

    /** One message (without PID: each JVM's subject names it) to all, sent at once, gathered until the deadline. */
    static List<Fleet.Answer> sendEach(Fleet fleet, List<Fleet.Member> members, String command, String data,
            boolean control, Duration deadline) throws IOException {
        return fleet.send(members, "<DYPER COMMAND='" + Xml.esc(command) + "'>" + (data == null ? "" : data)
                + "</DYPER>", control, deadline);
    }

    private void summary(List<Fleet.Answer> answers) {
        long ok = answers.stream().filter(Fleet.Answer::ok).count();
        if (ok < answers.size()) {
            err.println("dyper: " + ok + " of " + answers.size() + " JVM(s) answered; no answer from: " + String.join(
                    ", ", answers.stream().filter(a -> !a.ok()).map(a -> a.member().id()).toList()));
        }
    }

    private static int worse(int a, int b) {
        return a == ExitCode.OK ? b : a;
    }

    /**
     * Instruments every one of {@code members} with one model: the classes come from the first JVM (they run the
     * same program), the patched class files are made once and sent with their bytes (a JVM may be on another
     * machine); one result line per JVM. {@code questions}: a question table that goes in with the model (its
     * questions' code, {@link FleetAsking}), or null.
     */
    int instrument(Fleet fleet, List<Fleet.Member> members, List<Path> modelFiles, List<Path> modeFiles,
            Path cacheRoot, Duration deadline, String questions) throws CommandFailure, IOException,
            InvalidInputException, WeaveException {
        long start = System.nanoTime();
        CtlPatching.Loaded loaded = CtlPatching.load(modelFiles, modeFiles);
        Model model = loaded.model();
        ModeCatalog catalog = loaded.catalog();
        Fleet.Member source = members.get(0);
        Path classes = cacheRoot.resolve("classes").resolve("fleet-" + ProcessHandle.current().pid());
        String message;
        PatchService.Patched patched;
        try {
            MonitorTargets.Found found = MonitorTargets.fetch((command, data) -> one(fleet, source, command, data,
                    deadline), model.fors().stream().map(ForSpec::className).toList(), classes);
            PatchService service = new PatchService(catalog, found.targets(), cacheRoot.resolve("patch"));
            service.model(model);
            patched = service.patch(model.name(), true, List.of());
            message = LivePatching.instrumentMessage(model.name(), patched.files(), true, questions);
        } catch (IllegalArgumentException e) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, e.getMessage());
        } catch (IOException e) {
            // the classes come through the control subject: a user without control rights is refused here already
            throw new CommandFailure(e.getMessage() != null && e.getMessage().contains("the NATS server refused")
                    ? ExitCode.COMMAND_FAILED : ExitCode.NO_PROCESS, e.getMessage());
        } finally {
            Weaver.deleteTree(classes);
        }
        patched.warnings().forEach(w -> err.println("dyper: " + w));
        List<Fleet.Answer> answers = sendEach(fleet, members, "INSTRUMENT", message, true, deadline);
        int code = ExitCode.OK;
        for (Fleet.Answer a : answers) {
            Element patch = result(fleet, a);
            if (patch == null) {
                code = worse(code, a.ok() ? ExitCode.COMMAND_FAILED : a.error().contains("refused")
                        ? ExitCode.COMMAND_FAILED : ExitCode.NO_PROCESS);
                continue;
            }
            out.printf(Locale.ROOT, "dyper: model '%s' instrumented in %s: %s class(es) patched now, %s when they "
                    + "load%s%n", model.name(), fleet.describe(a.member()), patch.getAttribute("CLASSES"),
                    patch.getAttribute("PENDING"), patch.hasAttribute("FIRSTID") ? " (site ids "
                    + patch.getAttribute("FIRSTID") + "-" + patch.getAttribute("LASTID") + ")" : "");
        }
        summary(answers);
        out.printf(Locale.ROOT, "dyper: %d of %d JVM(s) instrumented in %.2f s (patched class files %s %s, woven "
                + "once)%n",
                answers.stream().filter(a -> result(fleet, a) != null).count(), answers.size(),
                (System.nanoTime() - start) / 1e9, patched.cached() ? "reused from" : "woven into", patched.dir());
        return code;
    }

    /** Takes model {@code name} (null: each JVM's active one) out of every one of {@code members}. */
    int uninstrument(Fleet fleet, List<Fleet.Member> members, String name, Duration deadline) throws IOException {
        Map<String, List<Fleet.Member>> byModel = new LinkedHashMap<>();
        int code = ExitCode.OK;
        if (name != null) {
            byModel.put(name, members);
        } else {
            for (Fleet.Answer a : sendEach(fleet, members, "INSTRUMENTED", null, false, deadline)) {
                String active = null;
                try {
                    Element patches = a.ok() ? Xml.child(Reply.of(a.reply(), "").root(), "PATCHES") : null;
                    for (Element m : patches == null ? List.<Element>of() : Xml.children(patches, "MODEL")) {
                        if ("true".equals(m.getAttribute("ACTIVE"))) {
                            active = m.getAttribute("NAME");
                        }
                    }
                } catch (IOException e) {
                    // named below
                }
                if (active == null) {
                    err.println("dyper: error: " + (a.ok() ? fleet.describe(a.member()) + " has no model instrumented"
                            : a.error()));
                    code = worse(code, a.ok() ? ExitCode.COMMAND_FAILED : ExitCode.NO_PROCESS);
                } else {
                    byModel.computeIfAbsent(active, k -> new ArrayList<>()).add(a.member());
                }
            }
        }
        for (Map.Entry<String, List<Fleet.Member>> e : byModel.entrySet()) {
            List<Fleet.Answer> answers = sendEach(fleet, e.getValue(), "INSTRUMENT", "<MODEL NAME='"
                    + MonitorReply.escape(e.getKey()) + "' INSERT='FALSE'/>", true, deadline);
            for (Fleet.Answer a : answers) {
                Element patch = result(fleet, a);
                if (patch == null) {
                    code = worse(code, a.ok() ? ExitCode.COMMAND_FAILED : ExitCode.NO_PROCESS);
                    continue;
                }
                out.printf(Locale.ROOT, "dyper: model '%s' removed from %s: %s class(es) restored%n",
                        patch.getAttribute("MODEL"), fleet.describe(a.member()), patch.getAttribute("CLASSES"));
            }
            summary(answers);
        }
        return code;
    }

    /** The PATCH element of an INSTRUMENT answer, or null with the reason printed. */
    private Element result(Fleet fleet, Fleet.Answer a) {
        if (!a.ok()) {
            err.println("dyper: error: " + a.error());
            return null;
        }
        try {
            Reply r = Reply.of(a.reply(), "from " + fleet.describe(a.member()));
            if (r.error() != null) {
                err.println("dyper: error: " + fleet.describe(a.member()) + ": " + r.error());
                return null;
            }
            return Xml.child(r.root(), "PATCH");
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return null;
        }
    }

    /**
     * One command of instrument's to one JVM, on its control subject (the class files of CLASSMODEL and WHORU's
     * whole answer, the working folder among its properties, are an operator's); its ERROR, or no answer, is an
     * IOException naming it.
     */
    static String one(Fleet fleet, Fleet.Member m, String command, String data, Duration deadline)
            throws IOException {
        Fleet.Answer a = fleet.send(List.of(m), message(m, command, data), true, deadline).get(0);
        if (!a.ok()) {
            throw new IOException(a.error());
        }
        return a.reply();
    }
}
