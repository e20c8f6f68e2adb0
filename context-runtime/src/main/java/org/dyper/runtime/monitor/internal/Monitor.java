package org.dyper.runtime.monitor.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dyper.runtime.internal.ReportHook;
import org.dyper.runtime.monitor.DyperAgent;
import org.w3c.dom.Element;
import org.dyper.runtime.monitor.internal.agents.ClassTypes;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;
import org.dyper.runtime.monitor.internal.agents.JvmAgent;
import org.dyper.runtime.monitor.internal.agents.StacksAgent;
import org.dyper.runtime.monitor.internal.agents.ThreadsAgent;
import org.dyper.runtime.monitor.internal.commands.Commands;
import org.dyper.runtime.monitor.internal.detailing.Detailer;
import org.dyper.runtime.monitor.internal.sampling.Sampler;
import org.dyper.runtime.monitor.internal.sampling.StackStore;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.WireServer;
import org.dyper.runtime.wire.RegistryFiles;
import org.dyper.runtime.wire.Xml;

/**
 * The DYPER monitor of this JVM: its agents and their {@link Sampler}, the command server ({@link WireServer} on a
 * socket file in the owner-only registry folder),
 * the registry entry, and the START/END notifications. One per process; all its threads are
 * daemons named {@code dyper-monitor-*} and are never sampled.
 */
public final class Monitor {
    private static Monitor instance;

    public final long pid = ProcessHandle.current().pid();
    public final long startMillis;
    public final String mainClass;
    public final Options options;
    public final Instrumentation inst;
    public final Settings settings = new Settings();
    public final ClassTypes classTypes = new ClassTypes();
    public final CpuAgent cpu = new CpuAgent(settings, classTypes);
    public final ThreadsAgent threads = new ThreadsAgent();
    public final StackStore stacks = new StackStore((int) settings.longValue("MAXNODES"));
    final StacksAgent stacksAgent = new StacksAgent(stacks);
    public final JvmAgent jvm = new JvmAgent();
    public final List<DyperAgent> agents = new CopyOnWriteArrayList<>(List.of(cpu, threads, stacksAgent, jvm));
    public final Map<String, String> agentErrors = new ConcurrentHashMap<>();
    public final Set<Long> ownThreads = ConcurrentHashMap.newKeySet();
    public final Map<Long, Boolean> threadUse = new ConcurrentHashMap<>();
    final String token;
    public final Commands commands;
    public final Sampler sampler = new Sampler(this);
    /**
     * Open until {@link #start} has done its work on the caller's thread: the flight recorder and the dump loop wait
     * for it ({@link #awaitStarted}), so neither samples the agent's own start-up on the program's main thread
     * (premain), which the stack views would show as monitor frames (MonitorStacksTest saw that on a busy machine).
     */
    private final java.util.concurrent.CountDownLatch startDone = new java.util.concurrent.CountDownLatch(1);
    /** The thread that runs {@link #start} (premain: the program's main thread). */
    private volatile Thread startThread;
    public final MonitorReport report = new MonitorReport(this);
    public final Detailer detailer;
    private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    private WireServer server;
    private Path entry;
    /** The monitor on a NATS server ({@code nats} option), or null. */
    public volatile org.dyper.runtime.monitor.internal.nats.NatsLink nats;

    private Monitor(Options options, Instrumentation inst) {
        this.options = options;
        this.inst = inst;
        this.startMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
        this.mainClass = mainClass();
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.token = HexFormat.of().formatHex(secret);
        this.commands = new Commands(this);
        this.detailer = new Detailer(this);
    }

    /** Starts the monitor once per JVM; later calls (a second agent load) do nothing. Never throws. */
    public static synchronized void start(String args, Instrumentation inst, boolean atLaunch) {
        if (instance != null) {
            return;
        }
        Monitor m = null;
        try {
            Options options = Options.parse(args);
            m = new Monitor(options, inst);
            m.startThread = Thread.currentThread();
            m.settings.set(options.settings());
            m.applySettings();
            m.server = m.listen();
            m.daemon("dyper-monitor-watchdog", m::watchdog).start();
            m.register();
            instance = m;
            Thread hook = new Thread(m::shutdown, "dyper-monitor-exit");
            Runtime.getRuntime().addShutdownHook(hook);
            m.sampler.start();
            if (options.nats().url() != null) {
                m.nats = org.dyper.runtime.monitor.internal.nats.NatsLink.start(m, options.nats());
            }
            org.dyper.runtime.instrument.RuntimePatcher patcher = org.dyper.runtime.instrument.RuntimePatcher.get();
            if (patcher != null && inst != null) {
                // the first INSTRUMENT then costs what later ones do (Warmup); at the lowest priority, and only once
                // start returned, so that it never slows the program's premain (its class loading would contend)
                Monitor started = m;
                Thread warm = m.daemon("dyper-monitor-warmup", () -> {
                    started.awaitStarted();
                    patcher.warmUp(atLaunch);
                });
                warm.setPriority(Thread.MIN_PRIORITY);
                warm.start();
            }
            ReportHook.monitorAtExit(m.report::last);
            if (atLaunch && options.notifyAddress() != null) {
                m.notifyStart();
            }
        } catch (Throwable t) {
            if (instance == null && m != null && m.server != null) {
                m.server.close();
            }
            try {
                System.err.println("dyper: monitor not started: " + describe(t));
            } catch (Throwable ignored) {
                // nowhere to say it
            }
        } finally {
            if (m != null) {
                m.startDone.countDown();
            }
        }
    }

