package org.dyper.cli;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.dyper.patch.build.Weaver;

/** {@code dyper classpath}: the class path woven code needs at run time. */
final class ClasspathCommand implements CliCommand {
    private final Context context;

    ClasspathCommand(Context context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "classpath";
    }

    @Override
    public String purpose() {
        return "print the class path woven code needs at run time (Dyper runtime and AspectJ runtime)";
    }

    @Override
    public String usage() {
        return "dyper classpath";
    }

    @Override
    public Options options() {
        return InputOptions.help(new Options());
    }

    @Override
    public String details() {
        return "Use it as: java -cp woven.jar:$(dyper classpath) Main";
    }

    @Override
    public int run(CommandLine line, List<String> javaArgs) {
        List<String> entries = new ArrayList<>();
        Weaver.runtimeClasspath().forEach(p -> entries.add(p.toString()));
        context.out().println(String.join(File.pathSeparator, entries));
        return ExitCode.OK;
    }
}
