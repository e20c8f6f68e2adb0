package org.dyper.runtime.monitor;

import java.util.Locale;
import java.util.Map;

/**
 * Which DYPER commands change the program and which only read it: the one list the monitor's NATS subjects and
 * {@code dyper ctl --nats} go by (docs/fleet.md). A command that changes the program, or reads what only an operator
 * may read (the program's class files), is answered only on a JVM's control subject, which NATS permissions grant to
 * some users; on the read subject it gets an error. A command not in the list counts as a change (closed by default).
 */
public final class CommandAccess {
    private CommandAccess() {
    }

    /** How a command is treated. */
    public enum Access {
        /** Reads only. */
        READ,
        /** Reads only, but what a reader may not see: the program's class files (CLASSMODEL). */
        CONTROL_READ,
        /** Changes the program, its settings, its recorded data or files on its machine. */
        CONTROL,
        /** Reads without data, changes with it (EVENTS: its SET elements change the event settings). */
        CONTROL_WITH_DATA
    }

    /** Every command of the monitor (Commands' switch; CommandAccessTest checks that the two agree). */
    public static final Map<String, Access> COMMANDS = Map.ofEntries(
            Map.entry("WHO", Access.READ),
            Map.entry("WHORU", Access.READ),
            Map.entry("PING", Access.READ),
            Map.entry("GET", Access.READ),
            Map.entry("GETCLASSES", Access.READ),
            Map.entry("REPORT", Access.READ),
            Map.entry("SHOWSTACK", Access.READ),
            Map.entry("INSTRUMENTED", Access.READ),
            Map.entry("CLASSMODEL", Access.CONTROL_READ),
            Map.entry("EVENTS", Access.CONTROL_WITH_DATA),
            Map.entry("SET", Access.CONTROL),
            Map.entry("CLEAR", Access.CONTROL),
            Map.entry("SETDETAIL", Access.CONTROL),
            Map.entry("CLASSES", Access.CONTROL),
            Map.entry("INSTRUMENT", Access.CONTROL),
            Map.entry("AGENT", Access.CONTROL),
            Map.entry("USETHREAD", Access.CONTROL),
            Map.entry("JFR", Access.CONTROL),
            Map.entry("HEAPDUMP", Access.CONTROL),
            Map.entry("WHATIF", Access.CONTROL));

    /** How {@code command} (any case) is treated, or null when it is no command of the monitor. */
    public static Access of(String command) {
        return command == null ? null : COMMANDS.get(command.trim().toUpperCase(Locale.ROOT));
    }

    /**
     * Whether {@code command} (any case) with data ({@code hasData}) is answered only on the control subject: it
     * changes the program, or reads what only an operator may read.
     */
    public static boolean controlOnly(String command, boolean hasData) {
        Access a = of(command);
        return a == null || a == Access.CONTROL || a == Access.CONTROL_READ
                || a == Access.CONTROL_WITH_DATA && hasData;
    }
}
