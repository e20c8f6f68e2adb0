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
import org.dyper.runtime.monitor.MonitorClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * {@code dyper ctl}: lists monitored processes, sends them DYPER commands and prints the replies readably, and loads
 * the monitor into running JVMs.
 */
final class Ctl {
    /** The monitor answered with an ERROR. */
    static final int COMMAND_FAILED = 6;
    /** No such monitored process, or it cannot be reached. */
    static final int NO_PROCESS = 7;
    /** Attaching to a JVM failed. */
    static final int ATTACH_FAILED = 8;

    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final PrintStream out;
    private final PrintStream err;
    private final Path dir;

    Ctl(PrintStream out, PrintStream err, Path dir) {
        this.out = out;
        this.err = err;
        this.dir = dir;
    }

    /** A failure with its exit code and one line for stderr. */
    static final class Failure extends Exception {
        final int code;

        Failure(int code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    int who() throws IOException {
        for (MonitorEntry e : MonitorEntry.list(dir, true)) {
            out.println(e.pid() + "  " + e.mainClass() + "  "
                    + DATE.format(Instant.ofEpochMilli(e.startMillis()).atZone(ZoneId.systemDefault())));
        }
        return Main.OK;
    }

    int attach(long pid, String options, Path agentJar) throws Failure, IOException {
        if (agentJar == null || !Files.isRegularFile(agentJar) || !agentJar.toString().endsWith(".jar")) {
            throw new Failure(ATTACH_FAILED, "the dyper-runtime jar was not found (" + agentJar
                    + "): build with mvn package first");
        }
        String args = "dir=" + dir.toAbsolutePath() + (options == null || options.isBlank() ? "" : "," + options);
        try {
            com.sun.tools.attach.VirtualMachine vm = com.sun.tools.attach.VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgent(agentJar.toAbsolutePath().toString(), args);
            } finally {
                vm.detach();
            }
        } catch (com.sun.tools.attach.AttachNotSupportedException e) {
            throw new Failure(ATTACH_FAILED, "cannot attach to process " + pid + ": " + e.getMessage());
        } catch (com.sun.tools.attach.AgentLoadException | com.sun.tools.attach.AgentInitializationException e) {
            throw new Failure(ATTACH_FAILED, "process " + pid + " did not start the monitor: " + e.getMessage());
        } catch (IOException e) {
            throw new Failure(ATTACH_FAILED, "cannot attach to process " + pid + ": " + e.getMessage());
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
            throw new Failure(ATTACH_FAILED, "process " + pid + " loaded the agent but wrote no entry in " + dir
                    + " (see its stderr)");
        }
        MonitorEntry e = MonitorEntry.read(file);
        out.println("dyper: monitor running in process " + pid + " (port " + e.port() + ")");
        return Main.OK;
    }

    int command(long pid, String command, String data, boolean xml) throws Failure, IOException {
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(dir, pid);
        } catch (IOException e) {
            throw new Failure(NO_PROCESS, e.getMessage());
        }
        String reply;
        try (MonitorClient c = MonitorClient.connect(entry, false)) {
            c.timeout(120_000);
            reply = c.command(command.toUpperCase(Locale.ROOT), data);
        } catch (java.net.ConnectException e) {
            throw new Failure(NO_PROCESS, "process " + pid + " does not answer on port " + entry.port());
        }
        Element root;
        try {
            root = parse(reply);
        } catch (Exception e) {
            throw new IOException("unreadable reply from process " + pid + ": " + e.getMessage());
        }
        Element error = child(root, "ERROR");
        if (error != null) {
            if (xml) {
                out.println(reply);
            }
            throw new Failure(COMMAND_FAILED, "process " + pid + ": " + error.getTextContent());
        }
        if (xml) {
            out.println(reply);
            return Main.OK;
        }
        out.print(readable(command.toUpperCase(Locale.ROOT), root));
        return Main.OK;
    }

