package org.dyper.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.patch.ModeCatalog;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.runtime.PatchService;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.wire.RegistryFiles;

/** {@code dyper patchd}: its help and options; {@link Patchd} is the service. */
final class PatchdCommand implements CliCommand<PatchdCommand.Parsed> {
    /**
     * The options, parsed once: the registry folder, the mode files, where patched class files go, and what is served:
     * a monitored process ({@code pid}; {@code badPid}: the text of a --pid that is not one) or a class path
     * ({@code classpath}, null when not given).
     */
    record Parsed(Path registry, List<Path> modes, Path directory, Long pid, String badPid, List<Path> classpath) {
        static Parsed of(CommandLine line, Path defaultCache) {
            Path registry = line.hasOption("dir") ? Path.of(line.getOptionValue("dir"))
                    : MonitorEntry.defaultDirectory();
            List<Path> modes = new ArrayList<>();
            InputOptions.values(line, "modes").forEach(m -> modes.add(Path.of(m)));
            Path directory = line.hasOption("directory") ? Path.of(line.getOptionValue("directory"))
                    : defaultCache.resolve("patch");
            Long pid = null;
            String badPid = null;
            if (line.hasOption("pid")) {
                try {
                    pid = Long.parseLong(line.getOptionValue("pid"));
                } catch (NumberFormatException e) {
                    badPid = line.getOptionValue("pid");
                }
            }
            List<Path> classpath = null;
            if (line.hasOption("classpath")) {
                classpath = new ArrayList<>();
                for (String e : line.getOptionValue("classpath").split(File.pathSeparator)) {
                    if (!e.isBlank()) {
                        classpath.add(Path.of(e).toAbsolutePath());
                    }
                }
            }
            return new Parsed(registry, modes, directory, pid, badPid, classpath);
        }
    }

    @Override
    public Help help() {
        return new Help("patchd", "the DYPATCH service: keeps patch models and makes patched class files for a "
                + "running program", "dyper patchd --pid PID [--modes FILE] [--dir DIR] [--directory DIR] | "
                + "dyper patchd --classpath PATH", new Options()
                .addOption(Option.builder().longOpt("pid").hasArg().argName("PID")
                        .desc("the monitored process to patch: its classes come through its monitor").build())
                .addOption(Option.builder().longOpt("classpath").hasArg().argName("PATH")
                        .desc("without --pid: the classes to patch (" + File.pathSeparator
                                + "-separated jars and folders)").build())
                .addOption(Option.builder().longOpt("modes").hasArg().argName("FILE")
                        .desc("a mode file; repeatable; library modes need none").build())
                .addOption(Option.builder().longOpt("dir").hasArg().argName("DIR")
                        .desc("registry folder (default: dyper.monitor.dir, else ~/.dyper/run)").build())
                .addOption(Option.builder().longOpt("directory").hasArg().argName("DIR")
                        .desc("where patched class files go (default: patch/ in the dyper cache); DIRECTORY "
                                + "changes it").build())
                .addOption(Option.builder("h").longOpt("help").desc("show this help").build()),
                "Listens on a socket file in the registry folder (a loopback port where none can be made);\n"
                        + "the registry entry <dir>/<pid>.patchd names it and holds the token.\n"
                        + "Commands (docs/runtime-patching.md): PING, MODEL, PATCH, DIRECTORY. With --pid it serves a "
                        + "monitored\nprocess (its classes through its monitor) and stops when it ends.", false);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) {
        return Parsed.of(line, context.cache());
    }

    @Override
    public int run(Parsed p, Context context) throws InvalidInputException, IOException {
        ModeCatalog catalog = ModeCatalog.load(p.modes());
        RegistryFiles.createPrivateDirectories(p.directory());
        if (p.badPid() != null) {
            context.err().println("dyper: error: patchd: --pid " + p.badPid() + " is not a process id");
            return ExitCode.USAGE;
        }
        if (p.pid() != null) {
            MonitorEntry monitor;
            try {
                monitor = MonitorEntry.of(p.registry(), p.pid());
            } catch (IOException e) {
                context.err().println("dyper: error: " + e.getMessage());
                return ExitCode.NO_PROCESS;
            }
            return Patchd.run(new PatchService(catalog, new PatchService.TargetClasses(List.of()), p.directory()),
                    p.pid(), monitor, p.registry(), context.err());
        }
        if (p.classpath() == null) {
            context.err().println("dyper: error: patchd: give --pid PID (a monitored process) or --classpath PATH");
            return ExitCode.USAGE;
        }
        return Patchd.run(new PatchService(catalog, new PatchService.TargetClasses(p.classpath()), p.directory()),
                ProcessHandle.current().pid(), null, p.registry(), context.err());
    }
}
