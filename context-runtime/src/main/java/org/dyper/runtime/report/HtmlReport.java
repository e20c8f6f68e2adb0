package org.dyper.runtime.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.io.AtomicWrite;
import org.dyper.runtime.report.internal.Page;
import org.dyper.runtime.report.internal.ReportParser;
import org.dyper.runtime.report.internal.StackTree;
import org.dyper.runtime.report.internal.Stacks;
import org.xml.sax.InputSource;

/**
 * Turns XML reports into one self-contained HTML page (style and scripts inline, nothing fetched): a summary, flame
 * graphs of the sampled stacks and tables of the exact measurements; also collapsed stacks and differential pages.
 * JDK only, so the exit hook of the runtime ({@code -Ddyper.report.html}) and the {@code dyper report} command share
 * it.
 */
public final class HtmlReport {
    private HtmlReport() {
    }

    /** Reads and checks a report file; problems name the file as {@code label}. */
    public static Report read(Path file, String label) throws IOException, BadReportException {
        try (InputStream in = Files.newInputStream(file)) {
            if (Files.size(file) == 0) {
                throw new BadReportException(List.of(label + ": the file is empty"));
            }
            return read(label, new InputSource(in));
        }
    }

    /** Reads and checks a report from a stream (bytes; the XML declaration names the encoding, else UTF-8). */
    public static Report read(String label, InputStream in) throws IOException, BadReportException {
        return read(label, new InputSource(in));
    }

    /** Reads and checks a report held as text. */
    public static Report read(String label, String xml) throws BadReportException {
        try {
            return read(label, new InputSource(new StringReader(xml)));
        } catch (IOException e) {
            throw new IllegalStateException(e);  // a StringReader does not fail
        }
    }

    private static Report read(String label, InputSource in) throws IOException, BadReportException {
        ReportParser.Result r = ReportParser.parse(label, in);
        if (!r.problems().isEmpty()) {
            throw new BadReportException(r.problems());
        }
        return new Report(label, r.root(), r.stacks());
    }

    /** The page of one report. */
    public static String page(Report report, String title) {
        return Page.render(title, List.of(run(report)), false);
    }

    /**
     * A differential page: the flame graph is drawn from {@code after} (or, on request, {@code before}) and coloured by
     * how each frame's share changed (red: a larger share after, slower; blue: smaller, faster); the tables compare the
     * exact measurements of both.
     */
    public static String diff(Report before, Report after, String title) {
        return Page.render(title, List.of(run(before), run(after)), true);
    }

    private static Page.Run run(Report r) {
        Report.Process p = r.process();
        return new Page.Run(r.label(), r.root(), r.stacks(), p == null ? -1 : p.startMillis(),
                p == null ? List.of() : p.agents(), p == null ? null : p.javaVersion(),
                p == null ? null : p.mainClass(), p != null);
    }

    /**
     * The collapsed stacks of one view ({@code frame;frame;... weight} per line, root first; the format of FlameGraph's
     * {@code flamegraph.pl} and speedscope), of all threads or of one ({@code thread}: its id or name, or null).
     *
     * @throws IllegalArgumentException naming what exists when the report has no stacks, no such view or no such
     *     thread
     */
    public static String collapsed(Report report, String view, String thread) {
        Stacks stacks = report.stacks();
        if (stacks == null) {
            throw new IllegalArgumentException(report.label() + " has no STACKS section (sampled stacks come from the "
                    + "DYPER monitor's REPORT)");
        }
        Stacks.View v = stacks.view(view);
        if (v == null) {
            throw new IllegalArgumentException(report.label() + " has no " + view + " view (it has: "
                    + (report.views().isEmpty() ? "none" : String.join(", ", report.views())) + ")");
        }
        StackTree tree = v.tree();
        if (thread != null) {
            tree = v.thread(thread);
            if (tree == null) {
                List<String> names = v.threadNames();
                throw new IllegalArgumentException(report.label() + ": the " + v.name() + " view has no thread '"
                        + thread + "' (threads: " + (names.isEmpty() ? "none listed" : String.join(", ", names)) + ")");
            }
        }
        return collapsed(tree);
    }

    private static String collapsed(StackTree tree) {
        StringBuilder out = new StringBuilder();
        tree.collapsed(out);
        return out.toString();
    }

    /**
     * Writes {@code text} (UTF-8) to {@code file} through a temporary file in the same folder that is then renamed
     * over it, so a reader never sees half a file and a failure leaves the old one alone ({@link AtomicWrite}).
     */
    public static void write(Path file, String text) throws IOException {
        AtomicWrite.write(file, text);
    }

    /** This JVM as {@link Report.Process}: its start, {@code -javaagent} arguments and Java version, where known. */
    public static Report.Process thisProcess() {
        ProcessHandle.Info info = ProcessHandle.current().info();
        long start = info.startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
        List<String> args = info.arguments().map(List::of).orElse(List.of());
        String command = System.getProperty("sun.java.command");
        String main = command == null || command.isBlank() ? null : command.trim().split("\\s+")[0];
        return new Report.Process(start, agents(args), System.getProperty("java.version"), main);
    }

    /** The {@code -javaagent} arguments among a JVM's arguments. */
    public static List<String> agents(List<String> jvmArguments) {
        List<String> agents = new ArrayList<>();
        for (String a : jvmArguments) {
            if (a.startsWith("-javaagent:")) {
                agents.add(a);
            }
        }
        return agents;
    }
}
