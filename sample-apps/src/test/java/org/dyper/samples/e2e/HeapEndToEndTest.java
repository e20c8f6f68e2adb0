package org.dyper.samples.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.dyper.samples.e2e.E2e.Run;
import org.dyper.samples.heap.HeapApp;
import org.dyper.samples.heap.HeapFacts;
import org.dyper.samples.heap.Holder;
import org.dyper.samples.heap.Node;
import org.dyper.testsupport.Jdk;
import org.dyper.testsupport.Running;
import org.dyper.testsupport.XmlReports;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Element;

/**
 * {@code dyper ctl PID heap} on a planted heap ({@link HeapApp}): the JVM dumps through the monitor's HEAPDUMP, the CLI
 * reads the dump and deletes it. The expected sizes come from the layout the JVM reports and the planted classes'
 * fields, counted here, not from the reader.
 */
class HeapEndToEndTest {
    private static final Duration LINE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Jdk.class)
    void theHeapReportCountsThePlantedGraphExactly(Jdk jdk) throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Running t = MonitorEndToEndTest.start(List.of(jdk.java().toString(), "-Xmx64m", "-Djava.io.tmpdir=" + tmp,
                "-javaagent:" + MonitorEndToEndTest.runtimeJar() + "=dir=" + dir, "-cp", E2e.appClasses().toString(),
                HeapApp.class.getName()), null);
        try {
            assertEquals("ready", t.line(0, LINE), t::stderr);
            // every class (a JVM has about 1,000), so that the 16 bytes of Holder are listed too
            Run heap = E2e.dyper("ctl", "--dir", dir.toString(), "--xml", Long.toString(t.pid()), "heap", "--top",
                    "5000");
            assertEquals(0, heap.exit(), heap.err());
            try (Stream<Path> left = Files.list(tmp)) {
                assertEquals(List.of(), left.filter(p -> p.getFileName().toString().startsWith("dyper-heap-"))
                        .toList(), "the dump and its folder are deleted");
            }
            Element root = XmlReports.parse(heap.out());
            int ref = Integer.parseInt(root.getAttribute("REFERENCE_BYTES"));
            int header = Integer.parseInt(root.getAttribute("HEADER_BYTES"));
            int align = Integer.parseInt(root.getAttribute("ALIGNMENT"));
            // the planted classes' fields: Node a reference; Holder a reference; ArrayList (with AbstractList's
            // modCount) two ints and a reference; arrays a header, an int length, the elements
            long node = align(header + ref, align);
            long payload = align(header + 4 + HeapFacts.PAYLOAD, align);
            long list = align(header + 4 + 4 + ref, align);
            long slots = align(header + 4 + (long) HeapFacts.NODES * ref, align);
            long holder = align(header + ref, align);

            Element nodes = byName(root, "CLASS", "NAME", Node.class.getName());
            assertEquals(Integer.toString(HeapFacts.NODES), nodes.getAttribute("INSTANCES"));
            assertEquals(Long.toString(HeapFacts.NODES * node), nodes.getAttribute("SHALLOW_BYTES"));
            List<Element> referrers = XmlReports.children(nodes, "REFERRER");
            assertEquals(1, referrers.size(), heap.out());
            assertEquals("java.lang.Object[]", referrers.get(0).getAttribute("CLASS"));
            assertEquals(Integer.toString(HeapFacts.NODES), referrers.get(0).getAttribute("REFERENCES"));

            Element held = byName(root, "RETAINER", "CLASS", Holder.class.getName());
            assertEquals(Long.toString(holder + list + slots + HeapFacts.NODES * (node + payload)),
                    held.getAttribute("RETAINED_BYTES"), heap.out());
            assertEquals(Long.toString(holder), held.getAttribute("SHALLOW_BYTES"));
            assertEquals("class " + HeapApp.class.getName(), held.getAttribute("DOMINATOR"));
            // a third route: the JVM's own class histogram (instances and bytes as HotSpot counts them)
            for (Class<?> planted : List.of(Node.class, Holder.class)) {
                Element row = byName(root, "CLASS", "NAME", planted.getName());
                assertEquals(histogram(jdk, t.pid(), planted.getName()), row.getAttribute("INSTANCES") + " "
                        + row.getAttribute("SHALLOW_BYTES"));
            }
            assertEquals(5000, XmlReports.children(root, "RETAINER").size(), "--top 5000");
            assertEquals(root.getAttribute("CLASSES"), Integer.toString(XmlReports.children(root, "CLASS").size()),
                    "every class: fewer than 5000");

            // the HTML page of the running program with its heap, read in a browser (on one JDK: the page is the CLI's)
            if (jdk == Jdk.JDK17) {
                Path page = dir.resolve("page.html");
                Run report = E2e.dyper("report", "--pid", Long.toString(t.pid()), "--dir", dir.toString(), "--heap",
                        "--top", "50", "--out", page.toString());
                assertEquals(0, report.exit(), report.err());
                try (Stream<Path> left = Files.list(tmp)) {
                    assertEquals(0, left.filter(p -> p.getFileName().toString().startsWith("dyper-heap-")).count());
                }
                try (org.dyper.cli.report.Browser browser = org.dyper.cli.report.Browser.start(dir.resolve("profile"))) {
                    browser.open(page);
                    assertEquals(List.of(Node.class.getName(), "10,000", browser.js("return Dyper.fmt.bytes(arguments[0])",
                            HeapFacts.NODES * node), "java.lang.Object[] 10,000"), row(browser, "heap-classes",
                            Node.class.getName()));
                    assertEquals(List.of(Holder.class.getName(), browser.js("return Dyper.fmt.bytes(arguments[0])",
                            holder + list + slots + HeapFacts.NODES * (node + payload)), browser.js(
                            "return Dyper.fmt.bytes(arguments[0])", holder)), row(browser, "heap-retainers",
                            Holder.class.getName()).subList(0, 3));
                    assertEquals("Heap", browser.js("return document.querySelector('#toc a[href=\"#heap\"]')"
                            + ".textContent"));
                }
            }
            t.closeStdin();
            assertEquals(0, t.stop(LINE), t::stderr);
            assertEquals(Integer.toString(HeapFacts.NODES), t.line(1, LINE));
        } finally {
            t.close();
        }
    }

    /** {@code INSTANCES BYTES} of class {@code name} in {@code jcmd PID GC.class_histogram}. */
    private static String histogram(Jdk jdk, long pid, String name) throws Exception {
        org.dyper.testsupport.Processes.Result r = org.dyper.testsupport.Processes.run(List.of(
                jdk.home().resolve("bin/jcmd").toString(), Long.toString(pid), "GC.class_histogram"), LINE);
        assertEquals(0, r.exit(), r.err());
        for (String line : r.out().split("\\R")) {
            String[] cols = line.trim().split("\\s+");
            if (cols.length >= 4 && cols[3].equals(name)) {
                return cols[1] + " " + cols[2];
            }
        }
        throw new AssertionError("no " + name + " in the class histogram:\n" + r.out());
    }

    /** The cells of the row of table {@code table} whose first cell is {@code first}. */
    @SuppressWarnings("unchecked")
    private static List<Object> row(org.dyper.cli.report.Browser browser, String table, String first) {
        return (List<Object>) browser.js("return [...document.querySelectorAll('table[data-table=\"' + arguments[0]"
                + " + '\"] tbody tr')].map(tr => [...tr.cells].map(td => td.textContent))"
                + ".find(cells => cells[0] === arguments[1]) || null", table, first);
    }

    private static long align(long bytes, int alignment) {
        return (bytes + alignment - 1) / alignment * alignment;
    }

    private static Element byName(Element root, String tag, String attribute, String name) {
        return XmlReports.children(root, tag).stream().filter(e -> e.getAttribute(attribute).equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + tag + " " + name));
    }
}
