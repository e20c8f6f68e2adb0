package org.dyper.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.cli.App;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code dyper --help}, each command's help, the version, and usage errors (exit 2, one line). */
class HelpAndUsageTest extends CliFixture {
    // ---- help and version ----

    private static final String OVERVIEW = """
            dyper 0.1.0: instrument Java programs from DYPATCH XML models, woven with AspectJ.

            Usage: dyper <command> [options]   (dyper <command> --help for details)

              generate   turn models and modes into AspectJ source, aop.xml and the site table
              weave      weave a jar or class folder with the generated aspects (binary weaving) into a new jar
              run        run a Java program with its patched classes woven at launch; print the report when it ends
              ask        explain the instrumentation that answers a question (dyper run --ask runs it)
              ctl        list monitored processes, send them DYPER commands, attach the monitor to a running JVM
              patchd     the DYPATCH service: keeps patch models and makes patched class files for a running program
              report     turn XML reports into a self-contained HTML page with flame graphs and tables
              ui         a live web page: JVMs, flame graphs, click a frame to measure it exactly
              whatif     causal profiling of a running JVM: what if this method were faster?
              classpath  print the class path woven code needs at run time (Dyper runtime and AspectJ runtime)
              modes      list the modes of Dyper's mode library
              events     print Dyper's events (dyper.*) of a JFR recording
              export     serve or push a running program's exact figures (Prometheus, OpenTelemetry)

            Exit codes: 0 ok, 2 usage, 3 invalid model, mode or report file, 4 weaving failed, 5 file error,
            6 the monitor answered ERROR, 7 no such monitored process, 8 attach failed,
            70 internal error; dyper run returns the program's own exit code once it started.
            """;

    @ParameterizedTest(name = "dyper {0} -> {1}")
    @MethodSource("overviews")
    void overviewListsEveryCommand(String args, int code) {
        assertEquals(new Result(code, OVERVIEW, ""), dyper(split(args)));
    }

    static Stream<Arguments> overviews() {
        return Stream.of(Arguments.of("", ExitCode.USAGE), Arguments.of("--help", ExitCode.OK), Arguments.of("-h", ExitCode.OK),
                Arguments.of("help", ExitCode.OK));
    }

