package org.dyper.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.Ajc;
import org.dyper.patch.build.Generation;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.InvalidInputException;

/** {@code dyper weave}: binary weaving of a jar or class folder into a new jar. */
final class WeaveCommand implements CliCommand<WeaveCommand.Parsed> {
    /** The options, parsed once and checked before the long work: the input, the jar to write, what to weave. */
    record Parsed(Path input, Path output, Weaver.Inputs inputs) {
        static Parsed of(CommandLine line) throws UsageError, IOException {
            Path input = Path.of(InputOptions.required(line, "in", "JAR|DIR"));
            Path output = Path.of(InputOptions.required(line, "out", "JAR"));
            if (Files.exists(input) && Files.exists(output) && Files.isSameFile(input, output)) {
                throw new UsageError("--out " + output + " is the input: write the woven jar elsewhere");
            }
            if (Files.isDirectory(output)) {
                throw new UsageError("--out " + output + " is a folder: give the path of the jar to write");
            }
            return new Parsed(input, output, InputOptions.inputs(line, List.of(input)));
        }
    }

    @Override
    public Help help() {
        return new Help("weave", "weave a jar or class folder with the generated aspects (binary weaving) into a new "
                + "jar", "dyper weave --model FILE [--modes FILE] --in JAR|DIR --out JAR [--classpath PATH]",
                InputOptions.options(false)
                        .addOption(Option.builder().longOpt("in").hasArg().argName("JAR|DIR")
                                .desc("the jar or class folder to weave (required)").build())
                        .addOption(Option.builder().longOpt("out").hasArg().argName("JAR")
                                .desc("the woven jar to write (required; may not be the input)").build()),
                "Run the result with: java -cp OUT.jar" + File.pathSeparator + "$(dyper classpath)"
                        + File.pathSeparator + "<other jars> <main class>", false);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
        return Parsed.of(line);
    }

    @Override
    public int run(Parsed p, Context context) throws InvalidInputException, WeaveException, IOException {
        Path parent = p.output().toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);  // before the long work, so a path that cannot be made fails first
        }
        long start = System.nanoTime();
        // ajc's start-up on another core while the model is read and the jar scanned
        Ajc.warmUp();
        context.err().println("dyper: generating aspects for " + p.input() + " ...");
        Generation generation = Generation.of(p.inputs(), false);
        GeneratedCode generated = generation.code();
        // classes no aspect advises (patched the plain way) are done by the bytecode pass alone
        java.util.Set<String> advised = new java.util.HashSet<>();
        generated.advised().values().forEach(advised::addAll);
        long throughAjc = generated.wovenClasses().stream().filter(advised::contains).count();
        context.err().println("dyper: weaving " + generated.wovenClasses().size() + " patched class(es) with "
                + generated.adviceCount() + " advice (" + throughAjc + " of the classes through ajc) ...");
        List<String> notes = generation.weave(code -> Weaver.weaveBinary(code, p.input(), p.output(),
                p.inputs().classpath(), progress -> context.err().println("dyper: " + progress)));
        GeneratedCode code = generation.code();
        Notes.warnings(context.err(), code);
        Notes.print(context.err(), notes);
        context.out().printf("dyper: wrote %s (%d class(es) patched, %d advice, %d site id(s)) in %.1f s%n",
                p.output(), code.wovenClasses().size(), code.adviceCount(), code.siteCount(),
                (System.nanoTime() - start) / 1e9);
        return ExitCode.OK;
    }
}
