package org.dyper.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.patch.build.Weaver;

/** Turns the options generate, weave and run share (models, modes, classes to patch, patterns) into Weaver inputs. */
final class InputOptions {
    /** The options generate, weave and run share, with {@code --help}; {@code withIn}: with {@code --in}. */
    static Options options(boolean withIn) {
        Options o = new Options();
        o.addOption(Option.builder().longOpt("model").hasArg().argName("FILE")
                .desc("a patch model (<MODEL>); repeatable; required").build());
        o.addOption(Option.builder().longOpt("modes").hasArg().argName("FILE")
                .desc("a mode file (<DYPATCH> or <DYPATCH_MODE>); repeatable; library modes need none").build());
        if (withIn) {
            o.addOption(Option.builder().longOpt("in").hasArg().argName("JAR|DIR")
                    .desc("classes the model patches; repeatable; required").build());
        }
        o.addOption(Option.builder().longOpt("include").hasArg().argName("PATTERN")
                .desc("only classes matching PATTERN may be patched (* matches any characters); repeatable").build());
        o.addOption(Option.builder().longOpt("exclude").hasArg().argName("PATTERN")
                .desc("classes matching PATTERN are never patched; repeatable").build());
        o.addOption(Option.builder().longOpt("classpath").hasArg().argName("PATH")
                .desc("what the modes' code and the target need to compile against (" + File.pathSeparator
                        + "-separated)").build());
        return help(o);
    }

    /** {@code o} with {@code -h, --help}. */
    static Options help(Options o) {
        return o.addOption(Option.builder("h").longOpt("help").desc("show this help").build());
    }

    private InputOptions() {}

    static Weaver.Inputs inputs(CommandLine line, List<Path> targets) throws UsageError {
        return inputs(line, targets, "no classes to patch (--in JAR|DIR)");
    }

    static Weaver.Inputs inputs(CommandLine line, List<Path> targets, String noTargets) throws UsageError {
        List<Path> models = files(line, "model");
        if (models.isEmpty()) {
            throw new UsageError("--model FILE is required");
        }
        List<Path> modes = files(line, "modes");
        if (targets.isEmpty()) {
            throw new UsageError(noTargets);
        }
        for (Path t : targets) {
            if (!Files.exists(t)) {
                throw new UsageError("--in " + t + ": no such jar or folder");
            }
        }
        return new Weaver.Inputs(models, modes, targets, pathList(line.getOptionValue("classpath")))
                .withPatterns(values(line, "include"), values(line, "exclude"));
    }

    static List<Path> files(CommandLine line, String option) throws UsageError {
        List<Path> files = new ArrayList<>();
        String[] values = line.getOptionValues(option);
        if (values != null) {
            for (String v : values) {
                Path p = Path.of(v);
                if (!Files.isRegularFile(p)) {
                    throw new UsageError("--" + option + " " + v + ": no such file");
                }
                files.add(p);
            }
        }
        return files;
    }

    static List<String> values(CommandLine line, String option) {
        String[] values = line.getOptionValues(option);
        return values == null ? List.of() : List.of(values);
    }

    static List<Path> pathList(String value) {
        List<Path> paths = new ArrayList<>();
        if (value != null) {
            for (String e : value.split(File.pathSeparator)) {
                if (!e.isBlank()) {
                    paths.add(Path.of(e));
                }
            }
        }
        return paths;
    }

    static String required(CommandLine line, String option, String what) throws UsageError {
        String v = line.getOptionValue(option);
        if (v == null) {
            throw new UsageError("--" + option + " " + what + " is required");
        }
        return v;
    }

    /**
     * The class-path entries named by {@code --patch} (in class-path order); the other entries go to {@code others}.
     * An entry that is not on the program's class path is a usage error naming it.
     */
    static List<Path> patchOnly(List<Path> classpath, List<String> patch, List<Path> others)
            throws UsageError {
        List<Path> chosen = new ArrayList<>();
        List<Path> wanted = new ArrayList<>();
        for (String p : patch) {
            Path w = Path.of(p).toAbsolutePath().normalize();
            if (classpath.stream().noneMatch(e -> e.toAbsolutePath().normalize().equals(w))) {
                throw new UsageError("--patch " + p + " is not on the program's class path (-cp or -jar): "
                        + "give one of its entries");
            }
            wanted.add(w);
        }
        for (Path e : classpath) {
            (wanted.contains(e.toAbsolutePath().normalize()) ? chosen : others).add(e);
        }
        return chosen;
    }
}
