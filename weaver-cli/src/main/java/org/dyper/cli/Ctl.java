package org.dyper.cli;

import static org.dyper.runtime.wire.Xml.child;
import static org.dyper.runtime.wire.Xml.children;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dyper.patch.build.Weaver;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl}: lists monitored processes, sends them DYPER commands and prints the replies readably, and loads
 * the monitor into running JVMs.
 */
record Ctl(PrintStream out, PrintStream err, Path dir) {
    /** Does what {@code request} says; returns the exit code. */
    int run(CtlCommand.Request request) {
        try {
            if (request instanceof CtlCommand.Who) {
                return who();
            }
            if (request instanceof CtlCommand.Attach a) {
                return attach(a.pid(), a.options(), Weaver.runtimeClasspath().get(0));
            }
            if (request instanceof CtlHeap.Request h) {
                return new CtlHeap(out, err, dir).run(h);
            }
            if (CtlNats.handles(request)) {
                return new CtlNats(out, err).run(request);
            }
            if (request instanceof CtlCommand.Send c) {
                return command(c.pid(), c.command(), c.data(), c.xml(), c.width());
            }
            if (request instanceof CtlCommand.Ask || request instanceof CtlCommand.Answers) {
                return new CtlAsking(out, err, dir).run(request);
            }
            return new CtlPatching(out, err, dir).run(request);
        } catch (CommandFailure e) {
            err.println("dyper: error: " + e.getMessage());
            return e.code;
        } catch (WireClient.Ended e) {
            err.println("dyper: error: " + e.getMessage());
            return ExitCode.NO_PROCESS;
        } catch (IOException e) {
            err.println("dyper: error: " + e.getMessage());
            return ExitCode.IO_ERROR;
        } catch (RuntimeException e) {
            err.println("dyper: internal error: " + e + " (please report it)");
            return ExitCode.INTERNAL;
        }
    }

    int who() throws IOException {
        List<MonitorEntry> entries = MonitorEntry.list(dir, true);
        for (MonitorEntry e : entries) {
            out.println(e.pid() + "  " + e.mainClass() + "  "
                    + CtlPatching.time(e.startMillis()));
        }
        if (entries.isEmpty()) {
            // on stderr, so that a script reading the list still reads an empty one
            err.println("dyper: no monitored process in " + dir + " (start one with dyper run, or load the monitor "
                    + "into a running JVM with dyper ctl attach PID)");
        }
        return ExitCode.OK;
    }

    /** The JDK attach client's timeout in ms (a system property of the attaching JVM, read at each attach). */
    static final String ATTACH_TIMEOUT = "sun.tools.attach.attachTimeout";

