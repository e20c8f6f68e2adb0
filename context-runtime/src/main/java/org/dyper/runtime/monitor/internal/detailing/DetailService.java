package org.dyper.runtime.monitor.internal.detailing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.instrument.PatchSet;
import org.dyper.runtime.instrument.PatchSetFiles;
import org.w3c.dom.Element;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.wire.Xml;

/**
 * How automatic detailing reaches a DYPATCH service ({@code dyper patchd}) for its own process: the one registered as
 * {@code <dir>/<pid>.patchd} ({@code dyper run --detail} starts it), else one the monitor starts itself with the Dyper
 * command line it finds (agent option {@code cli}, else {@code $DYPER_CLI}, else {@code dyper} on the PATH). It also
 * turns a PATCH reply into the {@link PatchSet} that {@code RuntimePatcher} inserts. Used on the detailing thread only.
 */
final class DetailService {
    /** Thrown when no patch service can be had; the message says why. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message, null, false, false);
        }
    }

    /** How long a patch service the monitor started may take to register itself. */
    private static final long START_MILLIS = 60_000;

    private final Path dir;
    private final long pid;
    private final String cli;
    private WireClient client;
    private Process started;
    private long startedAt;

    /** {@code cli}: the agent option ({@code none}: never start one; null: look for it). */
    DetailService(Path dir, long pid, String cli) {
        this.dir = dir;
        this.pid = pid;
        this.cli = cli;
    }

    /** A connected client, connecting (and starting the service) when needed. */
    WireClient client() throws Unavailable {
        if (client != null) {
            return client;
        }
        Path entry = dir.resolve(pid + ".patchd");
        if (!Files.isRegularFile(entry)) {
            startService(entry);
        }
        try {
            client = WireClient.connect(entry, "DYPATCH", pid, "patch service");
            client.timeout(300_000);
            return client;
        } catch (IOException e) {
            throw new Unavailable("cannot reach the patch service " + entry + ": " + e.getMessage());
        }
    }

    /** Drops the connection (after an I/O failure, or when detailing stops); the next request connects again. */
    void close() {
        if (client != null) {
            try {
                client.close();
            } catch (IOException ignored) {
                // gone already
            }
            client = null;
        }
    }

    private void startService(Path entry) throws Unavailable {
        if (started == null) {
            if ("none".equals(cli)) {
                throw new Unavailable("waiting for the patch service " + entry + " (agent option cli=none: the "
                        + "launcher starts it, as dyper run --detail does)");
            }
            String command = findCli();
            if (command == null) {
                throw new Unavailable("no patch service: no " + entry + ", and no Dyper command line to start one "
                        + "(agent option cli=PATH, the DYPER_CLI environment variable, or dyper on the PATH)");
            }
            try {
                Path log = dir.resolve(pid + ".patchd.log");
                started = new ProcessBuilder(command, "patchd", "--pid", Long.toString(pid), "--dir", dir.toString())
                        .redirectErrorStream(true).redirectOutput(log.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File(isWindows() ? "NUL" : "/dev/null")))
                        .start();
                startedAt = System.currentTimeMillis();
            } catch (IOException | RuntimeException e) {
                throw new Unavailable("cannot start the patch service (" + command + " patchd): " + e.getMessage());
            }
        }
        if (!started.isAlive()) {
            throw new Unavailable("the patch service this monitor started (" + findCli() + " patchd) ended with exit "
                    + "code " + started.exitValue() + " (its output: " + dir.resolve(pid + ".patchd.log") + ")");
        }
        if (System.currentTimeMillis() - startedAt > START_MILLIS) {
            throw new Unavailable("the patch service this monitor started has not registered " + entry + " within "
                    + START_MILLIS / 1000 + " s (its output: " + dir.resolve(pid + ".patchd.log") + ")");
        }
        throw new Unavailable("starting the patch service (" + findCli() + " patchd --pid " + pid + ")");
    }

    private static boolean isWindows() {
        return File.separatorChar == '\\';
    }

    /** The Dyper command line: the {@code cli} option, else {@code $DYPER_CLI}, else {@code dyper} on the PATH. */
    private String findCli() {
        if (cli != null && !cli.isBlank()) {
            return cli;
        }
        String env = System.getenv("DYPER_CLI");
        if (env != null && !env.isBlank()) {
            return env;
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String p : path.split(File.pathSeparator)) {
                if (!p.isBlank() && Files.isExecutable(Path.of(p, "dyper"))) {
                    return Path.of(p, "dyper").toString();
                }
            }
        }
        return null;
    }

    /** The patch set a DYPATCH PATCH reply describes, its files read (bounded as INSTRUMENT's). */
    static PatchSet patchSet(String model, String reply) throws IOException {
        Element root;
        try {
            root = Xml.parse(reply);
        } catch (Xml.BadXml e) {
            throw new IOException("unreadable reply from the patch service: " + e.getMessage());
        }
        Element patch = null;
        for (Element e : Xml.children(root)) {
            if (e.getTagName().equals("ERROR")) {
                throw new IOException(e.getTextContent().trim());
            }
            if (e.getTagName().equals("PATCH")) {
                patch = e;
            }
        }
        if (patch == null) {
            throw new IOException("the patch service's reply holds no <PATCH>");
        }
        try {
            return PatchSetFiles.fromXml(patch).load(model);
        } catch (IllegalArgumentException e) {
            throw new IOException("the patch service's PATCH reply: " + e.getMessage());
        }
    }

    /** The WARNING lines of a PATCH reply (a FOR that matched nothing, say). */
    static List<String> warnings(String reply) {
        List<String> out = new ArrayList<>();
        try {
            for (Element e : Xml.children(Xml.parse(reply))) {
                for (Element w : Xml.children(e)) {
                    if (w.getTagName().equals("WARNING")) {
                        out.add(w.getTextContent().trim());
                    }
                }
            }
        } catch (Xml.BadXml | RuntimeException ignored) {
            // an unreadable reply fails where it is read for the patch set
        }
        return out;
    }
}
