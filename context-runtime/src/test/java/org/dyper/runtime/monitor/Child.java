package org.dyper.runtime.monitor;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.dyper.runtime.Dyper;
import org.junit.jupiter.api.Assumptions;

/** A target JVM for the monitor tests: started with (or without) the monitor agent, stopped by closing its stdin. */
final class Child implements AutoCloseable {
    /** The JDKs the end-to-end tests run on. */
    enum Jdk {
        JDK17, JDK25;

        Path java() {
            if (this == JDK17) {
                return Path.of(System.getProperty("java.home"), "bin", "java");
            }
            String configured = System.getenv("JDK25_HOME");
            if (configured == null || configured.isBlank()) {
                configured = System.getProperty("dyper.jdk25", "/usr/lib/jvm/temurin-25-jdk-amd64");
            }
            Path java = Path.of(configured, "bin", "java");
            Assumptions.assumeTrue(Files.isExecutable(java), "JDK 25 not found at " + configured
                    + ": set JDK25_HOME or -Ddyper.jdk25 to run the JDK 25 monitor tests");
            return java;
        }
    }

    private static Path agentJar;

    /**
     * A jar holding only the agent manifest: the test JVM's class folders are on the child's class path, so the
     * agent classes come from there (the real dyper-runtime jar is built after these tests run).
     */
    static synchronized Path agentJar() throws IOException {
        if (agentJar == null) {
            Path jar = Files.createTempFile("dyper-monitor-agent", ".jar");
            jar.toFile().deleteOnExit();
            Manifest mf = new Manifest();
            mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            mf.getMainAttributes().putValue("Premain-Class", MonitorAgent.class.getName());
            mf.getMainAttributes().putValue("Agent-Class", MonitorAgent.class.getName());
            mf.getMainAttributes().putValue("Can-Redefine-Classes", "true");
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf)) {
                // the manifest is all
            }
            agentJar = jar;
        }
        return agentJar;
    }

    static String classpath() {
        try {
            return Path.of(Dyper.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    + File.pathSeparator
                    + Path.of(Child.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    final Process process;
    final Path dir;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder out = new StringBuilder();
    private final StringBuilder err = new StringBuilder();
    private final Thread outReader;
    private final Thread errReader;

    private Child(Process process, Path dir) {
        this.process = process;
        this.dir = dir;
        outReader = pump(process.getInputStream(), out, lines);
        errReader = pump(process.getErrorStream(), err, null);
    }

    private static Thread pump(java.io.InputStream in, StringBuilder sink, LinkedBlockingQueue<String> queue) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (sink) {
                        sink.append(line).append('\n');
                    }
                    if (queue != null) {
                        queue.add(line);
                    }
                }
            } catch (IOException ignored) {
                // the child ended
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Starts {@code main} with the agent ({@code agentOptions} null: without it); registry folder {@code dir}. */
    static Child start(Jdk jdk, Path dir, String agentOptions, Class<?> main, String... args) throws IOException {
        return start(jdk, dir, agentOptions, List.of(), main, args);
    }

    /** As above, with {@code jvmArgs} (such as {@code -Xmx96m}, {@code -D...}, {@code --limit-modules ...}) before the agent. */
    static Child start(Jdk jdk, Path dir, String agentOptions, List<String> jvmArgs, Class<?> main, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(jdk.java().toString());
        cmd.addAll(jvmArgs);
        if (agentOptions != null) {
            cmd.add("-javaagent:" + agentJar() + "=dir=" + dir + (agentOptions.isEmpty() ? "" : "," + agentOptions));
        }
        cmd.add("-Ddyper.report=none");
        cmd.add("-cp");
        cmd.add(classpath());
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return new Child(new ProcessBuilder(cmd).start(), dir);
    }

    /** The next line of stdout; fails after 60 s. */
    String nextLine() throws InterruptedException {
        String line = lines.poll(60, TimeUnit.SECONDS);
        if (line == null) {
            throw new AssertionError("no output from the child within 60 s; stderr: " + stderr());
        }
        return line;
    }

    /** This child's registry entry (it is written before main runs). */
    MonitorEntry entry() throws IOException, InterruptedException {
        Path file = dir.resolve(process.pid() + ".monitor");
        for (int i = 0; i < 600 && !Files.exists(file); i++) {
            Thread.sleep(100);
        }
        return MonitorEntry.read(file);
    }

    MonitorClient client() throws IOException, InterruptedException {
        MonitorClient c = MonitorClient.connect(entry(), false);
        c.timeout(60_000);
        return c;
    }

    String stdout() {
        synchronized (out) {
            return out.toString();
        }
    }

    String stderr() {
        synchronized (err) {
            return err.toString();
        }
    }

    /** Closes stdin and waits for the exit code. */
    int stop() throws Exception {
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.flush();
        } catch (IOException ignored) {
            // already closed
        }
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the child did not stop");
        }
        outReader.join(10_000);
        errReader.join(10_000);
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
