package org.dyper.runtime.internal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.dyper.runtime.io.AtomicWrite;

/** Writes the reports to the destinations named by the system properties, now or at JVM exit. */
public final class ReportHook {
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();
    private static final Object WRITING = new Object();
    private static volatile Supplier<String> monitor;

    private ReportHook() {
    }

    /**
     * Whether any agent or {@code Dyper} itself has been used in this JVM (it installs the hook): the monitor asks,
     * so that a REPORT of an uninstrumented program does not load the collection context and its exit report.
     */
    public static boolean installed() {
        return INSTALLED.get();
    }

    /** Installs the shutdown hook once; if the JVM is already shutting down there is nothing to do. */
    public static void install() {
        if (INSTALLED.compareAndSet(false, true)) {
            hook();
        }
    }

    /**
     * The DYPER monitor of this JVM: its last {@code <MONITOR_REPORT>} (made by {@code lastReport} at exit) becomes
     * the last child of the XML report written at exit. When {@code dyper.report.xml} is set, that report is written
     * even if the program was not instrumented (then only the XML report: no text report).
     */
    public static void monitorAtExit(Supplier<String> lastReport) {
        monitor = lastReport;
        String xml = Config.property(Config.REPORT_XML);
        String html = Config.property(Config.REPORT_HTML);
        if (xml != null && !xml.isBlank() || html != null && !html.isBlank()) {
            hook();
        }
    }

    private static void hook() {
        if (!HOOKED.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> write(true), "dyper-report"));
        } catch (Throwable ignored) {
            // IllegalStateException during shutdown, or a security manager: no report at exit, nothing to tell
        }
    }

    /**
     * Writes the text report ({@code dyper.report}), the XML report ({@code dyper.report.xml}) and the HTML page of the
     * XML report ({@code dyper.report.html}); never throws.
     */
    public static void write() {
        write(false);
    }

    /**
     * As {@link #write()}; {@code atExit}: the report the shutdown hook writes, where a text report to the default
     * destination (no {@code dyper.report}) is left out when it would hold nothing (no events, no failures): a
     * program whose patches only call the user's own modes ends as quietly as it would unpatched; and the XML report
     * (and the page made of it) ends with the monitor's last report when the monitor runs here.
     */
    private static void write(boolean atExit) {
        try {
            synchronized (WRITING) {
                String textTarget = Config.property(Config.REPORT);
                String xmlTarget = Config.property(Config.REPORT_XML);
                boolean text = INSTALLED.get() && (textTarget == null || !textTarget.trim().equalsIgnoreCase("none"));
                boolean xml = xmlTarget != null && !xmlTarget.isBlank();
                String htmlTarget = Config.property(Config.REPORT_HTML);
                boolean html = htmlTarget != null && !htmlTarget.isBlank();
                if (!text && !xml && !html) {
                    return;
                }
                Reports.Data data = Reports.Data.now();
                if (text && atExit && textTarget == null && Reports.empty(data)) {
                    text = false;
                }
                if (text) {
                    writeText(textTarget == null ? "stderr" : textTarget.trim(), Reports.text(data));
                }
                Supplier<String> m = atExit ? monitor : null;
                String xmlReport = xml || html ? Reports.xml(data, m == null ? null : m.get()) : null;
                if (xml) {
                    writeFile(xmlTarget.trim(), xmlReport);
                }
                if (html) {
                    ExitPage.write(htmlTarget.trim(), xmlReport);
                }
            }
        } catch (Throwable t) {
            try {
                System.err.println("dyper: report failed: " + Failures.describe(t));
            } catch (Throwable ignored) {
                // nowhere left to say it
            }
        }
    }

    private static void writeText(String target, String report) throws IOException {
        if (target.isEmpty() || target.equalsIgnoreCase("stderr")) {
            print(System.err, report);
        } else if (target.equalsIgnoreCase("stdout")) {
            print(System.out, report);
        } else {
            writeFile(target, report);
        }
    }

    private static void print(PrintStream stream, String report) throws IOException {
        stream.print(report);
        stream.flush();
        if (stream.checkError()) {
            throw new IOException("could not write the report to the console");
        }
    }

    /**
     * Writes {@code report} to the file {@code target} through a temporary file in the same folder that is renamed over
     * it once complete: a kill or a crash never leaves half a report, and the previous report stays whole until the
     * new one replaces it. The file keeps the permissions of the one it replaces (a new one gets the umask's).
     * Temporary files of processes that died while writing here are removed. A target that exists and is not a
     * regular file (a pipe, {@code /dev/stderr}) is written directly.
     */
    static void writeFile(String target, String report) throws IOException {
        AtomicWrite.write(Paths.get(target), report);
    }
}
