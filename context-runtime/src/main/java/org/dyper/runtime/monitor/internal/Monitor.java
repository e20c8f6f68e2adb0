package org.dyper.runtime.monitor.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.dyper.runtime.internal.ReportHook;
import org.dyper.runtime.monitor.DyperAgent;
import org.w3c.dom.Element;

/**
 * The DYPER monitor of this JVM: the loopback command server, the registry entry, the sampler thread that feeds the
 * agents and pushes reports and dumps, and the START/END notifications. One per process; all its threads are
 * daemons named {@code dyper-monitor-*} and are never sampled.
 */
public final class Monitor {
    private static Monitor instance;

    final long pid = ProcessHandle.current().pid();
    final long startMillis;
    final String mainClass;
    final Options options;
    final Instrumentation inst;
    final Settings settings = new Settings();
    final ClassTypes classTypes = new ClassTypes();
    final CpuAgent cpu = new CpuAgent(settings, classTypes);
    final ThreadsAgent threads = new ThreadsAgent();
    final StackStore stacks = new StackStore((int) settings.longValue("MAXNODES"));
    final StacksAgent stacksAgent = new StacksAgent(stacks);
    final JvmAgent jvm = new JvmAgent();
    final List<DyperAgent> agents = new CopyOnWriteArrayList<>(List.of(cpu, threads, stacksAgent, jvm));
    final Map<String, String> agentErrors = new ConcurrentHashMap<>();
    final Set<Long> ownThreads = ConcurrentHashMap.newKeySet();
    final Map<Long, Boolean> threadUse = new ConcurrentHashMap<>();
    final Set<Connection> pushClients = ConcurrentHashMap.newKeySet();
    final AtomicInteger connections = new AtomicInteger();
    final String token;
    final Commands commands;
    final Sampler sampler = new Sampler(this);
    final MonitorReport report = new MonitorReport(this);
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private ServerSocket server;
    private Path entry;

    private Monitor(Options options, Instrumentation inst) {
        this.options = options;
        this.inst = inst;
        this.startMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
        this.mainClass = mainClass();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.token = HexFormat.of().formatHex(secret);
        this.commands = new Commands(this);
    }

    /** Starts the monitor once per JVM; later calls (a second agent load) do nothing. Never throws. */
    public static synchronized void start(String args, Instrumentation inst, boolean atLaunch) {
        if (instance != null) {
            return;
        }
        try {
            Options options = Options.parse(args);
            Monitor m = new Monitor(options, inst);
            m.settings.set(options.settings());
            m.applySettings();
            m.listen();
            m.register();
            instance = m;
            Thread hook = new Thread(m::shutdown, "dyper-monitor-exit");
            Runtime.getRuntime().addShutdownHook(hook);
            m.sampler.start();
            ReportHook.monitorAtExit(m.report::last);
            if (atLaunch && options.notifyAddress() != null) {
                m.notifyStart();
            }
        } catch (Throwable t) {
            try {
                System.err.println("dyper: monitor not started: " + describe(t));
            } catch (Throwable ignored) {
                // nowhere to say it
            }
        }
    }

    /** The monitor's own agents (their sections are not AGENT elements). */
    boolean internal(DyperAgent a) {
        return a == cpu || a == threads || a == stacksAgent || a == jvm;
    }

