package org.dyper.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.dyper.runtime.jfr.DyperEvents;
import org.dyper.runtime.jfr.Telemetry;

/**
 * {@code dyper events FILE}: Dyper's events in a JFR recording, one line each in time order (or JSON), optionally of one
 * kind; a recording whose Dyper events are of a major or median version this Dyper does not know is refused. Also
 * the launch properties of {@code dyper run --jfr}.
 */
final class EventsCommand implements CliCommand<EventsCommand.Parsed> {
    /** {@code recoverTo}: for {@code events recover DIR -o FILE}, FILE ({@code file} is then DIR). */
    record Parsed(Path file, String kind, boolean json, Path recoverTo) {
    }

    @Override
    public Help help() {
        return new Help("events", "print Dyper's events (dyper.*) of a JFR recording",
                "dyper events FILE.jfr [--kind KIND] [--json]\n       dyper events recover DIR -o FILE.jfr",
                InputOptions.help(new Options())
                        .addOption(Option.builder().longOpt("kind").hasArg().argName("KIND")
                                .desc("only this kind: " + String.join(", ", DyperEvents.KINDS.keySet())
                                        + " (default: every dyper.* event, the version included)").build())
                        .addOption(Option.builder().longOpt("json")
                                .desc("one JSON array of objects instead of lines").build())
                        .addOption(Option.builder("o").longOpt("out").hasArg().argName("FILE")
                                .desc("recover: the recording to write").build()),
                "Reads a recording made with dyper run --jfr, -Ddyper.jfr or dyper ctl PID jfr (docs/events.md).\n"
                        + "Lines: start time (UTC), type, thread, duration for traces, then the fields.\n"
                        + "recover: after SIGKILL or a crash, rebuilds a recording from the chunks JFR left in DIR\n"
                        + "(FILE.chunks for a recording to FILE), up to JFR's last flush (about a second before).",
                true);
    }

    @Override
    public Parsed parse(CommandLine line, List<String> javaArgs, Context context) throws UsageError {
        List<String> args = line.getArgList();
        if (!args.isEmpty() && args.get(0).equals("recover")) {
            if (args.size() != 2 || !line.hasOption("out")) {
                throw new UsageError("recover: give the chunk folder and the file to write: dyper events recover DIR "
                        + "-o FILE.jfr");
            }
            if (line.hasOption("kind") || line.hasOption("json")) {
                throw new UsageError("recover: --kind and --json are for reading; read the recovered file with "
                        + "dyper events FILE.jfr");
            }
            Path out = Path.of(line.getOptionValue("out"));
            if (Files.isDirectory(out)) {
                throw new UsageError("-o " + out + " is a folder: give the path of the .jfr file to write");
            }
            return new Parsed(Path.of(args.get(1)), null, false, out);
        }
        if (line.hasOption("out")) {
            throw new UsageError("-o is for dyper events recover DIR -o FILE.jfr");
        }
        if (args.size() != 1) {
            throw new UsageError("give one recording: dyper events FILE.jfr");
        }
        String kind = line.getOptionValue("kind");
        if (kind != null && !DyperEvents.KINDS.containsKey(kind.toLowerCase(Locale.ROOT))) {
            throw new UsageError("--kind " + kind + ": kinds are " + String.join(", ", DyperEvents.KINDS.keySet()));
        }
        return new Parsed(Path.of(args.get(0)), kind == null ? null : kind.toLowerCase(Locale.ROOT),
                line.hasOption("json"), null);
    }

