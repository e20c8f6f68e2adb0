package org.dyper.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Spawning programs from tests with a time limit: a program that overruns it is killed (with its children) and the
 * test fails naming the command, so no test hangs and none leaves a process behind.
 */
public final class Processes {
    private Processes() {
    }

    /** What a finished program did: its command, exit code, whole stdout and stderr. */
    public record Result(List<String> command, int exit, String out, String err) {
        /** The lines of stdout. */
        public List<String> outLines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\\R"));
        }

        /** Command, exit code and both outputs, for assertion messages. */
        public String describe() {
            return "command: " + String.join(" ", command) + "\nexit: " + exit + "\nstdout:\n" + out + "\nstderr:\n"
                    + err;
        }
    }

    /** The {@code java} of the JVM running the tests. */
    public static Path currentJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Runs {@code command} to its end, capturing both outputs; fails the test after {@code timeout}. */
    public static Result run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command), timeout);
    }

    /** As {@link #run(List, Duration)} with {@code env} added to the inherited environment. */
    public static Result run(List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        return run(pb, timeout);
    }

    /**
     * Runs {@code pb} (its folder and environment as set) to its end. Both outputs go through temporary files, not
     * pipes, so a program that writes much cannot block on a full pipe; fails the test after {@code timeout}.
     */
    public static Result run(ProcessBuilder pb, Duration timeout) throws IOException, InterruptedException {
        Path out = Files.createTempFile("dyper-test", ".out");
        Path err = Files.createTempFile("dyper-test", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(p);
                throw new AssertionError("timed out after " + timeout.toSeconds() + " s: " + String.join(" ",
                        pb.command()) + "\nstdout so far:\n" + read(out) + "\nstderr so far:\n" + read(err));
            }
            return new Result(List.copyOf(pb.command()), p.exitValue(), read(out), read(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Starts {@code command}; its output is read as it comes ({@link Running}). Close it to kill it. */
    public static Running start(List<String> command) throws IOException {
        return start(new ProcessBuilder(command));
    }

    /** Starts {@code pb} (its folder and environment as set); stdout and stderr are read as they come. */
    public static Running start(ProcessBuilder pb) throws IOException {
        return new Running(pb.start(), List.copyOf(pb.command()));
    }

    /** Waits for {@code p} to end and returns its exit code; kills it and fails the test after {@code timeout}. */
    public static int awaitExit(Process p, Duration timeout, String what) throws InterruptedException {
        if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill(p);
            throw new AssertionError(what + " did not end within " + timeout.toSeconds() + " s");
        }
        return p.exitValue();
    }

    /** Sends {@code signal} (TERM, INT, KILL, ...) to {@code pid} with {@code kill}; fails the test if it cannot. */
    public static void signal(long pid, String signal) throws IOException, InterruptedException {
        Result r = run(List.of("kill", "-s", signal, Long.toString(pid)), Duration.ofSeconds(30));
        if (r.exit() != 0) {
            throw new AssertionError("kill -s " + signal + " " + pid + " failed:\n" + r.describe());
        }
    }

    /** Kills {@code p} and what it started, so no test leaves a program running. */
    static void kill(Process p) {
        List<ProcessHandle> all = new ArrayList<>(p.descendants().toList());
        all.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
