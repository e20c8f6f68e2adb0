package org.dyper.runtime.internal;

import java.io.IOException;
import java.nio.file.Paths;
import org.dyper.runtime.report.BadReportException;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.runtime.report.Report;

/**
 * The HTML page written at exit ({@code -Ddyper.report.html=FILE}): the XML report read back and rendered in this
 * JVM by the runtime's own renderer, so nothing but the runtime jar has to be on the program's class path.
 */
final class ExitPage {
    private ExitPage() {
    }

    static void write(String target, String xmlReport) throws IOException {
        Report report;
        try {
            report = HtmlReport.read("the exit report", xmlReport);
        } catch (BadReportException e) {
            // the runtime wrote that XML itself: a problem here is a bug, said in one line like other report failures
            throw new IOException("the XML report could not be read back: " + e.problems().get(0));
        }
        Report.Process process = HtmlReport.thisProcess();
        report.process(process);
        String title = "Dyper report" + (process.mainClass() == null ? "" : ": " + process.mainClass()) + " (pid "
                + ProcessHandle.current().pid() + ")";
        HtmlReport.write(Paths.get(target), HtmlReport.page(report, title));
    }
}
