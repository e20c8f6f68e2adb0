package org.dyper.cli.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.dyper.runtime.report.HtmlReport;
import org.dyper.testsupport.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording whose allocation samples are of arrays ({@code [Ljava.lang.Object;} to the JVM): the report names them
 * as Java does, and reads its own XML back. Before, the ';' of the JVM's name ended the frame, and {@code dyper report}
 * refused every real program's recording ("synthetic frame [alloc [Ljava.lang.Object is not the leaf").
 */
class JfrReportArraysTest {
    @TempDir
    Path dir;

    static volatile Object sink;

    /** Planted: arrays of three kinds, large enough for the allocation sampler to pick some. */
    static void allocate() {
        for (int i = 0; i < 2_000; i++) {
            sink = new Object[4096];
            sink = new String[2][2048];
            sink = new long[4096];
        }
    }

    private static Set<String> sampledTypes(Path jfr) throws Exception {
        Set<String> types = new TreeSet<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            if (e.getEventType().getName().equals("jdk.ObjectAllocationSample")) {
                types.add(e.getClass("objectClass").getName());
            }
        }
        return types;
    }

    @Test
    void arraysAreNamedAsJavaWritesThemAndThePageReads() throws Exception {
        Path jfr = dir.resolve("arrays.jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ObjectAllocationSample").with("throttle", "10000/s");
            r.start();
            Await.until("allocation samples of Object[] and long[]", () -> {
                allocate();
                r.dump(jfr);
                Set<String> t = sampledTypes(jfr);
                return t.contains("[Ljava.lang.Object;") && t.contains("[J") ? t : null;
            }, t -> t != null, Await.MINUTE);
            r.stop();
        }
        String xml = JfrReport.xml(jfr);
        assertTrue(xml.contains("[alloc java.lang.Object[]]"), xml);
        assertTrue(xml.contains("[alloc long[]]"), xml);
        assertTrue(!xml.contains("[alloc [L"), xml);
        HtmlReport.read("arrays.jfr", xml);
    }
}