    int attach(long pid, String options, Path agentJar) throws CommandFailure, IOException {
        if (agentJar == null || !Files.isRegularFile(agentJar) || !agentJar.toString().endsWith(".jar")) {
            throw new CommandFailure(ExitCode.ATTACH_FAILED, "the dyper-runtime jar was not found (" + agentJar
                    + "): build with mvn package first");
        }
        String args = "dir=" + dir.toAbsolutePath() + (options == null || options.isBlank() ? "" : "," + options);
        // The JDK's attach signals the target (SIGQUIT) and, if its attach listener has not answered within half of
        // this timeout (10 s by default), signals it again; a listener that was only slow to start (a busy machine)
        // then takes the second signal as a thread dump request and prints a dump into the program's output. A
        // longer timeout keeps the second signal for a JVM that really does not answer.
        if (System.getProperty(ATTACH_TIMEOUT) == null) {
            System.setProperty(ATTACH_TIMEOUT, "60000");
        }
        awaitCatchesQuit(pid, Path.of("/proc/" + pid + "/status"), QUIT_WAIT_MS);
        try {
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgent(agentJar.toAbsolutePath().toString(), args);
            } finally {
                vm.detach();
            }
        } catch (com.sun.tools.attach.AttachNotSupportedException e) {
            throw new CommandFailure(ExitCode.ATTACH_FAILED, "cannot attach to process " + pid + ": " + e.getMessage());
        } catch (com.sun.tools.attach.AgentLoadException | com.sun.tools.attach.AgentInitializationException e) {
            throw new CommandFailure(ExitCode.ATTACH_FAILED, "process " + pid + " did not start the monitor: "
                    + e.getMessage());
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.ATTACH_FAILED, "cannot attach to process " + pid + ": " + e.getMessage());
        }
        Path file = dir.resolve(pid + ".monitor");
        for (int i = 0; i < 100 && !Files.exists(file); i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (!Files.exists(file)) {
            throw new CommandFailure(ExitCode.ATTACH_FAILED, "process " + pid + " loaded the agent but wrote no entry in "
                    + dir + " (see its stderr)");
        }
        MonitorEntry e = MonitorEntry.read(file);
        out.println("dyper: monitor running in process " + pid + " (" + e.endpoint() + ")");
        return ExitCode.OK;
    }

    /** How long {@link #awaitCatchesQuit} waits for a JVM that is still starting. */
    static final long QUIT_WAIT_MS = 10_000;

    /**
     * Waits until process {@code pid} catches SIGQUIT, where the system says ({@code status}: Linux's
     * /proc/PID/status; elsewhere, or unreadable, nothing is checked). The JDK's attach starts with a SIGQUIT: a JVM
     * in its first milliseconds has no handler for it yet, and then the signal either ends it (the default action: a
     * core dump) or, when its parent ignored SIGQUIT (a script's background job), is lost, and the attach waits out
     * its whole timeout. A JVM started with -Xrs never catches it: then nothing is sent, and the error says why.
     */
    static void awaitCatchesQuit(long pid, Path status, long waitMs) throws CommandFailure {
        long deadline = System.nanoTime() + waitMs * 1_000_000L;
        while (true) {
            String text;
            try {
                text = Files.readString(status, java.nio.charset.StandardCharsets.US_ASCII);
            } catch (java.nio.file.NoSuchFileException gone) {
                if (Files.isDirectory(status.getParent().getParent())) {  // /proc is there: the process is not
                    throw new CommandFailure(ExitCode.NO_PROCESS, "no process " + pid);
                }
                return;
            } catch (IOException unreadable) {
                return;
            }
            Boolean catches = catchesQuit(text);
            if (catches == null || catches) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new CommandFailure(ExitCode.ATTACH_FAILED, "cannot attach to process " + pid + ": it does not "
                        + "catch SIGQUIT, which the JDK's attach sends (after " + waitMs / 1000 + " s: is it a JVM "
                        + "started with -Xrs, or not a JVM?); nothing was sent, so nothing happened to it");
            }
            try {
                Thread.sleep(20); // the JVM installs its handler within its first few hundred ms; polled to a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether a /proc/PID/status text's caught-signal mask has SIGQUIT (3); null when it has no such line. */
    static Boolean catchesQuit(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("SigCgt:")) {
                try {
                    return (Long.parseUnsignedLong(line.substring("SigCgt:".length()).trim(), 16) & (1L << 2)) != 0;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** Sends one command; prints the raw reply ({@code xml}) or text rows fitting {@code width} columns (0: whole names). */
    int command(long pid, String command, String data, boolean xml, int width) throws CommandFailure, IOException {
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(dir, pid);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
        String reply;
        try (WireClient c = entry.connect(false)) {
            c.timeout(120_000);
            reply = c.command(command.toUpperCase(Locale.ROOT), data);
        } catch (java.net.ConnectException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, "process " + pid + " does not answer on " + entry.endpoint());
        }
        Reply answer = Reply.of(reply, "from process " + pid);
        if (xml) {
            out.println(reply);
        }
        Element root = answer.orFail(pid);
        if (!xml) {
            out.print(readable(command.toUpperCase(Locale.ROOT), root, width));
        }
        return ExitCode.OK;
    }

    /** The reply for people: tables for reports, jstack-like text for stacks, name = value for settings. */
    static String readable(String command, Element root, int width) {
        StringBuilder s = new StringBuilder();
        Element report = child(root, "MONITOR_REPORT");
        Element threads = child(root, "THREADS");
        Element settings = child(root, "SETTINGS");
        List<Element> vars = settings != null ? children(settings, "VAR") : children(root, "VAR");
        if (report != null) {
            s.append(org.dyper.runtime.monitor.ReportText.render(report, width));
        } else if (threads != null) {
            stacks(s, threads);
        } else if (!vars.isEmpty()) {
            for (Element v : vars) {
                s.append(v.getAttribute("NAME")).append(" = ").append(v.getAttribute("VALUE")).append('\n');
            }
        } else if (command.equals("WHO")) {
            s.append(root.getAttribute("ID")).append('\n');
        } else if (children(root, null).isEmpty()) {
            s.append(root.getTextContent().trim()).append('\n');
        } else if (command.equals("WHORU")) {
            for (Element e : children(root, null)) {
                String key = e.hasAttribute("KEY") ? " " + e.getAttribute("KEY") : "";
                s.append(e.getTagName()).append(key).append(": ").append(e.getTextContent());
                if (e.getTagName().equals("TIME")) {
                    s.append(e.getAttribute("MILLIS"));
                }
                s.append('\n');
            }
        } else {
            for (Element e : children(root, null)) {
                s.append(org.dyper.runtime.wire.Xml.serialize(e)).append('\n');
            }
        }
        return s.toString();
    }

    private static void stacks(StringBuilder s, Element threads) {
        for (Element t : children(threads, "THREAD")) {
            s.append('"').append(t.getAttribute("NAME")).append("\" #").append(t.getAttribute("ID")).append(' ')
                    .append(t.getAttribute("STATE"));
            if (t.getAttribute("ACTIVITY").equals("NATIVE")) {
                s.append(" (blocked in native code, not running)");
            }
            if (t.hasAttribute("LOCK")) {
                s.append(" on ").append(t.getAttribute("LOCK"));
            }
            if (t.hasAttribute("LOCK_OWNER")) {
                s.append(" owned by \"").append(t.getAttribute("LOCK_OWNER")).append('"');
            }
            s.append('\n');
            for (Element f : children(t, "STACK")) {
                s.append("    at ").append(f.getAttribute("CLASS")).append('.').append(f.getAttribute("METHOD"))
                        .append('(');
                if (f.hasAttribute("NATIVE")) {
                    s.append("Native Method");
                } else {
                    s.append(f.hasAttribute("FILE") ? f.getAttribute("FILE") : "Unknown Source");
                    if (!f.getAttribute("LINE").startsWith("-")) {
                        s.append(':').append(f.getAttribute("LINE"));
                    }
                }
                s.append(")\n");
            }
            s.append('\n');
        }
    }
}
