package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.validation.SchemaFactory;
import org.dyper.runtime.monitor.MonitorAgent;
import org.dyper.runtime.monitor.internal.Settings;
import org.dyper.runtime.monitor.internal.agents.ClassTypes;
import org.dyper.runtime.monitor.internal.agents.CpuAgent;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;

/**
 * The switch from thread dumps to the flight recorder's samples (issue 20): on a crowded machine the recorder's first
 * samples came long after it started, and the thread dumps' samples of the time before were dropped at the switch (6
 * samples against async-profiler's 1,773). Thread-dump samples, then the recorder starts, more dump samples, then its
 * first samples: the dumps' samples up to its start are kept apart (CPU_BEFORE_JFR, THREAD_DUMP, their window), those
 * after it are dropped (the recorder's cover that time), and CPU holds the recorder's alone. No sample in two views,
 * no view with two sources.
 */
class SourceViewsTest {
    private static final List<String> HOT = List.of("a.App.main", "a.App.hot");
    private static final List<String> COLD = List.of("a.App.main", "a.App.cold");
    private static final List<String> OVERLAP = List.of("a.App.main", "a.App.meanwhile");

    private final CpuAgent cpu = new CpuAgent(new Settings(), new ClassTypes());
    private final StackStore stacks = new StackStore(1000);
    private final SourceViews views = new SourceViews(cpu, stacks, 1_000);

    /** One CPU sample of {@code path} (root first) in thread {@code id}, as the sampler records it in both. */
    private void sample(long id, List<String> path) {
        List<Frame> topFirst = new ArrayList<>();
        for (int i = path.size() - 1; i >= 0; i--) {
            String f = path.get(i);
            topFirst.add(new Frame(f.substring(0, f.lastIndexOf('.')), f.substring(f.lastIndexOf('.') + 1), 7, false));
        }
        cpu.record(id, "t-" + id, topFirst, 10_000_000);
        stacks.add(StackStore.View.CPU, id, "t-" + id, path, 1);
    }

    private void dumpsBeforeTheRecorder() {
        for (int i = 0; i < 3; i++) {
            sample(1, HOT);
        }
        sample(2, COLD);
        views.recorderStarting(2_000, 5);
        // thread dumps sample on until the recorder's first samples come
        sample(1, OVERLAP);
        sample(2, OVERLAP);
    }

    @Test
    void theDumpsSamplesBeforeTheRecorderStartedAreKeptApart() throws Exception {
        dumpsBeforeTheRecorder();
        Element before = report();
        assertEquals(List.of("CPU THREAD_DUMP 6 from 1000"), sections(before), "before its first samples: one view");
        assertEquals(List.of("CPU THREAD_DUMP 6 from 1000"), views(before));

        views.switchTo(Sampler.JFR, "jdk.ExecutionSample", 2_500);
        for (int i = 0; i < 4; i++) {
            sample(1, HOT);
        }
        sample(3, COLD);
        Element r = report();
        assertEquals(List.of("CPU JFR 5 from 2000", "CPU_BEFORE_JFR THREAD_DUMP 4 from 1000 to 2000"), sections(r));
        assertEquals(List.of("CPU JFR 5 from 2000", "CPU_BEFORE_JFR THREAD_DUMP 4 from 1000 to 2000"), views(r));
        assertEquals(List.of("a.App.hot 4", "a.App.cold 1"), methods(child(r, "CPU")));
        assertEquals(List.of("a.App.hot 3", "a.App.cold 1"), methods(child(r, "CPU_BEFORE_JFR")));
        assertEquals(List.of("a.App.main;a.App.hot 4", "a.App.main;a.App.cold 1"), paths(view(r, "CPU")));
        assertEquals(List.of("a.App.main;a.App.hot 3", "a.App.main;a.App.cold 1"), paths(view(r, "CPU_BEFORE_JFR")));
        assertEquals("40000000", child(r, "CPU_BEFORE_JFR").getAttribute("ESTIMATED_NS"));
        assertEquals("", child(r, "CPU_BEFORE_JFR").getAttribute("EVENT"));
        // per thread: the trees of each view
        assertEquals(List.of("1 3", "2 1"), threads(view(r, "CPU_BEFORE_JFR")));
        assertEquals(List.of("1 4", "3 1"), threads(view(r, "CPU")));
        assertFalse(xml(r).contains("meanwhile"), "the dumps' samples after the recorder started are nowhere");
        validate(r);
    }

    @Test
    void withoutTheRecordersSamplesTheDumpsViewStaysWhole() throws Exception {
        dumpsBeforeTheRecorder();
        sample(1, HOT);
        Element r = report();
        assertEquals(List.of("CPU THREAD_DUMP 7 from 1000"), sections(r));
        assertEquals(List.of("a.App.main;a.App.hot 4", "a.App.main;a.App.meanwhile 2", "a.App.main;a.App.cold 1"),
                paths(view(r, "CPU")));
        validate(r);
    }