    /** The monitor's own hardened parser (no DTDs, no entities), so both ends of the protocol read XML alike. */
    static Element parse(String xml) throws org.dyper.runtime.monitor.internal.Xml.BadXml {
        return org.dyper.runtime.monitor.internal.Xml.parse(xml);
    }

    static Element child(Element e, String tag) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(tag)) {
                return c;
            }
        }
        return null;
    }

    private static List<Element> all(Element e, String tag) {
        NodeList list = e.getElementsByTagName(tag);
        List<Element> r = new ArrayList<>();
        for (int i = 0; i < list.getLength(); i++) {
            r.add((Element) list.item(i));
        }
        return r;
    }

    static List<Element> children(Element e, String tag) {
        List<Element> r = new ArrayList<>();
        if (e == null) {
            return r;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && (tag == null || c.getTagName().equals(tag))) {
                r.add(c);
            }
        }
        return r;
    }

    /** The reply for people: tables for reports, jstack-like text for stacks, name = value for settings. */
    static String readable(String command, Element root) {
        StringBuilder s = new StringBuilder();
        Element report = child(root, "MONITOR_REPORT");
        Element threads = child(root, "THREADS");
        Element settings = child(root, "SETTINGS");
        List<Element> vars = settings != null ? children(settings, "VAR") : children(root, "VAR");
        if (report != null) {
            report(s, report);
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
                s.append(serialize(e)).append('\n');
            }
        }
        return s.toString();
    }

    static String serialize(Element e) {
        try {
            var t = javax.xml.transform.TransformerFactory.newDefaultInstance().newTransformer();
            t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
            var w = new java.io.StringWriter();
            t.transform(new javax.xml.transform.dom.DOMSource(e), new javax.xml.transform.stream.StreamResult(w));
            return w.toString();
        } catch (Exception ex) {
            return e.getTextContent();
        }
    }

    private static void stacks(StringBuilder s, Element threads) {
        for (Element t : children(threads, "THREAD")) {
            s.append('"').append(t.getAttribute("NAME")).append("\" #").append(t.getAttribute("ID")).append(' ')
                    .append(t.getAttribute("STATE"));
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

    private static String ms(String ns) {
        return String.format(Locale.ROOT, "%.0f", Long.parseLong(ns) / 1e6);
    }

    private static void report(StringBuilder s, Element r) {
        s.append("Monitor report: pid ").append(r.getAttribute("PID")).append(", ").append(r.getAttribute("MAIN"))
                .append(", monitoring ").append(Boolean.parseBoolean(r.getAttribute("MONITOR")) ? "on" : "off")
                .append(", every ").append(r.getAttribute("CHECKTIME")).append(" ms\n");
        Element cpu = child(r, "CPU");
        if (cpu != null) {
            s.append("\nCPU (estimates from ").append(cpu.getAttribute("SAMPLES"))
                    .append(" samples of running threads; I/O samples ").append(cpu.getAttribute("IO_SAMPLES"))
                    .append(")\n");
            Table t = new Table("method", "self", "self ms", "total", "total ms", "io", "hot");
            int n = 0;
            for (Element m : children(child(cpu, "METHODS"), "METHOD")) {
                if (n++ == 20) {
                    break;
                }
                t.row(m.getAttribute("CLASS") + "." + m.getAttribute("NAME"), m.getAttribute("SELF"),
                        ms(m.getAttribute("SELF_NS")), m.getAttribute("TOTAL"), ms(m.getAttribute("TOTAL_NS")),
                        m.getAttribute("IO"), "true".equals(m.getAttribute("DETAIL")) ? "*" : "");
            }
            t.appendTo(s);
            s.append('\n');
            Table th = new Table("thread", "samples", "running", "cpu ms (exact)");
            for (Element th1 : children(child(cpu, "THREADS"), "THREAD")) {
                String cpuNs = th1.getAttribute("CPU_NS");
                th.row(th1.getAttribute("NAME"), th1.getAttribute("SAMPLES"), th1.getAttribute("RUNNABLE"),
                        cpuNs.startsWith("-") ? "-" : ms(cpuNs));
            }
            th.appendTo(s);
        }
        Element contention = child(r, "CONTENTION");
        if (contention != null) {
            List<Element> monitors = children(child(contention, "MONITORS"), "MONITOR");
            if (!monitors.isEmpty()) {
                s.append("\nContended monitors (threads sampled BLOCKED; estimates)\n");
                Table t = new Table("monitor", "blocked samples", "blocked ms", "threads");
                for (Element m : monitors) {
                    t.row(m.getAttribute("NAME"), m.getAttribute("BLOCKED_SAMPLES"), ms(m.getAttribute("BLOCKED_NS")),
                            Integer.toString(children(m, "BLOCKED").size()));
                }
                t.appendTo(s);
            }
            s.append("\nThreads (blocked/waited counts exact, from the JVM)\n");
            Table t = new Table("thread", "blocked", "blocked ms", "waited", "waited ms");
            for (Element th : children(child(contention, "THREADS"), "THREAD")) {
                t.row(th.getAttribute("NAME"), th.getAttribute("BLOCKED_COUNT"), th.getAttribute("BLOCKED_MS"),
                        th.getAttribute("WAITED_COUNT"), th.getAttribute("WAITED_MS"));
            }
            t.appendTo(s);
            Element deadlocks = child(contention, "DEADLOCKS");
            if (deadlocks != null && !deadlocks.getAttribute("COUNT").equals("0")) {
                s.append("\nDeadlocks: ").append(deadlocks.getAttribute("COUNT")).append('\n');
                for (Element d : children(deadlocks, "DEADLOCK")) {
                    for (Element th : children(d, "THREAD")) {
                        s.append("  \"").append(th.getAttribute("NAME")).append("\" waits for ")
                                .append(th.getAttribute("WAITS_FOR")).append(" held by \"")
                                .append(th.getAttribute("HELD_BY")).append("\"\n");
                    }
                }
            }
        }
        Element detail = child(r, "DETAIL");
        if (detail != null && !children(detail, null).isEmpty()) {
            s.append("\nHot (worth detailing):");
            for (Element e : children(detail, null)) {
                s.append(' ').append(e.hasAttribute("CLASS") ? e.getAttribute("CLASS") + "." + e.getAttribute("NAME")
                        : e.getAttribute("NAME"));
            }
            s.append('\n');
        }
        Element instr = child(r, "INSTRUMENTATION");
        if (instr != null && "true".equals(instr.getAttribute("ACTIVE"))) {
            Element dr = child(instr, "DYPER_REPORT");
            if (dr != null) {
                s.append("\nInstrumentation (exact)\n");
                Table t = new Table("section", "site", "count");
                for (Element sec : children(dr, null)) {
                    for (Element site : children(sec, "SITE")) {
                        t.row(sec.getTagName(), site.getAttribute("NAME"), site.getAttribute("COUNT"));
                    }
                }
                t.appendTo(s);
            }
        }
    }

    /** A text table: first column left-aligned, the others right-aligned. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();

        Table(String... header) {
            rows.add(header);
        }

        void row(String... cells) {
            rows.add(cells);
        }

        void appendTo(StringBuilder out) {
            int[] width = new int[rows.get(0).length];
            for (String[] r : rows) {
                for (int c = 0; c < r.length; c++) {
                    width[c] = Math.max(width[c], r[c].length());
                }
            }
            for (String[] r : rows) {
                StringBuilder line = new StringBuilder("  ");
                for (int c = 0; c < r.length; c++) {
                    String pad = " ".repeat(width[c] - r[c].length());
                    line.append(c == 0 ? r[c] + pad : pad + r[c]).append(c < r.length - 1 ? "  " : "");
                }
                out.append(line.toString().stripTrailing()).append('\n');
            }
        }
    }
}
