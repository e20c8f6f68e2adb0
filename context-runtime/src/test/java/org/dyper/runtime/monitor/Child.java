package org.dyper.runtime.monitor;

import org.dyper.runtime.wire.WireClient;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.dyper.runtime.Dyper;
import org.dyper.testsupport.Await;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Processes;
import org.dyper.testsupport.Running;

/** A target JVM for the monitor tests: started with (or without) the monitor agent, stopped by closing its stdin. */
final class Child implements AutoCloseable {
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
            mf.getMainAttributes().putValue("Can-Retransform-Classes", "true");  // as the real jar's manifest
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
    private final Running running;
    private int linesTaken;

    private Child(Running running, Path dir) {
        this.running = running;
        this.process = running.process();
        this.dir = dir;
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
        return new Child(Processes.start(cmd), dir);
    }

    /** The next line of stdout; fails after 60 s. */
    String nextLine() throws InterruptedException {
        return running.line(linesTaken++, Duration.ofSeconds(60));
    }

    /** This child's registry entry (it is written before main runs). */
    MonitorEntry entry() throws IOException, InterruptedException {
        Path file = dir.resolve(process.pid() + ".monitor");
        Await.until("the registry entry " + file, () -> Files.exists(file), Await.MINUTE);
        return MonitorEntry.read(file);
    }

    WireClient client() throws IOException, InterruptedException {
        WireClient c = entry().connect(false);
        c.timeout(60_000);
        return c;
    }

    String stdout() {
        return running.stdout();
    }

    String stderr() {
        return running.stderr();
    }

    /** Closes stdin and waits for the exit code. */
    int stop() throws Exception {
        return running.stop(Duration.ofSeconds(60));
    }

    @Override
    public void close() {
        running.close();
    }
}
