package org.dyper.cli;

import java.util.List;
import org.apache.commons.cli.Options;
import org.dyper.patch.ModeCatalog;

/** {@code dyper modes}: the modes of Dyper's mode library. */
final class ModesCommand implements CliCommand.WithoutOptions {
    @Override
    public Help help() {
        return new Help("modes", "list the modes of Dyper's mode library", "dyper modes",
                InputOptions.help(new Options()), "A PATCH names one of these in MODE without any --modes file.", false);
    }

    @Override
    public int run(NoOptions options, Context context) {
        context.out().println("Dyper's mode library (use these names in PATCH MODE='...'):");
        List<ModeCatalog.Entry> entries = ModeCatalog.library().libraryModes();
        int width = entries.stream().mapToInt(e -> e.name().length()).max().orElse(0);
        for (ModeCatalog.Entry e : entries) {
            context.out().printf("  %-" + width + "s  %s%n", e.name(), e.description());
        }
        return ExitCode.OK;
    }
}