    static String describe(Throwable t) {
        return t.getMessage() == null ? t.getClass().getName() : t.getMessage();
    }

    Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name) {
            @Override
            public void run() {
                ownThreads.add(getId());
                try {
                    super.run();
                } finally {
                    ownThreads.remove(getId());
                    long cpuNs = mx.isThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : -1;
                    sampler.endedOwnCpuNs.addAndGet(Math.max(0, cpuNs));
                }
            }
        };
        t.setDaemon(true);
        ownThreads.add(t.getId());
        return t;
    }

    private static String mainClass() {
        String command = System.getProperty("sun.java.command", "");
        String first = command.trim().split("\\s+", 2)[0];
        return first.isEmpty() ? "unknown" : first;
    }

    // ---- server ----

    private void listen() throws IOException {
        server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        daemon("dyper-monitor-accept", this::acceptLoop).start();
    }

    private void acceptLoop() {
        int n = 0;
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
                continue;
            } catch (Throwable t) {
                continue;
            }
            try {
                Connection c = new Connection(this, s);
                if (connections.incrementAndGet() > options.maxConnections()) {
                    connections.decrementAndGet();
                    c.refuse("too many connections (limit " + options.maxConnections() + ")");
                    continue;
                }
                daemon("dyper-monitor-conn-" + (++n), c::serve).start();
            } catch (Throwable t) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // already gone
                }
            }
        }
    }

    boolean tokenMatches(String offered) {
        return offered != null && MessageDigest.isEqual(offered.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    String reply(String body) {
        if (body == null || body.isEmpty()) {
            return "<DYPER_REPLY ID='" + pid + "'/>";
        }
        return "<DYPER_REPLY ID='" + pid + "'>" + body + "</DYPER_REPLY>";
    }

    String error(String message) {
        return reply("<ERROR>" + Xml.text(message) + "</ERROR>");
    }

    // ---- registry ----

    private void register() throws IOException {
        Path dir = options.dir();
        RegistryFiles.createPrivateDirectories(dir);
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("pid", Long.toString(pid));
        fields.put("port", Integer.toString(server.getLocalPort()));
        fields.put("main", mainClass);
        fields.put("start", Long.toString(startMillis));
        fields.put("java", System.getProperty("java.version", ""));
        fields.put("token", token);
        entry = RegistryFiles.writePrivate(dir.resolve(pid + ".monitor"), fields);
    }

    int port() {
        return server.getLocalPort();
    }

    private void shutdown() {
        try {
            if (options.notifyAddress() != null) {
                notifyEnd();
            }
        } catch (Throwable ignored) {
            // exit goes on
        }
        try {
            if (entry != null) {
                Files.deleteIfExists(entry);
            }
        } catch (Throwable ignored) {
            // a stale entry is cleaned by `dyper ctl who`
        }
        try {
            server.close();
        } catch (Throwable ignored) {
            // exit goes on
        }
    }

    // ---- START / END ----

    private void notifyStart() {
        String reply = notifyListener("<DYPER START='" + pid + "' PORT='" + port() + "'/>");
        if (reply == null) {
            return;
        }
        try {
            Element root = Xml.parse(reply);
            Map<String, String> vars = new LinkedHashMap<>();
            collectVars(root, vars);
            if (!vars.isEmpty()) {
                settings.set(vars);
                applySettings();
            }
        } catch (Throwable ignored) {
            // a reply that is not settings just releases main
        }
    }

    private static void collectVars(Element e, Map<String, String> vars) {
        if (e.getTagName().equals("VAR")) {
            vars.put(e.getAttribute("NAME"), e.getAttribute("VALUE"));
        }
        for (Element c : Xml.children(e)) {
            collectVars(c, vars);
        }
    }

    private void notifyEnd() {
        notifyListener("<DYPER END='" + pid + "'/>");
    }

    /** Sends one message to the notify listener and waits (bounded) for one reply frame or the end of stream. */
    private String notifyListener(String message) {
        InetSocketAddress address = options.notifyAddress();
        try (Socket s = new Socket()) {
            int wait = (int) Math.max(1, options.notifyWaitMillis());
            s.connect(address, wait);
            s.setSoTimeout(wait);
            OutputStream out = s.getOutputStream();
            Frames.write(out, message);
            return Frames.read(s.getInputStream(), Frames.MAX_MESSAGE, null);
        } catch (Throwable t) {
            return null;
        }
    }

    // ---- settings ----

    /** Applies settings that live in the JVM (contention monitoring, CPU clock) and wakes the sampler. */
    void applySettings() {
        try {
            if (mx.isThreadContentionMonitoringSupported()) {
                mx.setThreadContentionMonitoringEnabled(settings.bool("CONTENTION"));
            }
        } catch (Throwable ignored) {
            // not supported here: the report says CONTENTION_MONITORING='false'
        }
        try {
            if (settings.bool("CPUTIME") && mx.isThreadCpuTimeSupported()) {
                mx.setThreadCpuTimeEnabled(true);
            }
        } catch (Throwable ignored) {
            // CPU_NS stays -1
        }
        stacks.limit((int) settings.longValue("MAXNODES"));
        sampler.apply();
    }

    void push(String message) {
        for (Connection c : pushClients) {
            c.push(message);
        }
    }

    // ---- connections ----

    /** One client connection: token first, then request / reply frames; pushes go through a bounded queue. */
    static final class Connection {
        private final Monitor m;
        private final Socket socket;
        private final Object writeLock = new Object();
        private final java.util.concurrent.ArrayBlockingQueue<String> pushes =
                new java.util.concurrent.ArrayBlockingQueue<>(16);
        private OutputStream out;

        Connection(Monitor m, Socket socket) {
            this.m = m;
            this.socket = socket;
        }

        void refuse(String why) {
            try (Socket s = socket) {
                s.setSoTimeout(1000);
                Frames.write(s.getOutputStream(), m.error(why));
            } catch (Throwable ignored) {
                // gone
            }
        }

        void serve() {
            try {
                converse(socket);
            } catch (Frames.FrameException | java.io.EOFException e) {
                trySend(m.error(e.getMessage()));
            } catch (java.net.SocketTimeoutException e) {
                trySend(m.error("incomplete message: nothing more arrived within the time limit"));
            } catch (Throwable ignored) {
                // the client went away (possibly mid-reply): only this connection ends
            } finally {
                try {
                    socket.close();
                } catch (Throwable ignored) {
                    // already closed
                }
                m.pushClients.remove(this);
                m.connections.decrementAndGet();
                pushes.clear();
                pushes.offer(STOP);
            }
        }

        private void converse(Socket s) throws IOException {
            {
                s.setTcpNoDelay(true);
                InputStream in = new java.io.BufferedInputStream(s.getInputStream());
                out = new java.io.BufferedOutputStream(s.getOutputStream());
                s.setSoTimeout((int) m.options.authTimeoutMillis());
                String first = readFrame(in, false);
                if (first == null) {
                    return;
                }
                Boolean push = authenticate(first);
                if (push == null) {
                    return;
                }
                send(m.reply("OK"));
                if (push) {
                    m.daemon("dyper-monitor-push", this::pushLoop).start();
                    m.pushClients.add(this);
                }
                while (true) {
                    s.setSoTimeout(0);
                    String message = readFrame(in, true);
                    if (message == null) {
                        return;
                    }
                    send(m.commands.handle(message));
                }
            }
        }

        private static final String STOP = "";

        private String readFrame(InputStream in, boolean deadline) throws IOException {
            return Frames.read(in, Frames.MAX_MESSAGE, deadline ? () -> {
                try {
                    socket.setSoTimeout((int) m.options.frameTimeoutMillis());
                } catch (IOException ignored) {
                    // the read that follows fails
                }
            } : null);
        }

        /** Null when refused (the refusal is sent); else whether the client asked for pushes. */
        private Boolean authenticate(String first) throws IOException {
            Element root;
            try {
                root = Xml.parse(first);
            } catch (Xml.BadXml e) {
                send(m.error("access denied: the first message must be <DYPER AUTH='token'/> (" + e.getMessage()
                        + ")"));
                return null;
            }
            String offered = Xml.attr(root, "AUTH");
            if (!root.getTagName().equals("DYPER") || offered == null) {
                send(m.error("access denied: the first message must be <DYPER AUTH='token'/>"));
                return null;
            }
            if (!m.tokenMatches(offered)) {
                send(m.error("access denied: wrong token"));
                return null;
            }
            return Boolean.TRUE.equals(Xml.flag(Xml.attr(root, "PUSH")));
        }

        private void send(String message) throws IOException {
            synchronized (writeLock) {
                Frames.write(out, message);
            }
        }

        private void trySend(String message) {
            try {
                if (out != null) {
                    socket.setSoTimeout(1000);
                    send(message);
                }
            } catch (Throwable ignored) {
                // gone
            }
        }

        void push(String message) {
            pushes.offer(message);
        }

        private void pushLoop() {
            try {
                while (true) {
                    String message = pushes.take();
                    if (message == STOP) {
                        return;
                    }
                    send(message);
                }
            } catch (Throwable e) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }
    }
}
