package org.dyper.runtime.monitor.internal.commands;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.dyper.runtime.monitor.DyperAgent;
import org.w3c.dom.Element;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.monitor.internal.Settings;
import org.dyper.runtime.monitor.internal.agents.ClassTypes;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;
import org.dyper.runtime.wire.Frames;
import org.dyper.runtime.wire.Xml;

/** The commands of the DYPER language: one message in, one reply out; nothing here may throw. */
public final class Commands {
    private final Monitor m;
    /** INSTRUMENT and INSTRUMENTED (run-time patching), in a class of their own. */
    private final InstrumentCommands instrument;

    public Commands(Monitor m) {
        this.m = m;
        this.instrument = new InstrumentCommands(m);
    }

    /** The reply to one message: CLASSMODEL's is streamed, every other one is a string. */
    public Frames.Body handle(String message) {
        Element root;
        try {
            root = Xml.parse(message);
        } catch (Xml.BadXml e) {
            return Frames.Body.of(m.error(e.getMessage()));
        }
        String command = Xml.attr(root, "COMMAND") != null ? Xml.attr(root, "COMMAND") : Xml.attr(root, "XCOMMAND");
        String pid = Xml.attr(root, "PID");
        if (root.getTagName().equals("DYPER") && command != null && command.trim().equalsIgnoreCase("CLASSMODEL")
                && (pid == null || pid.trim().equals(Long.toString(m.pid)))) {
            try {
                List<Element> data = Xml.children(root);
                return ClassModel.reply(m, data.isEmpty() ? null : data.get(0));
            } catch (IllegalArgumentException e) {
                return Frames.Body.of(m.error(e.getMessage()));
            } catch (Throwable t) {
                return Frames.Body.of(m.error("internal error: " + t.getClass().getName() + ": " + t.getMessage()));
            }
        }
        return Frames.Body.of(answer(root));
    }

    private String answer(Element root) {
        try {
            if (!root.getTagName().equals("DYPER")) {
                return m.error("expected <DYPER COMMAND='...'>, got <" + root.getTagName() + ">");
            }
            String command = Xml.attr(root, "COMMAND");
            if (command == null) {
                command = Xml.attr(root, "XCOMMAND");
            }
            if (command == null) {
                return m.error("<DYPER> needs a COMMAND attribute");
            }
            String pid = Xml.attr(root, "PID");
            if (pid != null && !pid.trim().equals(Long.toString(m.pid))) {
                return m.error("this is process " + m.pid + ", not '" + pid + "'");
            }
            List<Element> data = Xml.children(root);
            Element first = data.isEmpty() ? null : data.get(0);
            return switch (command.trim().toUpperCase(Locale.ROOT)) {
                case "WHO" -> m.reply(null);
                case "WHORU" -> m.reply(whoru(null));
                case "PING" -> m.reply("PONG");
                case "SET" -> set(first);
                case "GET" -> get(first);
                case "CLEAR" -> clear(first);
                case "SETDETAIL" -> setDetail(first);
                case "CLASSES" -> classes(first);
                case "GETCLASSES" -> getClasses(first);
                case "REPORT" -> m.reply(m.report.xml(first == null ? "ALL" : attrOr(first, "TYPE", "ALL")));
                case "SHOWSTACK" -> m.reply(m.sampler.showStack());
                case "INSTRUMENT" -> instrument.instrument(first);
                case "INSTRUMENTED" -> instrument.instrumented();
                case "AGENT" -> agent(first);
                case "USETHREAD" -> useThread(first);
                case "EVENTS" -> TelemetryCommands.events(m, first);
                case "JFR" -> TelemetryCommands.jfr(m, first);
                case "HEAPDUMP" -> HeapDumpCommand.dump(m);
                case "WHATIF" -> m.reply(org.dyper.runtime.whatif.WhatIfControl.answer(first));
                default -> m.error("unknown command '" + command + "'");
            };
        } catch (IllegalArgumentException e) {
            return m.error(e.getMessage());
        } catch (Throwable t) {
            return m.error("internal error: " + t.getClass().getName() + ": " + t.getMessage());
        }
    }

    private static String attrOr(Element e, String name, String otherwise) {
        String v = Xml.attr(e, name);
        return v == null || v.isBlank() ? otherwise : v;
    }

    static Element need(Element e, String what, String... names) {
        if (e == null) {
            throw new IllegalArgumentException(what + " needs data: " + String.join(" or ", names));
        }
        for (String n : names) {
            if (n.startsWith("<" + e.getTagName() + " ") || n.startsWith("<" + e.getTagName() + ">")) {
                return e;
            }
        }
        throw new IllegalArgumentException(what + " expects " + String.join(" or ", names) + ", not <"
                + e.getTagName() + ">");
    }

