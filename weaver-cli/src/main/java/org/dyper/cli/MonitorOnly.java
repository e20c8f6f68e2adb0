package org.dyper.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.dyper.cli.report.ReportCommand;
import org.dyper.patch.launch.LaunchCommand;
import org.dyper.patch.build.Weaver;

/**
 * {@code dyper run} without {@code --model}: the program runs under the DYPER monitor alone, nothing patched, the first
 * look at where its time goes before a model is written.
 */
final class MonitorOnly {
    /** Options that mean something only with a model, and why. */
    private static final List<String[]> NEED_A_MODEL = List.of(
            new String[] {"modes", "modes are used by a model"},
            new String[] {"include", "it limits what a model patches"},
            new String[] {"exclude", "it limits what a model patches"},
            new String[] {"patch", "it limits what a model patches"},
            new String[] {"weaver-agent", "it weaves what a model patches"},
            new String[] {"classpath", "it is what a model's modes compile against"},
            new String[] {"report", "the text report at exit shows what patches measured; dyper ctl PID REPORT, "
                    + "--xml FILE or --html FILE give the monitor's report"});

    private MonitorOnly() {
    }

    /** Refuses, naming it, an option that needs a model (IllegalArgumentException); part of reading the options. */
    static void check(CommandLine line) {
        for (String[] o : NEED_A_MODEL) {
            // --report none asks for nothing, which is what a run without a model gives anyway
            boolean reportAllowed = line.hasOption("detail") || "none".equals(line.getOptionValue("report"));
            if (line.hasOption(o[0]) && !(o[0].equals("report") && reportAllowed)) {
                throw new IllegalArgumentException("--" + o[0] + " needs --model FILE (" + o[1] + ")");
            }
        }
        if (line.hasOption("no-monitor")) {
            throw new IllegalArgumentException("give --model FILE, or leave out --no-monitor: with neither, nothing "
                    + "would be measured");
        }
    }

    /**
     * The {@code java} command: the monitor agent with {@code monitorOptions}, the text report ({@code report}, with
     * --detail), the XML and HTML reports at exit (each null when not asked for), then the program's arguments.
     */
    static List<String> command(Path java, String monitorOptions, String report, String xml, String html,
            List<String> javaArgs) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add(LaunchCommand.monitorAgent(Weaver.runtimeClasspath().get(0), monitorOptions));
        if (report != null) {
            // with --detail: the detailed methods' exact figures (Timing) in the text report at exit
            command.add("-Ddyper.report=" + report);
        }
        if (xml != null) {
            // the monitor's final report is the exit XML report's last child, woven or not
            command.add("-Ddyper.report.xml=" + Path.of(xml).toAbsolutePath());
        }
        command.addAll(javaArgs);
        return ReportCommand.withHtml(command, html);
    }

    /** The line that says what runs, once the program's pid is known. */
    static String started(long pid) {
        return "dyper: no model, nothing patched: the program (process " + pid + ") runs under the DYPER monitor "
                + "alone; dyper ctl " + pid + " REPORT shows where its time goes";
    }
}