    @Test
    void weaveHelpShowsItsUsageAndEveryOption() {
        String weave = """
                weave a jar or class folder with the generated aspects (binary weaving) into a new jar

                Usage: dyper weave --model FILE [--modes FILE] --in JAR|DIR --out JAR [--classpath PATH]

                     --classpath <PATH>   what the modes' code and the target need to compile against (:-separated)
                     --exclude <PATTERN>  classes matching PATTERN are never patched; repeatable
                  -h,--help               show this help
                     --in <JAR|DIR>       the jar or class folder to weave (required)
                     --include <PATTERN>  only classes matching PATTERN may be patched (* matches any characters);
                                          repeatable
                     --model <FILE>       a patch model (<MODEL>); repeatable; required
                     --modes <FILE>       a mode file (<DYPATCH> or <DYPATCH_MODE>); repeatable; library modes need
                                          none
                     --out <JAR>          the woven jar to write (required; may not be the input)

                Run the result with: java -cp OUT.jar:$(dyper classpath):<other jars> <main class>
                """.replace(":", SEP);
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("help", "weave"));
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("weave", "--help"));
        // --help wins over missing or wrong options
        assertEquals(new Result(ExitCode.OK, weave, ""), dyper("weave", "--in", "nowhere", "-h"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"generate", "weave", "run", "classpath", "modes"})
    void everyCommandHasHelp(String command) {
        Result help = dyper("help", command);
        assertEquals(ExitCode.OK, help.code());
        assertTrue(help.out().contains("\nUsage: dyper " + command), help.out());
        assertEquals(help, dyper(command, "--help"));
    }

    @Test
    void version() {
        assertEquals(new Result(ExitCode.OK, "dyper 0.1.0\n", ""), dyper("--version"));
    }

    // ---- usage errors: exit 2, one line ----

    static Stream<Arguments> usageErrors() {
        String commands = "(commands: generate, weave, run, ask, ctl, patchd, report, ui, whatif, classpath, modes, events, export";
        return Stream.of(
                Arguments.of("frob", "unknown command 'frob' " + commands + "; see dyper --help)"),
                Arguments.of("help frob", "help: unknown command 'frob' " + commands + ")"),
                Arguments.of("weave --bogus", "weave: Unrecognized option: --bogus (see dyper weave --help)"),
                Arguments.of("generate --model", "generate: Missing argument for option: model (see dyper generate --help)"),
                Arguments.of("weave --in {classes} --out {dir}/x.jar", "weave: --model FILE is required"),
                Arguments.of("weave --model {dir}/nope.xml --in {classes} --out {dir}/x.jar",
                        "weave: --model {dir}/nope.xml: no such file"),
                Arguments.of("weave --model {model} --modes {dir}/nope.xml --in {classes} --out {dir}/x.jar",
                        "weave: --modes {dir}/nope.xml: no such file"),
                Arguments.of("weave --model {model} --out {dir}/x.jar", "weave: --in JAR|DIR is required"),
                Arguments.of("weave --model {model} --in {classes}", "weave: --out JAR is required"),
                Arguments.of("weave --model {model} --in {dir}/nowhere --out {dir}/x.jar",
                        "weave: --in {dir}/nowhere: no such jar or folder"),
                Arguments.of("weave --model {model} --in {classes} --out {classes}",
                        "weave: --out {classes} is the input: write the woven jar elsewhere"),
                Arguments.of("weave --model {model} --in {classes} --out {dir}",
                        "weave: --out {dir} is a folder: give the path of the jar to write"),
                Arguments.of("weave --model {model} --in {classes} --out {dir}/x.jar -- extra",
                        "weave: unexpected argument '--' (only dyper run takes java arguments)"),
                Arguments.of("generate --model {model} --in {classes}", "generate: --out DIR is required"),
                Arguments.of("generate --model {model} --out {dir}/gen", "generate: no classes to patch (--in JAR|DIR)"),
                Arguments.of("generate --model {model} --in {classes} --out {dir}/gen stray",
                        "generate: unexpected argument 'stray'"),
                Arguments.of("run --model {model}",
                        "run: give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar Main"),
                Arguments.of("run --model {model} -- ",
                        "run: give the java arguments after --, e.g. dyper run --model m.xml -- -cp app.jar Main"),
                Arguments.of("run --model {model} foo -- -cp {classes} com.acme.cli.App",
                        "run: unexpected argument 'foo' (java arguments go after --)"),
                Arguments.of("run --model {model} -- -cp x",
                        "run: no main class after the java options (give -cp PATH MAIN or -jar JAR)"),
                Arguments.of("run --model {model} -- -m mod/Main",
                        "run: running a module (-m) is not supported: use -cp and a main class, or -jar"),
                Arguments.of("run --no-monitor -- -cp {classes} com.acme.cli.App", "run: give --model FILE, or leave "
                        + "out --no-monitor: with neither, nothing would be measured"),
                Arguments.of("run --detail --model {model} --no-monitor -- -cp {classes} com.acme.cli.App",
                        "run: --detail needs the DYPER monitor: leave out --no-monitor"),
                Arguments.of("run --detail --no-monitor -- -cp {classes} com.acme.cli.App",
                        "run: --detail needs the DYPER monitor: leave out --no-monitor"),
                Arguments.of("run --modes {model} -- -cp {classes} com.acme.cli.App",
                        "run: --modes needs --model FILE (modes are used by a model)"),
                Arguments.of("run --report stdout -- -cp {classes} com.acme.cli.App", "run: --report needs --model FILE "
                        + "(the text report at exit shows what patches measured; dyper ctl PID REPORT, --xml FILE or "
                        + "--html FILE give the monitor's report)"),
                Arguments.of("run --model {model} -- -cp {dir}/nowhere com.acme.cli.App",
                        "run: no classes to patch: the java class path (-cp or -jar) names no existing jar or folder"),
                Arguments.of("ctl --width 5 4242 REPORT",
                        "ctl: --width takes a number of columns of at least 20, not '5'"),
                Arguments.of("ctl --width wide 4242 REPORT",
                        "ctl: --width takes a number of columns of at least 20, not 'wide'"),
                Arguments.of("report --heap {dir}/r.xml", "report: --heap goes with --pid (the heap of a running "
                        + "program, on its page) (see dyper report --help)"),
                Arguments.of("report --pid 4242 --top 5", "report: --top N goes with --heap (see dyper report --help)"),
                Arguments.of("report --pid 4242 --heap --top 0", "report: --top: '0' is not a whole number from 1 "
                        + "to 100000 (see dyper report --help)"),
                Arguments.of("ctl 4242 heap --top 0", "ctl: --top: '0' is not a whole number from 1 to 100000"),
                Arguments.of("ctl 4242 heap --top many", "ctl: --top: 'many' is not a whole number from 1 to 100000"),
                Arguments.of("ctl 4242 heap classes", "ctl: heap takes options only (--top N, --xml), not 'classes'"),
                Arguments.of("ctl --top 5 4242 REPORT", "ctl: --top N goes with heap (dyper ctl PID heap --top N)"),
                Arguments.of("ctl --nats nats://127.0.0.1:4222 j1 heap", "ctl: heap reads the program's dump file "
                        + "where the program runs, so it does not go through --nats: run dyper ctl PID heap on its "
                        + "machine"),
                Arguments.of("classpath extra", "classpath: unexpected argument 'extra'"),
                Arguments.of("whatif --progress a.B.c", "whatif: give the process id: " + org.dyper.cli.whatif
                        .WhatIfCommand.USAGE),
                Arguments.of("whatif 4242 4243 --progress a.B.c", "whatif: one process at a time, got 4242 4243"),
                Arguments.of("whatif x --progress a.B.c", "whatif: 'x' is not a process id"),
                Arguments.of("whatif 4242", "whatif: --progress CLASS.METHOD (or --latency CLASS.METHOD) is required: "
                        + "the method whose completed calls are the program's units of work"),
                Arguments.of("whatif 4242 --progress a.B.c --latency a.B.d",
                        "whatif: --progress and --latency: one progress point at a time"),
                Arguments.of("whatif 4242 --progress begin=a.B.c", "whatif: --progress: 'begin=a.B.c' is neither "
                        + "CLASS.METHOD nor begin=CLASS.METHOD,end=CLASS.METHOD (a latency unit from the begin's entry "
                        + "to the end's exit, on any threads)"),
                Arguments.of("whatif 4242 --progress begin=a.B.c,end=a.B.c,begin=a.B.d", "whatif: --progress: "
                        + "'begin=a.B.c,end=a.B.c,begin=a.B.d' is neither CLASS.METHOD nor begin=CLASS.METHOD,"
                        + "end=CLASS.METHOD (a latency unit from the begin's entry to the end's exit, on any threads)"),
                Arguments.of("whatif 4242 --progress begin=a.B.c,end=d", "whatif: --progress end: 'd' is not "
                        + "CLASS.METHOD (a class name, a dot, a method name; optionally its parameter types in "
                        + "parentheses)"),
                Arguments.of("whatif 4242 --latency a", "whatif: --latency: 'a' is not CLASS.METHOD (a class name, a "
                        + "dot, a method name; optionally its parameter types in parentheses)"),
                Arguments.of("whatif 4242 --progress emit", "whatif: --progress: 'emit' is not CLASS.METHOD (a class "
                        + "name, a dot, a method name; optionally its parameter types in parentheses)"),
                Arguments.of("whatif 4242 --progress a.B.c --candidates a.B.*", "whatif: --candidates: 'a.B.*' is not "
                        + "CLASS.METHOD (a class name, a dot, a method name; optionally its parameter types in "
                        + "parentheses)"),
                Arguments.of("whatif 4242 --progress a.B.c --speedups 0,120",
                        "whatif: --speedups: '120' is not a whole number from 0 to 100"),
                Arguments.of("whatif 4242 --progress a.B.c --speedups 0", "whatif: --speedups needs a speed-up above 0"),
                Arguments.of("whatif 4242 --progress a.B.c --duration 0",
                        "whatif: --duration: '0' is not a duration (90s, 2m, 500ms, or seconds; above 0)"),
                Arguments.of("whatif 4242 --progress a.B.c --window soon",
                        "whatif: --window: 'soon' is not a duration (90s, 2m, 500ms, or seconds; above 0)"),
                Arguments.of("whatif 4242 --progress a.B.c --top 0", "whatif: --top: '0' is not a whole number from 1 "
                        + "to 50"),
                Arguments.of("export 4242", "export: say how to export: --prometheus PORT, --otlp URL, or both"),
                Arguments.of("export 4242 --otlp ftp://x/v1/metrics", "export: --otlp ftp://x/v1/metrics: give an "
                        + "http:// or https:// URL, e.g. http://127.0.0.1:4318/v1/metrics"),
                Arguments.of("export 4242 --otlp http://h:4318/v1/metrics --otlp-header Authorization",
                        "export: --otlp-header Authorization: give NAME=VALUE (an HTTP header name, a value on one "
                        + "line)"),
                Arguments.of("export 4242 --otlp http://h:4318/v1/metrics --otlp-header Content-Type=text/plain",
                        "export: --otlp-header Content-Type: set by Dyper or by HTTP itself, not settable"),
                Arguments.of("export 4242 --prometheus 0 --otlp-header a=b",
                        "export: --otlp-header goes with --otlp URL"),
                Arguments.of("export 4242 --prometheus 0 --interval 5s",
                        "export: --interval is the time between OTLP pushes: it goes with --otlp URL"),
                Arguments.of("export 4242 --otlp http://h:4318/v1/metrics --interval 0",
                        "export: --interval: '0' is not a duration (90s, 2m, 500ms, or seconds; above 0)"),
                Arguments.of("modes --model {model}", "modes: Unrecognized option: --model (see dyper modes --help)"));
    }

    @ParameterizedTest(name = "dyper {0}")
    @MethodSource("usageErrors")
    void usageErrorsAreOneLineAndExit2(String args, String message) {
        assertEquals(new Result(ExitCode.USAGE, "", "dyper: error: " + at(message) + "\n"), dyper(split(args)));
        assertFalse(Files.exists(dir.resolve("x.jar")));
    }
}
