package org.dyper.patch.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.patch.build.Replacements;

/** The {@code java} command of a monitored launch, from its {@link LaunchOptions} and its prepared aspect folder. */
public final class LaunchCommand {
    private LaunchCommand() {}

    /**
     * The -javaagent argument that starts the DYPER monitor from {@code runtimeJar}, with its agent {@code options}
     * when not blank, after {@code launcher=<this JVM's pid>}: the monitor ends the program if this JVM is killed with
     * SIGKILL (every other signal it passes on, see {@link ProgramProcess}).
     */
    public static String monitorAgent(Path runtimeJar, String options) {
        return "-javaagent:" + runtimeJar + "=launcher=" + ProcessHandle.current().pid()
                + (options == null || options.isBlank() ? "" : "," + options);
    }

    /**
     * The full command: {@code java [-javaagent:<replace agent>=replace=<dir>] [-javaagent:<weaver>] [<monitor agent>]
     * [--sun-misc-unsafe-memory-access=allow] -Ddyper... <javaArgs with the aspects and runtime added to the class
     * path>}. A folder woven ahead ({@link LaunchWeaving#PREWOVEN}) runs with the replace agent only; a folder of
     * compiled aspects with the AspectJ weaver agent (after the replace agent when the bytecode pass left classes).
     */
    static List<String> of(LaunchOptions o, Path aspects) throws IOException {
        JavaArgs args = JavaArgs.parse(o.javaArgs());
        List<String> cmd = new ArrayList<>();
        cmd.add(o.java().toString());
        Path replace = aspects.resolve(Replacements.DIR);
        if (Replacements.isReplacementFolder(replace)) {
            // woven ahead: the woven classes replace the originals; else the bytecode pass's classes replace them
            // before the AspectJ transformer sees them
            cmd.add(Replacements.agentArgument(replace));
        }
        boolean ahead = Files.isRegularFile(aspects.resolve(LaunchWeaving.PREWOVEN));
        if (!ahead) {
            cmd.add("-javaagent:" + o.weaverAgent());
        }
        String monitorAgent = o.monitorAgent();
        if (monitorAgent != null) {
            cmd.add(monitorAgent);
        }
        if (!ahead && TargetJdk.featureVersion(o.java()).orElse(17) >= 24) {
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (o.report().text() != null) {
            cmd.add("-Ddyper.report=" + o.report().text());
        }
        if (o.report().xml() != null) {
            cmd.add("-Ddyper.report.xml=" + o.report().xml());
        }
        if (o.verbose() && !ahead) {
            cmd.add("-Daj.weaving.verbose=true");
            cmd.add("-Dorg.aspectj.weaver.showWeaveInfo=true");
        }
        List<String> cp = new ArrayList<>();
        cp.add(aspects.toString());
        o.runtime().forEach(p -> cp.add(p.toString()));
        cmd.addAll(args.withClasspathAppended(cp));
        return cmd;
    }
}
