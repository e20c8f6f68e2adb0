package org.dyper.cli;

import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.runtime.monitor.MonitorEntry;

/**
 * {@code dyper ctl}: its help and options; {@link Ctl} does the work (and hands the run-time patching subcommands to
 * {@link CtlPatching}).
 */
final class CtlCommand implements CliCommand {
    private final Context context;

    CtlCommand(Context context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "ctl";
    }

    @Override
    public String purpose() {
        return "list monitored processes, send them DYPER commands, attach the monitor to a running JVM";
    }

    @Override
    public String usage() {
        return "dyper ctl [--dir DIR] who | dyper ctl [--xml | --wide | --width N] [--dir DIR] PID COMMAND [DATA] | "
                + "dyper ctl [--dir DIR] [--options OPTS] attach PID | "
                + "dyper ctl PID instrument --model FILE [--modes FILE] | dyper ctl PID uninstrument [NAME] | "
                + "dyper ctl [--xml] PID instrumented";
    }

    @Override
    public String details() {
        return "who: one line per monitored process: pid, main class, start time (entries of dead processes are\n"
                + "removed). PID COMMAND [DATA]: any command of the DYPER language (PING, WHORU, REPORT,\n"
                + "SHOWSTACK, SET \"<VAR NAME='CHECKTIME' VALUE='7'/>\", GET, CLEAR, ...); DATA is the command's XML.\n"
                + "attach PID: load the monitor into a running JVM (same user) with the JDK attach API.\n"
                + CtlPatching.HELP
                + ExitCode.SUMMARY.stripTrailing();
    }

    @Override
    public Options options() {
        return CtlPatching.addOptions(new Options())
                .addOption(Option.builder().longOpt("xml").desc("print the raw XML reply").build())
                .addOption(Option.builder().longOpt("wide").desc("print whole names (rows may be wide)")
                        .build())
                .addOption(Option.builder().longOpt("width").hasArg().argName("N")
                        .desc("columns the text rows fit by shortening names (default 120)").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                .addOption(Option.builder().longOpt("options").hasArg().argName("OPTS")
                        .desc("attach: monitor agent options, e.g. CHECKTIME=5").build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    @Override
    public boolean takesArguments() {
        return true;
    }

    @Override
    public int run(CommandLine line, List<String> javaArgs) {
        Path dir = line.hasOption("dir") ? Path.of(line.getOptionValue("dir")) : MonitorEntry.defaultDirectory();
        return new Ctl(context.out(), context.err(), dir).run(line, context.cache());
    }
}
