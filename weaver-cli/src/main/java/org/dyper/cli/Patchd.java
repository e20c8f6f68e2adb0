package org.dyper.cli;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.runtime.PatchService;
import org.dyper.patch.build.WeaveException;
import org.dyper.runtime.wire.WireClient;
import org.dyper.runtime.monitor.MonitorEntry;
import org.dyper.runtime.monitor.MonitorReply;
import org.dyper.runtime.wire.Endpoint;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.WireServer;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * {@code dyper patchd}: the DYPATCH service of the seed on a socket, for one monitored process (or a class path).
 * Same transport and server as the DYPER monitor ({@link WireServer}): a socket file in the owner-only registry folder,
 * a registry entry {@code <dir>/<pid>.patchd} readable only by its owner naming it and a random token, the first
 * frame {@code <DYPATCH AUTH='token'/>}, length-prefixed frames of at most 1 MiB with a deadline once a frame
 * started, the JDK's parser without DTDs. Commands: PING, MODEL, PATCH,
 * DIRECTORY (docs/monitor.md, "The DYPATCH service").
 */
final class Patchd implements Closeable {
    /** Connections served at once; more are refused. */
    static final int MAX_CONNECTIONS = 8;
    /** The transport's limits: the token within 10 s, a frame within 10 s of its first byte, no idle limit. */
    static final WireServer.Limits LIMITS = new WireServer.Limits(MAX_CONNECTIONS, 10_000, 10_000, 0,
            WireServer.Limits.DEFAULT_BUDGET);

    private final PatchService service;
    private final long pid;
    private final MonitorEntry monitor;
    private final WireServer server;
    private final Path entry;

    /**
     * Starts serving: {@code pid} is the process whose classes are patched; {@code monitor} its monitor (null when the
     * classes come from a class path); the registry entry and the socket file go to {@code registry}.
     */
    Patchd(PatchService service, long pid, MonitorEntry monitor, Path registry) throws IOException {
        this.service = service;
        this.pid = pid;
        this.monitor = monitor;
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String token = HexFormat.of().formatHex(secret);
        RegistryFiles.createPrivateDirectories(registry);
        this.server = new WireServer("DYPATCH", "patch service", pid, token, registry.resolve(pid + ".patchd.sock"),
                LIMITS, message -> Frames.Body.of(handle(message)), (name, body) -> {
                    Thread t = new Thread(body, name);
                    t.setDaemon(true);
                    return t;
                }, "dyper-patchd");
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("pid", Long.toString(pid));
        fields.put("patchd", Long.toString(ProcessHandle.current().pid()));
        fields.putAll(server.endpoint().fields());
        fields.put("token", token);
        this.entry = RegistryFiles.writePrivate(registry.resolve(pid + ".patchd"), fields);
    }

    /** Where clients connect. */
    Endpoint endpoint() {
        return server.endpoint();
    }

    Path entry() {
        return entry;
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(entry);
    }

    private String reply(String body) {
        return server.reply(body);
    }

    private String error(String message) {
        return server.error(message);
    }

    /** One command in, one reply out; nothing here throws. */
    String handle(String message) {
        try {
            Element root = MonitorReply.parse(message);
            String command = MonitorReply.attribute(root, "COMMAND");
            if (!root.getTagName().equals("DYPATCH") || command == null) {
                return error("expected <DYPATCH COMMAND='...'>, got <" + root.getTagName() + ">");
            }
            String target = MonitorReply.attribute(root, "PID");
            if (target != null && !target.trim().equals(Long.toString(pid))) {
                return error("this is the patch service of process " + pid + ", not '" + target + "'");
            }
            List<Element> data = MonitorReply.children(root, null);
            Element first = data.isEmpty() ? null : data.get(0);
            return switch (command.trim().toUpperCase(Locale.ROOT)) {
                case "PING" -> reply("PONG");
                case "MODEL" -> model(first);
                case "PATCH" -> patch(first);
                case "DIRECTORY" -> directory(root.getTextContent().trim());
                default -> error("unknown command '" + command + "' (PING, MODEL, PATCH, DIRECTORY)");
            };
        } catch (MonitorReply.MalformedException e) {
            return error(e.getMessage());
        } catch (InvalidInputException e) {
            List<String> lines = new ArrayList<>();
            e.listed().forEach(p -> lines.add(p.toString()));
            return error(String.join("\n", lines));
        } catch (WeaveException e) {
            return error(e.getMessage());
        } catch (IOException | IllegalArgumentException e) {
            return error(e.getMessage());
        } catch (Throwable t) {
            return error("internal error: " + t.getClass().getName() + ": " + t.getMessage());
        }
    }

