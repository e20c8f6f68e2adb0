package org.dyper.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real {@code nats-server} for a test: started on a free loopback port with a configuration file, killed
 * ({@link #kill}, SIGKILL, as a crash) and started again on the same port ({@link #restart}), stopped by
 * {@link #close}. The binary is {@code -Ddyper.nats.server=...}, else {@code nats-server} on the PATH, else
 * {@code /usr/sbin/nats-server} (Debian's package); without one the test is skipped, saying so ({@code .ci/run}
 * installs it).
 */
public final class NatsServer implements AutoCloseable {
    /** The marker line in docs/fleet.md after which its fenced configuration block comes. */
    public static final String MARKER = "<!-- nats-server.conf: the tests run this file -->";

    private final Path binary;
    private final Path config;
    private final Path log;
    private final int port;
    private Process process;

    private NatsServer(Path binary, Path config, Path log, int port) {
        this.binary = binary;
        this.config = config;
        this.log = log;
        this.port = port;
    }

    /** The nats-server binary, or null. */
    public static Path binary() {
        String configured = System.getProperty("dyper.nats.server");
        if (configured != null && !configured.isBlank()) {
            return Files.isExecutable(Path.of(configured)) ? Path.of(configured) : null;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(java.io.File.pathSeparator)) {
                Path p = Path.of(d, "nats-server");
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        Path debian = Path.of("/usr/sbin/nats-server");
        return Files.isExecutable(debian) ? debian : null;
    }

    /**
     * The configuration block after {@link #MARKER} in {@code markdown} (docs/fleet.md), written to {@code dir}: the
     * tests run the configuration the documentation gives.
     */
    public static Path configFrom(Path markdown, Path dir) throws IOException {
        String text = Files.readString(markdown, StandardCharsets.UTF_8);
        int at = text.indexOf(MARKER);
        if (at < 0) {
            throw new IllegalStateException(markdown + " has no line " + MARKER);
        }
        int open = text.indexOf("```", at);
        int start = text.indexOf('\n', open) + 1;
        int end = text.indexOf("```", start);
        return Files.writeString(dir.resolve("nats-server.conf"), text.substring(start, end), StandardCharsets.UTF_8);
    }

    /** Starts nats-server with {@code config} on a free loopback port (logs in {@code dir}); skips without one. */
    public static NatsServer start(Path config, Path dir) throws IOException {
        NatsServer server = notStarted(config, dir);
        server.launch();
        return server;
    }

    /**
     * A server on a free port that is not started yet (a broker that is down when the monitors start):
     * {@link #restart} starts it.
     */
    public static NatsServer notStarted(Path config, Path dir) throws IOException {
        Path binary = binary();
        Skip.unless(binary != null, "no nats-server here (not on the PATH, not /usr/sbin/nats-server, no "
                + "-Ddyper.nats.server): apt-get install nats-server (.ci/run does)");
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return new NatsServer(binary, config, dir.resolve("nats-server-" + port + ".log"), port);
    }

    private void launch() throws IOException {
        process = new ProcessBuilder(List.of(binary.toString(), "-c", config.toString(), "-a", "127.0.0.1", "-p",
                Integer.toString(port))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Process p = process;
        Await.until("nats-server listening on port " + port + " (log " + log + ")", () -> {
            if (!p.isAlive()) {
                throw new IllegalStateException("nats-server ended with " + p.exitValue() + ": "
                        + Files.readString(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return true;
            } catch (IOException e) {
                return false;
            }
        }, Duration.ofSeconds(20));
    }

    /** {@code nats://127.0.0.1:PORT}. */
    public String url() {
        return "nats://127.0.0.1:" + port;
    }

    /** {@code nats://USER:PASSWORD@127.0.0.1:PORT}. */
    public String url(String user, String password) {
        return "nats://" + user + ":" + password + "@127.0.0.1:" + port;
    }

    public int port() {
        return port;
    }

    /** The server's log so far. */
    public String log() throws IOException {
        return Files.readString(log);
    }

    /** Kills the server at once (SIGKILL: clients see the connection break, as in a crash). */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts it (again), same port and configuration (after {@link #kill}, or {@link #notStarted}). */
    public void restart() throws IOException {
        launch();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
