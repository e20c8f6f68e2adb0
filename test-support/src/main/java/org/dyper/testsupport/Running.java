package org.dyper.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A program a test talks to while it runs: its stdout is kept line by line (a test waits for the line it expects),
 * its stderr as text. Closing it kills the program and its children if they still run.
 */
public final class Running implements AutoCloseable {
    private final Process process;
    private final List<String> command;
    private final List<String> lines = new ArrayList<>();
    private final StringBuilder err = new StringBuilder();
    private final Thread outReader;
    private final Thread errReader;

    Running(Process process, List<String> command) {
        this.process = process;
        this.command = command;
        outReader = pump(process.getInputStream(), line -> {
            synchronized (lines) {
                lines.add(line);
                lines.notifyAll();
            }
        }, "stdout");
        errReader = pump(process.getErrorStream(), line -> {
            synchronized (err) {
                err.append(line).append('\n');
            }
        }, "stderr");
    }

    private Thread pump(InputStream in, java.util.function.Consumer<String> sink, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException ignored) {
                // the program ended or was killed
            } finally {
                synchronized (lines) {
                    lines.notifyAll();
                }
            }
        }, "test-" + name + "-" + process.pid());
        t.setDaemon(true);
        t.start();
        return t;
    }

    public Process process() {
        return process;
    }

    public long pid() {
        return process.pid();
    }

    /**
     * Line {@code index} (from 0) of stdout, waiting up to {@code timeout} for it; fails the test, with stderr, when
     * it does not come (or the program ends first).
     */
    public String line(int index, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            while (lines.size() <= index) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!outReader.isAlive() && lines.size() <= index)) {
                    throw new AssertionError("no line " + index + " of output within " + timeout.toSeconds()
                            + " s (" + lines.size() + " came" + (process.isAlive() ? "" : ", the program ended")
                            + "): " + String.join(" ", command) + "\nstderr: " + stderr());
                }
                lines.wait(Math.max(1, left / 1_000_000));
            }
            return lines.get(index);
        }
    }

    /** The stdout lines so far. */
    public List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /** Stdout so far, one {@code \n} after each line. */
    public String stdout() {
        StringBuilder s = new StringBuilder();
        lines().forEach(l -> s.append(l).append('\n'));
        return s.toString();
    }

    /** Stderr so far. */
    public String stderr() {
        synchronized (err) {
            return err.toString();
        }
    }

    /** Writes {@code line} and a newline to the program's stdin (UTF-8), at once. */
    public void send(String line) throws IOException {
        OutputStream stdin = process.getOutputStream();
        stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        stdin.flush();
    }

    /** Closes the program's stdin (the test programs take that as their signal to end). */
    public void closeStdin() {
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.flush();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /**
     * Waits for the program to end and for its output to be read; returns its exit code. Kills it and fails the test
     * after {@code timeout}.
     */
    public int awaitExit(Duration timeout) throws InterruptedException {
        int exit = Processes.awaitExit(process, timeout, String.join(" ", command));
        outReader.join(10_000);
        errReader.join(10_000);
        return exit;
    }

    /** Closes stdin, then {@link #awaitExit(Duration)}. */
    public int stop(Duration timeout) throws InterruptedException {
        closeStdin();
        return awaitExit(timeout);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            Processes.kill(process);
        }
    }
}
