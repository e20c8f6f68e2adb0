package org.dyper.runtime.monitor.internal;

import java.util.List;
import java.util.Locale;
import org.dyper.runtime.internal.ReportHook;
import org.dyper.runtime.internal.Reports;
import org.dyper.runtime.monitor.DyperAgent;
import org.dyper.runtime.monitor.internal.commands.InstrumentCommands;
import org.dyper.runtime.monitor.internal.detailing.DetailReport;
import org.dyper.runtime.wire.Xml;

/** REPORT's {@code <MONITOR_REPORT>}: the sections of the monitor's agents, or one of them (TYPE). */
public final class MonitorReport {
    static final List<String> TYPES = List.of("ALL", "CPU", "CONTENTION", "STACKS", "JVM", "INSTRUMENTATION",
            "DETAIL", "PATCHES", "AGENTS", "ANSWERS");

    private final Monitor m;

    MonitorReport(Monitor m) {
        this.m = m;
    }

    public String xml(String type) {
        String t = type.trim().toUpperCase(Locale.ROOT);
        if (!TYPES.contains(t)) {
            throw new IllegalArgumentException("unknown REPORT TYPE '" + type + "' (" + String.join(", ", TYPES) + ")");
        }
        return xml(t, true);
    }

    /**
     * The monitor's last report, for the XML report written at the JVM's exit: every section but INSTRUMENTATION
     * (that file holds it already), after the recorder has handed over its last events (waiting at most 2 s).
     */
    String last() {
        m.sampler.awaitLastEvents(2000);
        return xml("ALL", false);
    }

    private String xml(String t, boolean instrumentation) {
        boolean all = t.equals("ALL");
        StringBuilder x = new StringBuilder(65536);
        x.append("<MONITOR_REPORT VERSION='1' PID='").append(m.pid).append("' TIME='")
                .append(System.currentTimeMillis()).append("' START='").append(m.startMillis).append("' MAIN='")
                .append(Xml.esc(m.mainClass)).append("' MONITOR='").append(m.settings.bool("MONITOR"))
                .append("' CHECKTIME='").append(m.settings.longValue("CHECKTIME")).append("'>");
        if (instrumentation && (all || t.equals("INSTRUMENTATION"))) {
            x.append("<INSTRUMENTATION EXACT='true' ACTIVE='").append(ReportHook.installed()).append("'>");
            if (ReportHook.installed()) {
                x.append(Reports.xml(Reports.Data.now()).trim());
            }
            x.append("</INSTRUMENTATION>");
        }
        if (all || t.equals("CPU")) {
            x.append(m.cpu.report(m.sampler.source(), m.sampler.event(), m.sampler.ownCpuNs()));
        }
        if (all || t.equals("CONTENTION")) {
            x.append(m.threads.report());
        }
        if (all || t.equals("STACKS")) {
            x.append(m.stacks.xml(m.sampler.source(), (int) m.settings.longValue("MAXDEPTH"),
                    (int) m.settings.longValue("MAXPATHS"), 64));
        }
        if (all || t.equals("JVM")) {
            x.append(m.jvm.report());
        }
        if (all || t.equals("DETAIL")) {
            x.append(DetailReport.xml(m, m.detailer));
        }
        if (t.equals("ANSWERS")) {
            // the questions' answers alone (ALL has them inside INSTRUMENTATION's report)
            x.append(org.dyper.runtime.ask.AnswerReport.xml().trim());
        }
        if (all || t.equals("PATCHES")) {
            x.append(InstrumentCommands.reportSection());
        }
        if (all || t.equals("AGENTS")) {
            for (DyperAgent a : m.agents) {
                if (m.internal(a)) {
                    continue;
                }
                x.append("<AGENT NAME='").append(Xml.esc(a.name())).append("'");
                String error = m.agentErrors.get(a.name());
                try {
                    String section = a.report();
                    Xml.parse(section);
                    x.append(error == null ? "" : " ERROR='" + Xml.esc(error) + "'").append('>').append(section);
                } catch (Throwable e) {
                    x.append(" ERROR='").append(Xml.esc("report failed: " + e)).append("'>");
                }
                x.append("</AGENT>");
            }
        }
        return x.append("</MONITOR_REPORT>").toString();
    }
}