    @Test
    void backToThreadDumpsEverythingBeforeGoes() throws Exception {
        dumpsBeforeTheRecorder();
        views.switchTo(Sampler.JFR, "jdk.CPUTimeSample", 2_500);
        sample(1, HOT);
        // the recorder failed, or SAMPLER=THREAD_DUMP
        views.switchTo(Sampler.THREAD_DUMP, "", 3_000);
        sample(2, COLD);
        Element r = report();
        assertEquals(List.of("CPU THREAD_DUMP 1 from 3000"), sections(r));
        assertEquals(List.of("CPU THREAD_DUMP 1 from 3000"), views(r));
        assertNull(view(r, "CPU_BEFORE_JFR"));
        validate(r);
    }

    @Test
    void nothingSampledBeforeTheRecorderMeansNoSectionBeforeIt() throws Exception {
        views.recorderStarting(2_000, 5);
        views.switchTo(Sampler.JFR, "jdk.CPUTimeSample", 2_500);
        sample(1, HOT);
        Element r = report();
        assertEquals(List.of("CPU JFR 1 from 2000"), sections(r));
        assertEquals(List.of("CPU JFR 1 from 2000"), views(r));
        validate(r);
    }

    @Test
    void aSecondRecorderStartKeepsOnlyTheDumpsSinceTheLastSwitch() throws Exception {
        dumpsBeforeTheRecorder();
        views.switchTo(Sampler.JFR, "jdk.ExecutionSample", 2_500);
        views.switchTo(Sampler.THREAD_DUMP, "", 3_000);
        sample(2, COLD);
        views.recorderStarting(4_000, 9);
        sample(2, OVERLAP);
        views.switchTo(Sampler.JFR, "jdk.ExecutionSample", 4_200);
        sample(1, HOT);
        Element r = report();
        assertEquals(List.of("CPU JFR 1 from 4000", "CPU_BEFORE_JFR THREAD_DUMP 1 from 3000 to 4000"), sections(r));
        assertEquals(List.of("CPU JFR 1 from 4000", "CPU_BEFORE_JFR THREAD_DUMP 1 from 3000 to 4000"), views(r));
        assertEquals(List.of("a.App.main;a.App.cold 1"), paths(view(r, "CPU_BEFORE_JFR")));
        validate(r);
    }

    // ---- the report, as MonitorReport puts it together ----

    private Element report() throws Exception {
        String x = "<MONITOR_REPORT VERSION='1' PID='1' TIME='5000' START='900' MAIN='a.App' MONITOR='true'"
                + " CHECKTIME='10'>" + cpu.report(views.source(), views.event(), 5)
                + stacks.xml(views.source(), 64, 1000, 64) + "</MONITOR_REPORT>";
        var f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(x))).getDocumentElement();
    }

    private static javax.xml.validation.Schema schema;

    private static synchronized void validate(Element r) throws Exception {
        if (schema == null) {
            schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                    .newSchema(MonitorAgent.class.getResource("monitor-report.xsd"));
        }
        schema.newValidator().validate(new DOMSource(r));
    }

    private static String xml(Element e) throws Exception {
        var t = javax.xml.transform.TransformerFactory.newInstance().newTransformer();
        var out = new java.io.StringWriter();
        t.transform(new DOMSource(e), new javax.xml.transform.stream.StreamResult(out));
        return out.toString();
    }

    private static List<Element> children(Element e, String tag) {
        List<Element> out = new ArrayList<>();
        for (Node n = e == null ? null : e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && (tag == null || c.getTagName().equals(tag))) {
                out.add(c);
            }
        }
        return out;
    }

    private static Element child(Element e, String tag) {
        List<Element> c = children(e, tag);
        return c.isEmpty() ? null : c.get(0);
    }

    private static String window(Element e) {
        return "from " + e.getAttribute("FROM") + (e.hasAttribute("TO") ? " to " + e.getAttribute("TO") : "");
    }

    /** The CPU sections: tag, source, samples, window. */
    private static List<String> sections(Element r) {
        return children(r, null).stream().filter(e -> e.getTagName().startsWith("CPU")).map(e -> e.getTagName() + " "
                + e.getAttribute("SOURCE") + " " + e.getAttribute("SAMPLES") + " " + window(e)).toList();
    }

    /** The CPU views: name, source, total, window. */
    private static List<String> views(Element r) {
        return children(child(r, "STACKS"), "VIEW").stream().filter(v -> v.getAttribute("NAME").startsWith("CPU"))
                .map(v -> v.getAttribute("NAME") + " " + v.getAttribute("SOURCE") + " " + v.getAttribute("TOTAL") + " "
                        + window(v)).toList();
    }

    private static Element view(Element r, String name) {
        return children(child(r, "STACKS"), "VIEW").stream().filter(v -> v.getAttribute("NAME").equals(name))
                .findFirst().orElse(null);
    }

    private static List<String> methods(Element section) {
        return children(child(section, "METHODS"), "METHOD").stream().filter(m -> !m.getAttribute("SELF").equals("0"))
                .map(m -> m.getAttribute("CLASS") + "." + m.getAttribute("NAME") + " " + m.getAttribute("SELF"))
                .toList();
    }

    private static List<String> paths(Element view) {
        return children(view, "PATH").stream().map(p -> p.getTextContent() + " " + p.getAttribute("WEIGHT")).toList();
    }

    private static List<String> threads(Element view) {
        return children(view, "THREAD").stream().map(t -> t.getAttribute("ID") + " " + t.getAttribute("TOTAL"))
                .sorted().toList();
    }
}
