package org.dyper.cli;

import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.dyper.patch.ModeCatalog;

/** {@code dyper modes}: the modes of Dyper's mode library. */
final class ModesCommand implements CliCommand {
    private final Context context;

    ModesCommand(Context context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "modes";
    }

    @Override
    public String purpose() {
        return "list the modes of Dyper's mode library";
    }

    @Override
    public String usage() {
        return "dyper modes";
    }

    @Override
    public Options options() {
        return InputOptions.help(new Options());
    }

    @Override
    public String details() {
        return "A PATCH names one of these in MODE without any --modes file.";
    }

    @Override
    public int run(CommandLine line, List<String> javaArgs) {
        context.out().println("Dyper's mode library (use these names in PATCH MODE='...'):");
        List<ModeCatalog.Entry> entries = ModeCatalog.library().libraryModes();
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (ModeCatalog.Entry e : entries) {
            context.out().printf("  %-" + width + "s  %s%n", e.name(), e.description());
        }
        return ExitCode.OK;
    }
}
