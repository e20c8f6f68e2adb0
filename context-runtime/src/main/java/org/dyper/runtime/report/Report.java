package org.dyper.runtime.report;

import java.util.ArrayList;
import java.util.List;
import org.dyper.runtime.report.internal.ReportElement;
import org.dyper.runtime.report.internal.Stacks;

/**
 * One XML report, read and checked by {@link HtmlReport#read}: the exact measurements (a {@code DYPER_REPORT}), the
 * monitor's estimates (a {@code MONITOR_REPORT}) and its sampled stacks, whichever the file holds. Immutable but for
 * {@link #process}, which adds what the page says about the process beyond the XML.
 */
public final class Report {
    private final String label;
    private final ReportElement root;
    private final Stacks stacks;
    private Process process;

    Report(String label, ReportElement root, Stacks stacks) {
        this.label = label;
        this.root = root;
        this.stacks = stacks;
    }

    /**
     * What is known of the process apart from the XML: when it started (epoch ms, or -1), the {@code -javaagent}
     * arguments it was started with (they tell how it was woven), its Java version and main class (or null).
     */
    public record Process(long startMillis, List<String> agents, String javaVersion, String mainClass) {
        public Process {
            agents = List.copyOf(agents);
        }
    }

    /** The name the page and messages use for this report (usually its file name). */
    public String label() {
        return label;
    }

    /** The root element's name: DYPER_REPORT, MONITOR_REPORT or DYPER_REPLY. */
    public String rootName() {
        return root.tag();
    }

    public Report process(Process p) {
        this.process = p;
        return this;
    }

    public Process process() {
        return process;
    }

    /** Whether the report has a STACKS section. */
    public boolean hasStacks() {
        return stacks != null;
    }

    /** The names of its stack views (CPU, WALL, LOCK, ALLOC, ...), in document order; empty without stacks. */
    public List<String> views() {
        List<String> names = new ArrayList<>();
        if (stacks != null) {
            stacks.views().forEach(v -> names.add(v.name()));
        }
        return names;
    }

    /** Stack nodes over all views (the tree of all threads of each). */
    public int stackNodes() {
        return stacks == null ? 0 : stacks.nodes();
    }

    ReportElement root() {
        return root;
    }

    Stacks stacks() {
        return stacks;
    }
}
