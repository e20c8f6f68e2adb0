package org.dyper.cli.report;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.cli.fleet.Carrier;
import org.dyper.cli.fleet.Fleet;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.report.BadReportException;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * {@code dyper report --pid}: the REPORT of a running process's monitor, with what WHORU says of its start; and
 * {@code --all}: the REPORTs of many JVMs merged into one ({@link FleetReport}).
 */
final class Live {
    private Live() {
    }

    /**
     * The merged report of a fleet: its XML, as read for the page; how many JVMs answered, and one line for each
     * that did not ({@code missing}, naming it).
     */
    record Merged(String xml, Report report, int answered, List<String> missing) {
        int exitCode() {
            return missing.isEmpty() ? ExitCode.OK : ExitCode.NO_PROCESS;
        }
    }

    static Merged fleet(ReportCommand.AllJvms all) throws CommandFailure, IOException, BadReportException {
        try (Fleet fleet = open(all.carrier())) {
            List<Fleet.Member> members = Carrier.select(fleet.who(all.carrier().whoDeadline()), all.main());
            if (members.isEmpty()) {
                throw new CommandFailure(ExitCode.NO_PROCESS, "no monitored JVM" + (all.main() == null ? ""
                        : " of main class " + all.main()) + " on " + fleet.describe());
            }
            // each reply is folded in as it comes and dropped: a thousand REPORTs are never held at once
            FleetReport.Merger merger = new FleetReport.Merger(fleet, members);
            String[] why = new String[members.size()];
            fleet.send(members, "<DYPER COMMAND='REPORT'><REPORT TYPE='ALL'/></DYPER>", false, all.deadline(),
                    (i, a) -> why[i] = merger.add(i, a));
            long now = System.currentTimeMillis();
            String xml = merger.xml(now);
            Report report = HtmlReport.read("fleet of " + Carrier.jvms(members.size()) + " on " + fleet.describe()
                    + " (REPORT at " + LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT))
                    + ")", xml);
            List<String> missing = new ArrayList<>();
            int answered = 0;
            java.util.Set<String> jdks = new java.util.LinkedHashSet<>();
            java.util.Set<String> mains = new java.util.LinkedHashSet<>();
            long start = Long.MAX_VALUE;
            for (int i = 0; i < members.size(); i++) {
                Fleet.Member m = members.get(i);
                if (why[i] != null) {
                    missing.add(why[i]);
                } else {
                    answered++;
                }
                if (!m.jdk().isEmpty()) {
                    jdks.add(m.jdk());
                }
                mains.add(m.mainClass());
                start = Math.min(start, m.startMillis());
            }
            if (answered == 0) {
                throw new CommandFailure(ExitCode.NO_PROCESS, "no JVM answered REPORT: " + String.join("; ", missing));
            }
            report.process(new Report.Process(start, List.of(), jdks.isEmpty() ? null : String.join(", ", jdks),
                    String.join(", ", mains)));
            return new Merged(xml, report, answered, missing);
        }
    }

    private static Fleet open(Carrier carrier) throws CommandFailure {
        try {
            return carrier.open();
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
    }

    static Report report(long pid, String dir, int heap) throws CommandFailure, IOException, BadReportException {
        Path registry = dir != null ? Path.of(dir) : MonitorEntry.defaultDirectory();
        MonitorEntry entry;
        try {
            entry = MonitorEntry.of(registry, pid);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, e.getMessage());
        }
        String reply;
        String whoru;
        try (WireClient c = entry.connect(false)) {
            c.timeout(120_000);
            reply = c.command("REPORT", "<REPORT TYPE='ALL'/>");
            whoru = c.command("WHORU", null);
        } catch (ConnectException e) {
            throw new CommandFailure(ExitCode.NO_PROCESS, "process " + pid + " does not answer on "
                    + entry.endpoint());
        }
        if (heap > 0) {
            // the heap section goes into the monitor's report, where the page looks for it
            String section = org.dyper.cli.heap.LiveHeap.take(registry, pid, heap).report().xml();
            int end = reply.lastIndexOf("</MONITOR_REPORT>");
            if (end < 0) {
                throw new IOException("process " + pid + " sent a REPORT without </MONITOR_REPORT>");
            }
            reply = reply.substring(0, end) + section + reply.substring(end);
        }
        String label = "process " + pid + " (REPORT at "
                + LocalTime.now().format(DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)) + ")";
        Report report;
        try {
            report = HtmlReport.read(label, reply);
        } catch (BadReportException e) {
            String first = e.problems().get(0);
            int at = first.indexOf("the monitor answered with an error: ");
            if (at >= 0) {
                throw new CommandFailure(ExitCode.COMMAND_FAILED, "process " + pid + ": "
                        + first.substring(at + "the monitor answered with an error: ".length()));
            }
            throw e;
        }
        return report.process(process(whoru));
    }

    /** Start time, {@code -javaagent} arguments and Java version from a WHORU reply; null when it says nothing. */
    static Report.Process process(String whoru) {
        Element root;
        try {
            root = org.dyper.runtime.monitor.MonitorReply.parse(whoru);
        } catch (org.dyper.runtime.monitor.MonitorReply.MalformedException e) {
            return null;
        }
        List<String> javaArgs = new ArrayList<>();
        long start = -1;
        String java = null;
        String main = null;
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                switch (e.getTagName()) {
                    case "JAVAARG" -> javaArgs.add(e.getTextContent());
                    case "TIME" -> start = parseLong(e.getAttribute("START"));
                    case "START" -> main = e.getTextContent();
                    case "PROPERTY" -> {
                        if (e.getAttribute("KEY").equals("java.version")) {
                            java = e.getTextContent();
                        }
                    }
                    default -> { }
                }
            }
        }
        if (root.getElementsByTagName("ERROR").getLength() > 0) {
            return null;
        }
        return new Report.Process(start, HtmlReport.agents(javaArgs), java, main);
    }

    private static long parseLong(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