    @Override
    public int run(Parsed p, Context context) throws CommandFailure {
        if (p.recoverTo() != null) {
            return recover(p, context);
        }
        if (!Files.isRegularFile(p.file())) {
            throw new CommandFailure(ExitCode.IO_ERROR, p.file() + ": no such file");
        }
        List<RecordedEvent> events;
        try {
            events = new ArrayList<>();
            for (RecordedEvent e : RecordingFile.readAllEvents(p.file())) {
                if (e.getEventType().getName().startsWith(DyperEvents.PREFIX)) {
                    events.add(e);
                }
            }
        } catch (NoSuchFileException e) {
            throw new CommandFailure(ExitCode.IO_ERROR, p.file() + ": no such file");
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, p.file() + ": not a readable JFR recording ("
                    + e.getMessage() + ")");
        }
        for (RecordedEvent e : events) {
            if (e.getEventType().getName().equals(DyperEvents.PREFIX + "Version")
                    && (e.getInt("major") != DyperEvents.MAJOR || e.getInt("median") > DyperEvents.MEDIAN)) {
                throw new CommandFailure(ExitCode.INVALID_INPUT, p.file() + ": Dyper events of version "
                        + e.getString("version") + ", which this Dyper (" + DyperEvents.VERSION + ") cannot read");
            }
        }
        Set<String> types = p.kind() == null ? null : Set.copyOf(DyperEvents.KINDS.get(p.kind()));
        events.removeIf(e -> types != null && !types.contains(e.getEventType().getName()));
        events.sort(Comparator.comparing(RecordedEvent::getStartTime));
        PrintStream out = context.out();
        if (p.json()) {
            out.println("[");
            for (int i = 0; i < events.size(); i++) {
                out.println("  " + json(events.get(i)) + (i + 1 < events.size() ? "," : ""));
            }
            out.println("]");
        } else {
            for (RecordedEvent e : events) {
                out.println(line(e));
            }
        }
        return ExitCode.OK;
    }

    private static int recover(Parsed p, Context context) throws CommandFailure {
        RecoverRecording.Result r;
        try {
            r = RecoverRecording.recover(p.file(), p.recoverTo());
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.IO_ERROR, p.file() + ": " + e.getClass().getSimpleName() + ": "
                    + e.getMessage());
        }
        for (String s : r.skipped()) {
            context.err().println("dyper: events recover: left out " + s);
        }
        PrintStream out = context.out();
        out.println("recovered " + r.used().size() + " chunk(s) from " + r.used().get(0).file().getParent() + " to "
                + p.recoverTo().toAbsolutePath());
        for (RecoverRecording.Chunk c : r.used()) {
            out.println("  " + c.file().getFileName() + "  " + c.size() + " bytes"
                    + (c.inProgress() ? "  (was being written: cut at its last flush)" : ""));
        }
        out.println(r.events() + " events (" + r.dyperEvents() + " of Dyper's), the last ending at " + r.lastEvent());
        return ExitCode.OK;
    }

    private static String line(RecordedEvent e) {
        StringBuilder b = new StringBuilder();
        b.append(e.getStartTime()).append("  ").append(e.getEventType().getName());
        RecordedThread t = e.getThread();
        if (t != null) {
            b.append("  thread=").append(t.getJavaName());
        }
        if (e.getEventType().getName().equals(DyperEvents.PREFIX + "MethodTrace")) {
            b.append("  duration=").append(e.getDuration().toNanos()).append("ns");
        }
        for (ValueDescriptor v : own(e)) {
            b.append("  ").append(v.getName()).append('=')
                    .append(oneLine(String.valueOf((Object) e.getValue(v.getName()))));
        }
        return b.toString();
    }

    /** A value on the event's one line: line breaks written as {@code \\n} and {@code \\r}. */
    private static String oneLine(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String json(RecordedEvent e) {
        StringBuilder b = new StringBuilder("{");
        b.append("\"type\": ").append(quote(e.getEventType().getName()));
        b.append(", \"startTime\": ").append(quote(e.getStartTime().toString()));
        b.append(", \"durationNs\": ").append(e.getDuration().toNanos());
        RecordedThread t = e.getThread();
        b.append(", \"thread\": ").append(t == null ? "null" : quote(t.getJavaName()));
        for (ValueDescriptor v : own(e)) {
            Object value = e.getValue(v.getName());
            b.append(", ").append(quote(v.getName())).append(": ")
                    .append(value instanceof Number || value instanceof Boolean ? value.toString()
                            : value == null ? "null" : quote(value.toString()));
        }
        return b.append('}').toString();
    }

    /** The event's own fields: not JFR's start time, duration, thread and stack trace. */
    private static List<ValueDescriptor> own(RecordedEvent e) {
        return e.getFields().stream().filter(v -> !Set.of("startTime", "duration", "eventThread", "stackTrace")
                .contains(v.getName())).toList();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** The words after {@code dyper ctl PID} this class turns into monitor commands. */
    static final Set<String> CTL = Set.of("events", "jfr");
    static final String CTL_HELP = "PID events [KIND=on|off | KIND.threshold=DURATION | KIND.period=DURATION ...]: show or "
            + "set the\n"
            + "  kinds of Dyper's JFR events (docs/events.md); PID jfr start FILE [SETTINGS] | dump FILE | stop:\n"
            + "  Dyper's recording in the program (FILE as the program sees it).\n";

    /**
     * {@code dyper ctl PID events [SETTING...]} as the monitor's EVENTS command, {@code dyper ctl PID jfr
     * start|dump|stop ...} as its JFR command ({@code words} starts with {@code events} or {@code jfr}).
     */
    static CtlCommand.Send ctl(long pid, List<String> words, boolean xml, int width) throws UsageError {
        StringBuilder data = new StringBuilder();
        if (words.get(0).equals("events")) {
            if (words.size() > 1) {
                data.append("<EVENTS>");
                for (String w : words.subList(1, words.size())) {
                    try {
                        Telemetry.check(w);
                    } catch (IllegalArgumentException e) {
                        throw new UsageError("events " + e.getMessage());
                    }
                    data.append("<SET VALUE='").append(org.dyper.runtime.wire.Xml.esc(w)).append("'/>");
                }
                data.append("</EVENTS>");
            }
            return new CtlCommand.Send(pid, "EVENTS", data.length() == 0 ? null : data.toString(), xml, width);
        }
        String action = words.size() > 1 ? words.get(1) : "";
        int expected = switch (action) {
            case "start" -> words.size() == 3 || words.size() == 4 ? words.size() : -1;
            case "dump" -> 3;
            case "stop" -> 2;
            default -> throw new UsageError("jfr: say start FILE [SETTINGS], dump FILE or stop, not '" + action + "'");
        };
        if (expected != words.size()) {
            throw new UsageError("jfr " + action + ": expected " + switch (action) {
                case "start" -> "FILE [SETTINGS]";
                case "dump" -> "FILE";
                default -> "nothing more";
            } + ", got " + (words.size() - 2) + " argument(s)");
        }
        data.append("<JFR ACTION='").append(action.toUpperCase(Locale.ROOT)).append('\'');
        if (words.size() > 2) {
            data.append(" FILE='").append(org.dyper.runtime.wire.Xml.esc(Path.of(words.get(2)).toAbsolutePath()
                    .toString())).append('\'');
        }
        if (words.size() > 3) {
            data.append(" SETTINGS='").append(org.dyper.runtime.wire.Xml.esc(words.get(3))).append('\'');
        }
        return new CtlCommand.Send(pid, "JFR", data.append("/>").toString(), xml, width);
    }

    /** The java options of {@code dyper run --jfr FILE --jfr-settings S}: none without a file. */
    static List<String> launchProperties(String file, String settings) throws UsageError {
        if (file == null) {
            if (settings != null) {
                throw new UsageError("--jfr-settings needs --jfr FILE");
            }
            return List.of();
        }
        List<String> p = new ArrayList<>();
        p.add("-D" + Telemetry.JFR_PROPERTY + "=" + Path.of(file).toAbsolutePath());
        if (settings != null) {
            p.add("-D" + Telemetry.SETTINGS_PROPERTY + "=" + settings);
        }
        return p;
    }

    /** {@code command} (a java command) with {@code properties} right after the java executable. */
    static List<String> withProperties(List<String> command, List<String> properties) {
        if (properties.isEmpty()) {
            return command;
        }
        List<String> c = new ArrayList<>(command);
        c.addAll(1, properties);
        return c;
    }
}