    private String model(Element data) throws InvalidInputException {
        if (data == null || !data.getTagName().equals("MODEL")) {
            throw new IllegalArgumentException("MODEL expects <MODEL NAME='...'><FOR .../>...</MODEL>");
        }
        String name = service.model(Xml.serialize(data), "MODEL message");
        return reply("<MODEL NAME='" + MonitorReply.escape(name) + "'/>");
    }

    private String patch(Element data) throws InvalidInputException, IOException, WeaveException {
        if (data == null || !data.getTagName().equals("PATCH")) {
            throw new IllegalArgumentException("PATCH expects <PATCH ALL MODEL><CLASS NAME/>...</PATCH>");
        }
        String allValue = MonitorReply.attribute(data, "ALL");
        Boolean all = MonitorReply.flag(allValue == null ? "false" : allValue);
        if (all == null) {
            throw new IllegalArgumentException("PATCH: ALL is a flag (true/false, t/f, 1/0), not '"
                    + allValue + "'");
        }
        List<String> classes = new ArrayList<>();
        for (Element c : MonitorReply.children(data, null)) {
            if (!c.getTagName().equals("CLASS") || MonitorReply.attribute(c, "NAME") == null) {
                throw new IllegalArgumentException("PATCH may hold only <CLASS NAME='...'/>");
            }
            classes.add(MonitorReply.attribute(c, "NAME").trim());
        }
        String model = MonitorReply.attribute(data, "MODEL");
        if (monitor != null) {
            // the process loads classes as it runs: ask its monitor again
            Path extra = service.directory().resolve("classes-" + pid);
            try (WireClient c = monitor.connect(false)) {
                c.timeout(120_000);
                service.targets(MonitorTargets.fetch(c::command, service.classPatterns(), extra).targets());
            }
        }
        PatchService.Patched patched = service.patch(model == null || model.isBlank() ? null : model.trim(), all,
                classes);
        return reply(patched.files().withRuntime(org.dyper.patch.build.Weaver.runtimeClasspath()).toXml());
    }

    private String directory(String dir) throws IOException {
        if (dir.isEmpty()) {
            throw new IllegalArgumentException("DIRECTORY needs the folder as its text: <DYPATCH COMMAND='DIRECTORY'>"
                    + "/path</DYPATCH>");
        }
        Path p = Path.of(dir).toAbsolutePath();
        RegistryFiles.createPrivateDirectories(p);
        service.directory(p);
        return reply("OK");
    }

    /** Runs patchd until the served process ends (or for ever without one); returns the exit code. */
    static int run(PatchService service, long pid, MonitorEntry monitor, Path registry, java.io.PrintStream err)
            throws IOException {
        try (Patchd d = new Patchd(service, pid, monitor, registry)) {
            Thread hook = new Thread(() -> {
                try {
                    Files.deleteIfExists(d.entry());
                    d.server.close();
                } catch (IOException ignored) {
                    // a stale entry names a socket nobody answers on
                }
            }, "dyper-patchd-exit");
            Runtime.getRuntime().addShutdownHook(hook);
            if (d.server.fallback() != null) {
                err.println("dyper: warning: the patch service listens on loopback TCP, where any local user can "
                        + "connect (the token still guards it): " + d.server.fallback());
            }
            err.println("dyper: patch service for process " + pid + " on " + d.endpoint() + " (" + d.entry() + ")");
            try {
                while (monitor == null || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    Thread.sleep(500);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCode.OK;
            }
            err.println("dyper: process " + pid + " ended; the patch service stops");
            return ExitCode.OK;
        }
    }
}
