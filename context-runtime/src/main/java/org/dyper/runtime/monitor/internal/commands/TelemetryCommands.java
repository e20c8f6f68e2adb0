package org.dyper.runtime.monitor.internal.commands;

import java.util.Locale;
import org.dyper.runtime.jfr.DyperEvents;
import org.dyper.runtime.jfr.Telemetry;
import org.dyper.runtime.monitor.internal.Monitor;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * The monitor's EVENTS and JFR commands, a front end to {@link Telemetry}: EVENTS applies kind settings
 * ({@code <EVENTS><SET VALUE='method.threshold=10ms'/>...</EVENTS>}, all checked before any is applied) and replies with
 * every kind's settings; JFR starts, dumps or stops Dyper's recording ({@code <JFR ACTION FILE SETTINGS/>}). Formats
 * in docs/monitor.md.
 */
final class TelemetryCommands {
    private TelemetryCommands() {
    }

    static String events(Monitor m, Element data) {
        if (data != null) {
            if (!data.getTagName().equals("EVENTS")) {
                throw new IllegalArgumentException("EVENTS expects <EVENTS> with <SET VALUE='KIND=on|off'/> "
                        + "elements, not <" + data.getTagName() + ">");
            }
            java.util.List<String> parts = new java.util.ArrayList<>();
            for (Element set : Xml.children(data)) {
                String v = set.getTagName().equals("SET") ? Xml.attr(set, "VALUE") : null;
                if (v == null || v.isBlank()) {
                    throw new IllegalArgumentException("EVENTS: expected <SET VALUE='...'/>, got <" + set.getTagName()
                            + ">");
                }
                parts.add(v.trim());
            }
            for (String p : parts) {
                Telemetry.check(p);
            }
            for (String p : parts) {
                apply(() -> Telemetry.set(p), "EVENTS");
            }
        }
        StringBuilder x = new StringBuilder("<EVENTS VERSION='").append(DyperEvents.VERSION).append("' RECORDING='")
                .append(Xml.esc(Telemetry.recordingFile())).append("' REPOSITORY='")
                .append(Xml.esc(Telemetry.repository())).append("'>");
        apply(() -> {
            for (String[] k : Telemetry.kinds()) {
                x.append("<KIND NAME='").append(Xml.esc(k[0])).append("' TYPES='").append(Xml.esc(k[1]))
                        .append("' ENABLED='").append(k[2]).append("' THRESHOLD='").append(Xml.esc(k[3]))
                        .append("' PERIOD='").append(Xml.esc(k[4])).append("'/>");
            }
        }, "EVENTS");
        return m.reply(x.append("</EVENTS>").toString());
    }

    static String jfr(Monitor m, Element data) {
        if (data == null || !data.getTagName().equals("JFR")) {
            throw new IllegalArgumentException("JFR expects <JFR ACTION='START|DUMP|STOP' FILE='...'/>"
                    + (data == null ? "" : ", not <" + data.getTagName() + ">"));
        }
        String action = Xml.attr(data, "ACTION") == null ? "" : Xml.attr(data, "ACTION").toUpperCase(Locale.ROOT);
        String file = Xml.attr(data, "FILE");
        String[] done = new String[1];
        switch (action) {
            case "START", "DUMP" -> {
                if (file == null || file.isBlank()) {
                    throw new IllegalArgumentException("JFR ACTION='" + action + "' needs a FILE");
                }
                apply(() -> {
                    try {
                        done[0] = action.equals("START") ? Telemetry.startRecording(file, Xml.attr(data, "SETTINGS"))
                                : Telemetry.dumpRecording(file);
                    } catch (RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
                    }
                }, "JFR " + action);
            }
            case "STOP" -> apply(() -> done[0] = Telemetry.stopRecording(), "JFR STOP");
            default -> throw new IllegalArgumentException("JFR ACTION is START, DUMP or STOP, not '"
                    + Xml.attr(data, "ACTION") + "'");
        }
        String chunks = action.equals("STOP") ? null : Telemetry.repository();
        return m.reply("<JFR ACTION='" + action + "' FILE='" + Xml.esc(done[0]) + "'"
                + (chunks == null ? "" : " REPOSITORY='" + Xml.esc(chunks) + "'") + "/>");
    }

    /** Runs {@code r}; what JFR refuses (no JFR here, no recording running) becomes the command's error. */
    private static void apply(Runnable r, String command) {
        try {
            r.run();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(command + ": " + e.getMessage(), e);
        }
    }
}