    static boolean flag(Element e, String name, boolean otherwise) {
        String v = Xml.attr(e, name);
        if (v == null || v.isBlank()) {
            return otherwise;
        }
        Boolean b = Xml.flag(v);
        if (b == null) {
            throw new IllegalArgumentException(e.getTagName() + " " + name + " is a flag (true/false, t/f, 1/0), not '"
                    + v + "'");
        }
        return b;
    }

    // ---- WHORU ----

    /** What WHORU leaves out for a reader ({@link #whoru}): where secrets are often given. */
    public static final String WITHHELD = "JAVAARG ARG ENV PROPERTY";

    /**
     * WHORU's answer: the JVM's arguments, main class, program arguments, environment, system properties and times.
     * With {@code withheldBecause} (a reader on a broker's read subject, docs/fleet.md), the arguments, environment
     * and system properties are left out, since passwords and keys are often given there: only {@code java.version}
     * stays (WHO says it anyway), and a {@code <WITHHELD WHAT='JAVAARG ARG ENV PROPERTY'>} element says why.
     */
    public String whoru(String withheldBecause) {
        boolean all = withheldBecause == null;
        StringBuilder x = new StringBuilder(8192);
        if (all) {
            for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                x.append("<JAVAARG>").append(Xml.text(a)).append("</JAVAARG>");
            }
        }
        x.append("<START>").append(Xml.text(m.mainClass)).append("</START>");
        if (all) {
            for (String a : programArgs(ProcessHandle.current().info().arguments().orElse(null),
                    System.getProperty("sun.java.command", ""))) {
                x.append("<ARG>").append(Xml.text(a)).append("</ARG>");
            }
            for (Map.Entry<String, String> e : new TreeMap<>(System.getenv()).entrySet()) {
                x.append("<ENV KEY='").append(Xml.esc(e.getKey())).append("'>").append(Xml.text(e.getValue()))
                        .append("</ENV>");
            }
        }
        TreeMap<String, String> props = new TreeMap<>();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (all || name.equals("java.version")) {
                props.put(name, System.getProperty(name));
            }
        }
        for (Map.Entry<String, String> e : props.entrySet()) {
            x.append("<PROPERTY KEY='").append(Xml.esc(e.getKey())).append("'>").append(Xml.text(e.getValue()))
                    .append("</PROPERTY>");
        }
        if (!all) {
            x.append("<WITHHELD WHAT='").append(WITHHELD).append("'>").append(Xml.text(withheldBecause))
                    .append("</WITHHELD>");
        }
        x.append("<TIME MILLIS='").append(System.currentTimeMillis()).append("' NANO='").append(System.nanoTime())
                .append("' START='").append(m.startMillis).append("'/>");
        return x.toString();
    }

    /** The launcher options that take their value as the next argument. */
    private static final java.util.Set<String> WITH_VALUE = java.util.Set.of("-cp", "-classpath", "--class-path",
            "-p", "--module-path", "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-reads",
            "--add-exports", "--add-opens", "--patch-module", "--source", "--enable-native-access");

    /**
     * The program's own arguments. {@code argv} is the process's arguments after the {@code java} executable, exact
     * (blanks and empty arguments kept), where the OS gives them: the ones after the main class, {@code -jar JAR} or
     * {@code -m MODULE}. They are used only if they agree with {@code sunJavaCommand} (the JVM's own record, the
     * start and the arguments joined by blanks); otherwise, and with argument files ({@code @file}), the arguments
     * are that record split at blanks.
     */
    static List<String> programArgs(String[] argv, String sunJavaCommand) {
        String command = sunJavaCommand == null ? "" : sunJavaCommand.trim();
        List<String> split = new ArrayList<>(command.isEmpty() ? List.of() : List.of(command.split("\\s+")));
        List<String> fallback = split.isEmpty() ? List.of() : split.subList(1, split.size());
        if (argv == null) {
            return fallback;
        }
        int i = 0;
        while (i < argv.length) {
            String a = argv[i];
            if (a.startsWith("@")) {
                return fallback;
            } else if (WITH_VALUE.contains(a)) {
                i += 2;
            } else if (a.equals("-jar") || a.equals("-m") || a.equals("--module")) {
                i += 2;
                break;
            } else if (a.startsWith("--module=") || !a.startsWith("-")) {
                i++;
                break;
            } else {
                i++;
            }
        }
        if (i > argv.length) {
            return fallback;
        }
        List<String> exact = List.of(argv).subList(i, argv.length);
        String start = split.isEmpty() ? "" : split.get(0);
        String joined = exact.isEmpty() ? start : start + " " + String.join(" ", exact);
        return joined.trim().equals(command) ? exact : fallback;
    }

    // ---- SET / GET ----

    private String set(Element data) {
        need(data, "SET", "<VAR NAME VALUE/>", "<SETTINGS>");
        Map<String, String> values = new LinkedHashMap<>();
        List<Element> vars = data.getTagName().equals("VAR") ? List.of(data) : Xml.children(data);
        if (vars.isEmpty()) {
            throw new IllegalArgumentException("SET: <SETTINGS> holds no <VAR NAME VALUE/>");
        }
        for (Element v : vars) {
            if (!v.getTagName().equals("VAR")) {
                throw new IllegalArgumentException("SET: <SETTINGS> may hold only <VAR>, not <" + v.getTagName() + ">");
            }
            String name = Xml.attr(v, "NAME");
            if (name == null) {
                throw new IllegalArgumentException("SET: <VAR> needs a NAME");
            }
            values.put(name, Xml.attr(v, "VALUE"));
        }
        Map<String, Object> before = m.settings.set(values);
        try {
            m.applySettings();
        } catch (RuntimeException | Error e) {
            // every value was in range, so this is Dyper's fault: the SET still changes nothing
            m.settings.restore(before);
            m.applySettings();
            throw new IllegalStateException("SET " + String.join(", ", before.keySet()) + " could not be applied and"
                    + " changed nothing: " + e, e);
        }
        return m.reply("OK");
    }

    private String get(Element data) {
        if (data == null || data.getTagName().equals("SETTINGS") && Xml.children(data).isEmpty()) {
            StringBuilder x = new StringBuilder("<SETTINGS>");
            for (String name : Settings.VARS.keySet()) {
                x.append(var(name));
            }
            return m.reply(x.append("</SETTINGS>").toString());
        }
        need(data, "GET", "<VAR NAME/>", "<SETTINGS>");
        List<Element> vars = data.getTagName().equals("VAR") ? List.of(data) : Xml.children(data);
        StringBuilder x = new StringBuilder();
        for (Element v : vars) {
            x.append(var(Settings.lookup(Xml.attr(v, "NAME")).name()));
        }
        return m.reply(vars.size() == 1 ? x.toString() : "<SETTINGS>" + x + "</SETTINGS>");
    }

    private String var(String name) {
        return "<VAR NAME='" + name + "' VALUE='" + Xml.esc(m.settings.text(name)) + "' TYPE='"
                + Settings.VARS.get(name).type() + "'/>";
    }

    // ---- CLEAR / SETDETAIL / AGENT / USETHREAD ----

    private DyperAgent agentNamed(String name) {
        for (DyperAgent a : m.agents) {
            if (a.name().equalsIgnoreCase(name.trim())) {
                return a;
            }
        }
        List<String> names = new ArrayList<>();
        m.agents.forEach(a -> names.add(a.name()));
        throw new IllegalArgumentException("unknown agent '" + name + "' (agents: " + String.join(", ", names) + ")");
    }

    private String clear(Element data) {
        String name = data == null ? null : Xml.attr(need(data, "CLEAR", "<CLEAR AGENT/>"), "AGENT");
        synchronized (m.sampler.recording) {
            if (name == null || name.isBlank()) {
                for (DyperAgent a : m.agents) {
                    a.clear();
                }
                m.agentErrors.clear();
            } else {
                agentNamed(name).clear();
            }
        }
        return m.reply("OK");
    }

    private String setDetail(Element data) {
        need(data, "SETDETAIL", "<DETAIL ITEM VALUE AGENT/>", "<SETTINGS>");
        List<Element> items = data.getTagName().equals("DETAIL") ? List.of(data) : Xml.children(data);
        List<Runnable> changes = new ArrayList<>();
        for (Element d : items) {
            if (!d.getTagName().equals("DETAIL")) {
                throw new IllegalArgumentException("SETDETAIL: <SETTINGS> may hold only <DETAIL>, not <"
                        + d.getTagName() + ">");
            }
            String item = Xml.attr(d, "ITEM");
            if (item == null || item.isBlank()) {
                throw new IllegalArgumentException("SETDETAIL: <DETAIL> needs an ITEM");
            }
            Boolean value = Xml.flag(Xml.attr(d, "VALUE"));
            if (value == null) {
                throw new IllegalArgumentException("SETDETAIL: VALUE of " + item + " is a flag (true/false, t/f, 1/0),"
                        + " not '" + Xml.attr(d, "VALUE") + "'");
            }
            DyperAgent agent = agentNamed(attrOr(d, "AGENT", CpuAgent.NAME));
            changes.add(() -> {
                if (!agent.setDetail(item, value)) {
                    throw new IllegalArgumentException("agent " + agent.name() + " does not detail '" + item + "'");
                }
            });
        }
        for (Runnable r : changes) {
            r.run();
        }
        m.detailer.apply();
        return m.reply("OK");
    }

    private String agent(Element data) {
        need(data, "AGENT", "<AGENT CLASS/>");
        String name = Xml.attr(data, "CLASS");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("AGENT: <AGENT> needs a CLASS");
        }
        Class<?> type;
        try {
            // not initialised: a class that is no agent must not get to run its static initialiser
            type = Class.forName(name.trim(), false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("AGENT: class " + name + " not found on the class path");
        }
        if (!DyperAgent.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException("AGENT: " + name + " does not implement " + DyperAgent.class.getName());
        }
        if (!java.lang.reflect.Modifier.isPublic(type.getModifiers())
                || java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
            throw new IllegalArgumentException("AGENT: " + name + " must be a public class that is not abstract");
        }
        DyperAgent agent;
        try {
            agent = (DyperAgent) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new IllegalArgumentException("AGENT: cannot create " + name + " (a public no-argument constructor is"
                    + " needed): " + e);
        }
        String agentName = agent.name();
        synchronized (m.agents) {
            for (DyperAgent a : m.agents) {
                if (a.name().equalsIgnoreCase(agentName)) {
                    throw new IllegalArgumentException("AGENT: an agent named " + agentName + " is already there");
                }
            }
            m.agents.add(agent);
        }
        return m.reply("<AGENT NAME='" + Xml.esc(agentName) + "' CLASS='" + Xml.esc(name) + "'/>");
    }

    private String useThread(Element data) {
        need(data, "USETHREAD", "<THREADS>", "<THREAD ID IGNORE USE/>");
        List<Element> list = data.getTagName().equals("THREAD") ? List.of(data) : Xml.children(data);
        Map<Long, Boolean> changes = new LinkedHashMap<>();
        List<Long> defaults = new ArrayList<>();
        for (Element t : list) {
            if (!t.getTagName().equals("THREAD")) {
                throw new IllegalArgumentException("USETHREAD: <THREADS> may hold only <THREAD>, not <"
                        + t.getTagName() + ">");
            }
            long id;
            try {
                id = Long.parseLong(Xml.attr(t, "ID").trim());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("USETHREAD: <THREAD> needs a numeric ID, not '" + Xml.attr(t, "ID")
                        + "'");
            }
            boolean ignore = flag(t, "IGNORE", false);
            boolean use = flag(t, "USE", false);
            if (ignore) {
                changes.put(id, false);
            } else if (use) {
                changes.put(id, true);
            } else {
                defaults.add(id);
            }
        }
        m.threadUse.putAll(changes);
        defaults.forEach(m.threadUse::remove);
        return m.reply("OK");
    }

    // ---- CLASSES / GETCLASSES ----

    private String classes(Element data) {
        need(data, "CLASSES", "<CLASSES>");
        boolean clear = flag(data, "CLEAR", false);
        boolean clearIo = flag(data, "CLEARIO", false);
        boolean clearSystem = flag(data, "CLEARSYSTEM", false);
        List<Object[]> settings = new ArrayList<>();
        for (Element e : Xml.children(data)) {
            String name = Xml.attr(e, "NAME");
            if (!e.getTagName().equals("PACKAGE") && !e.getTagName().equals("CLASS")) {
                throw new IllegalArgumentException("CLASSES may hold only <PACKAGE> and <CLASS>, not <" + e.getTagName()
                        + ">");
            }
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("CLASSES: <" + e.getTagName() + "> needs a NAME");
            }
            settings.add(new Object[] {e.getTagName(), name.trim(), ClassTypes.Type.parse(attrOr(e, "TYPE", ""))});
        }
        m.classTypes.clear(clear, clearIo, clearSystem);
        for (Object[] s : settings) {
            if (s[0].equals("PACKAGE")) {
                m.classTypes.setPackage((String) s[1], (ClassTypes.Type) s[2]);
            } else {
                m.classTypes.setClass((String) s[1], (ClassTypes.Type) s[2]);
            }
        }
        return m.reply("OK");
    }

    private String getClasses(Element data) {
        ClassTypes.Type type = null;
        String prefix = null;
        if (data != null) {
            need(data, "GETCLASSES", "<MATCH TYPE NAME/>");
            String t = Xml.attr(data, "TYPE");
            type = t == null || t.isBlank() ? null : ClassTypes.Type.parse(t);
            prefix = Xml.attr(data, "NAME");
        }
        return m.reply(m.classTypes.xml(type, prefix));
    }
}
