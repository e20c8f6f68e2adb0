package org.dyper.testsupport;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reading Dyper's XML reports in tests: the exit report ({@code DYPER_REPORT}, {@code -Ddyper.report.xml}), the
 * monitor's {@code MONITOR_REPORT}, and a monitor reply ({@code DYPER_REPLY}) wrapping either. The JDK's parser with
 * DTDs refused, as the report readers of Dyper itself.
 */
public final class XmlReports {
    private XmlReports() {
    }

    /** The root element of the XML file {@code file}; fails the test when there is none. */
    public static Element parse(Path file) throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("no XML report at " + file);
        }
        return builder().parse(file.toFile()).getDocumentElement();
    }

    /** The root element of {@code xml}. */
    public static Element parse(String xml) throws Exception {
        return builder().parse(new InputSource(new StringReader(xml))).getDocumentElement();
    }

    private static DocumentBuilder builder() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(new DefaultHandler() {
            @Override
            public void error(SAXParseException e) throws SAXParseException {
                throw e;  // the exception carries the message; the default handler would also print it
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXParseException {
                throw e;
            }
        });
        return b;
    }

    /**
     * The {@code MONITOR_REPORT} of a root {@code MONITOR_REPORT} (itself), {@code DYPER_REPORT} (its last child of that
     * name) or {@code DYPER_REPLY} (wrapping either); fails the test when there is none.
     */
    public static Element monitorReport(Element root) {
        return switch (root.getTagName()) {
            case "MONITOR_REPORT" -> root;
            case "DYPER_REPORT" -> {
                List<Element> reports = children(root, "MONITOR_REPORT");
                if (reports.isEmpty()) {
                    throw new AssertionError("the DYPER_REPORT holds no MONITOR_REPORT (was the monitor running?)");
                }
                yield reports.get(reports.size() - 1);
            }
            case "DYPER_REPLY" -> {
                List<Element> inner = children(root, null);
                if (inner.isEmpty()) {
                    throw new AssertionError("an empty DYPER_REPLY: " + root.getTextContent());
                }
                yield monitorReport(inner.get(0));
            }
            default -> throw new AssertionError("not a Dyper report: <" + root.getTagName() + ">");
        };
    }

    /** The element children of {@code e} named {@code tag} (null: all), in document order. */
    public static List<Element> children(Element e, String tag) {
        List<Element> r = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && (tag == null || c.getTagName().equals(tag))) {
                r.add(c);
            }
        }
        return r;
    }

    /** Every element below {@code root} named {@code tag}, in document order. */
    public static List<Element> all(Element root, String tag) {
        NodeList list = root.getElementsByTagName(tag);
        List<Element> r = new ArrayList<>(list.getLength());
        for (int i = 0; i < list.getLength(); i++) {
            r.add((Element) list.item(i));
        }
        return r;
    }

    /** The one child section {@code name} of the report's root; fails the test unless there is exactly one. */
    public static Element section(Element root, String name) {
        List<Element> sections = children(root, name);
        if (sections.size() != 1) {
            throw new AssertionError(sections.size() + " sections named " + name + " in <" + root.getTagName() + ">");
        }
        return sections.get(0);
    }

    /** Section {@code COUNTS} of an exit report as site name → COUNT. */
    public static Map<String, String> counts(Path report) throws Exception {
        Map<String, String> result = new TreeMap<>();
        for (Element site : all(section(parse(report), "COUNTS"), "SITE")) {
            result.put(site.getAttribute("NAME"), site.getAttribute("COUNT"));
        }
        return result;
    }

    /**
     * An exit report as section → row → attributes. Rows are the elements with a NAME inside a section, keyed by NAME
     * for SITE elements and {@code TAG:NAME} for the others ({@code TYPE:int[]}, {@code LOCK_CLASS:...},
     * {@code FIELD:...}); the first of a key wins. {@code failures} holds FAILURES' TOTAL.
     */
    public record ExitReport(Map<String, Map<String, Map<String, String>>> sections, Map<String, String> failures) {
        /** Reads {@code xml}. */
        public static ExitReport of(Path xml) throws Exception {
            Element root = parse(xml);
            Map<String, Map<String, Map<String, String>>> sections = new LinkedHashMap<>();
            Map<String, String> failures = new LinkedHashMap<>();
            for (Element section : children(root, null)) {
                Map<String, Map<String, String>> rows = new LinkedHashMap<>();
                for (Element row : all(section, "*")) {
                    if (!row.hasAttribute("NAME")) {
                        continue;
                    }
                    String key = row.getTagName().equals("SITE") ? row.getAttribute("NAME")
                            : row.getTagName() + ":" + row.getAttribute("NAME");
                    Map<String, String> attrs = new LinkedHashMap<>();
                    for (int k = 0; k < row.getAttributes().getLength(); k++) {
                        attrs.put(row.getAttributes().item(k).getNodeName(), row.getAttributes().item(k).getNodeValue());
                    }
                    rows.putIfAbsent(key, attrs);
                }
                sections.put(section.getTagName(), rows);
                if (section.getTagName().equals("FAILURES")) {
                    failures.put("TOTAL", section.getAttribute("TOTAL"));
                }
            }
            return new ExitReport(sections, failures);
        }

        /** Row {@code name} of {@code section}; fails the test, listing the section, when it is missing. */
        public Map<String, String> site(String section, String name) {
            Map<String, String> site = sections.getOrDefault(section, Map.of()).get(name);
            if (site == null) {
                throw new AssertionError("no site " + name + " in " + section + ": " + sections.get(section));
            }
            return site;
        }

        /** A numeric attribute of a row. */
        public long value(String section, String name, String attribute) {
            return Long.parseLong(site(section, name).get(attribute));
        }
    }
}
