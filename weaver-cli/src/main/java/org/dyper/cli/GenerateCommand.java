package org.dyper.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.dyper.patch.aspectj.GeneratedCode;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.dyper.patch.model.InvalidInputException;

/** {@code dyper generate}: models and modes into AspectJ source, aop.xml and the site table (and compiled aspects). */
final class GenerateCommand implements CliCommand<GenerateCommand.Parsed> {
    /** The options, parsed once: what to generate for, where to write the sources, where to compile them (or null). */
    record Parsed(Weaver.Inputs inputs, Path out, Path classes) {
        static Parsed of(CommandLine line) throws UsageError, IOException {
            Path out = Path.of(InputOptions.required(line, "out", "DIR"));
            List<Path> targets = new ArrayList<>();
            for (String v : InputOptions.values(line, "in")) {
                targets.add(Path.of(v));
            }
            return new Parsed(InputOptions.inputs(line, targets), out,
                    line.hasOption("classes") ? Path.of(line.getOptionValue("classes")) : null);
        }
    }

    @Override
    public Help help() {
        return new Help("generate", "turn models and modes into AspectJ source, aop.xml and the site table",
                "dyper generate --model FILE [--modes FILE] --in JAR|DIR [--classpath PATH] --out DIR [--classes DIR]",
                InputOptions.options(true)
                        .addOption(Option.builder().longOpt("out").hasArg().argName("DIR")
                                .desc("folder for the .aj sources, aop.xml and sites.tsv (required)").build())
                        .addOption(Option.builder().longOpt("classes").hasArg().argName("DIR")
                                .desc("also compile the aspects with ajc into DIR, with META-INF/aop.xml, ready for "
                                        + "load-time weaving").build()),
                "The classes given with --in are read to resolve every FOR to concrete methods; each patched method\n"
                        + "and called method gets an integer id, listed in sites.tsv.", false);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError, IOException {
        return Parsed.of(line);
    }

    @Override
    public int run(Parsed p, Context context) throws InvalidInputException, WeaveException, IOException {
        GeneratedCode code = Weaver.generate(p.inputs());
        Notes.warnings(context.err(), code);
        List<Path> written = Weaver.writeSources(code, p.out());
        context.out().println("dyper: generated " + code.adviceCount() + " advice for " + code.siteCount()
                + " site id(s) in " + code.wovenClasses().size() + " class(es): " + (written.size() - 1)
                + " aspect source(s), the site-table class, aop.xml and sites.tsv in " + p.out());
        if (p.classes() != null) {
            List<Path> cp = new ArrayList<>(p.inputs().targets());
            cp.addAll(p.inputs().classpath());
            Notes.print(context.err(), Weaver.compileAspects(code, p.classes(), cp));
            context.out().println("dyper: compiled the aspects into " + p.classes() + " (with META-INF/aop.xml)");
        }
        return ExitCode.OK;
    }
}