    /**
     * Waits (at most 10 s) until {@link #start} returned on its thread; at once after that. The latch opens inside
     * {@code start} (its last step wakes the waiters), so this also waits, at most 1 s, until that thread has left the
     * monitor's code: a stack sampled right after the latch opened showed it in {@code countDown} (MonitorStacksTest).
     */
    public void awaitStarted() {
        try {
            startDone.await(10, java.util.concurrent.TimeUnit.SECONDS);
            Thread t = startThread;
            long deadline = System.nanoTime() + 1_000_000_000L;
            while (t != null && t != Thread.currentThread() && t.isAlive() && inMonitor(t.getStackTrace())
                    && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            startThread = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean inMonitor(StackTraceElement[] stack) {
        for (StackTraceElement f : stack) {
            if (f.getClassName().startsWith("org.dyper.runtime.monitor.")) {
                return true;
            }
        }
        return false;
    }

    /** The monitor's own agents (their sections are not AGENT elements). */
    public boolean internal(DyperAgent a) {
        return a == cpu || a == threads || a == stacksAgent || a == jvm;
    }

    public static String describe(Throwable t) {
        return t.getMessage() == null ? t.getClass().getName() : t.getMessage();
    }

    public Thread daemon(String name, Runnable body) {
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

    public String reply(String body) {
        if (body == null || body.isEmpty()) {
            return "<DYPER_REPLY ID='" + pid + "'/>";
        }
        return "<DYPER_REPLY ID='" + pid + "'>" + body + "</DYPER_REPLY>";
    }

    public String error(String message) {
        return reply("<ERROR>" + Xml.text(message) + "</ERROR>");
    }

    // ---- registry ----

    private void register() throws IOException {
        Path dir = options.dir();
        RegistryFiles.createPrivateDirectories(dir);
        String insecure = org.dyper.runtime.monitor.MonitorEntry.insecureDirectory(dir);
        if (insecure != null) {
            System.err.println("dyper: warning: " + insecure);
        }
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("pid", Long.toString(pid));
        fields.putAll(server.endpoint().fields());
        fields.put("main", mainClass);
        fields.put("start", Long.toString(startMillis));
        fields.put("java", System.getProperty("java.version", ""));
        fields.put("token", token);
        entry = RegistryFiles.writePrivate(dir.resolve(pid + ".monitor"), fields);
    }

    /**
     * The command server: on the socket file {@code <dir>/<pid>.sock} (only the owner can reach it), else (the
     * {@code transport=tcp} option, a path too long for a socket file, a file system without them) on a loopback TCP
     * port, saying why in one line.
     */
    private WireServer listen() throws IOException {
        Path socket = options.tcp() ? null : options.dir().resolve(pid + ".sock");
        WireServer.Limits limits = new WireServer.Limits(options.maxConnections(), options.authTimeoutMillis(),
                options.frameTimeoutMillis(), options.idleTimeoutMillis(), WireServer.Limits.DEFAULT_BUDGET);
        if (socket != null) {
            RegistryFiles.createPrivateDirectories(options.dir());
        }
        WireServer s = new WireServer("DYPER", "monitor", pid, token, socket, limits, commands::handle, this::daemon,
                "dyper-monitor");
        if (socket != null && s.fallback() != null) {
            System.err.println("dyper: warning: the monitor listens on loopback TCP " + s.endpoint() + ", where any "
                    + "local user can connect (the token still guards it): " + s.fallback());
        }
        return s;
    }

    /**
     * Once a second: ends the program when the process that launched it ({@code launcher} option: {@code dyper run})
     * is gone, which only a SIGKILL of the launcher leaves behind (it passes every other signal on, see
     * docs/monitor.md).
     */
    private void watchdog() {
        long launcherPid = options.launcherPid();
        if (launcherPid <= 0) {
            return;
        }
        // the handle knows the process's start time, so a reused pid does not pass for the launcher
        ProcessHandle launcher = ProcessHandle.of(launcherPid).orElse(null);
        while (true) {
            try {
                Thread.sleep(1000);  // a poll: the launcher's end is not an event this process can wait for
                if (launcher == null || !launcher.isAlive()) {
                    System.err.println("dyper: the launcher of this program (process " + launcherPid + ") is gone: "
                            + "ending the program as SIGTERM would");
                    System.exit(143);
                }
            } catch (InterruptedException e) {
                return;
            } catch (Throwable ignored) {
                // next round
            }
        }
    }

    private void shutdown() {
        sampler.exiting(1000);
        if (nats != null) {
            nats.close();
        }
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
        server.close();
    }

    // ---- START / END ----

    private void notifyStart() {
        org.dyper.runtime.wire.Endpoint at = server.endpoint();
        String reply = notifyListener("<DYPER START='" + pid + "' " + (at.socket() != null ? "SOCKET='"
                + Xml.esc(at.socket().toString()) : "PORT='" + at.port()) + "'/>");
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
    public void applySettings() {
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
        detailer.apply();
    }

    /** Whether a connection asked for pushed reports and dumps. */
    public boolean pushing() {
        return server != null && server.pushing();
    }

    public void push(String message) {
        server.push(message);
    }
}
