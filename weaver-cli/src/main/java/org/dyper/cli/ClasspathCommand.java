package org.dyper.cli;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.Options;
import org.dyper.patch.build.Weaver;

/** {@code dyper classpath}: the class path woven code needs at run time. */
final class ClasspathCommand implements CliCommand.WithoutOptions {
    @Override
    public Help help() {
        return new Help("classpath", "print the class path woven code needs at run time (Dyper runtime and AspectJ "
                + "runtime)", "dyper classpath", InputOptions.help(new Options()),
                "Use it as: java -cp woven.jar:$(dyper classpath) Main", false);
    }

    @Override
    public int run(NoOptions options, Context context) {
        List<String> entries = new ArrayList<>();
        Weaver.runtimeClasspath().forEach(p -> entries.add(p.toString()));
        context.out().println(String.join(File.pathSeparator, entries));
        return ExitCode.OK;
    }
}
