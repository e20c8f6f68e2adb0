package org.dyper.benchmarks.runner;

import java.nio.file.Path;
import java.util.List;

/** One part of the benchmark run (MooBench, start-up): the runner's folders, jars, JDK and page, named once. */
abstract class RunnerPart {
    final Runner runner;
    final Path root;
    final Path bench;
    final Path target;
    final Path work;
    final Path appJar;
    final Path harnessJar;
    final Path lib;
    final Path java;
    final boolean quick;
    final StringBuilder page;
    final List<String> problems;

    RunnerPart(Runner runner) {
        this.runner = runner;
        this.root = runner.root;
        this.bench = runner.bench;
        this.target = runner.target;
        this.work = runner.work;
        this.appJar = runner.appJar;
        this.harnessJar = runner.harnessJar;
        this.lib = runner.lib;
        this.java = runner.java;
        this.quick = runner.quick;
        this.page = runner.page;
        this.problems = runner.problems;
    }
}
