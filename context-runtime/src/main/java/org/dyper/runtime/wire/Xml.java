package org.dyper.runtime.wire;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXParseException;

/** Hardened XML parsing (JDK parser, no DTD, no external entities, no output) and escaping for replies. */
public final class Xml {
    private Xml() {
    }

    /** An XML message that cannot be parsed; the message says why, in one line. */
    public static final class BadXml extends Exception {
        BadXml(String message) {
            super(message, null, false, false);
        }
    }

    private static final ErrorHandler SILENT = new ErrorHandler() {
        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXParseException {
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXParseException {
            throw e;
        }
    };

    /** A new hardened builder: the JDK's own parser (never one the application ships), DTDs refused. */
    static DocumentBuilder builder() throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
        f.setNamespaceAware(false);
        f.setValidating(false);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(SILENT);
        b.setEntityResolver((publicId, systemId) -> {
            throw new SAXParseException("external entities are not allowed", null);
        });
        return b;
    }

    public static Element parse(String text) throws BadXml {
        try {
            return builder().parse(new InputSource(new StringReader(text))).getDocumentElement();
        } catch (SAXParseException e) {
            String m = e.getMessage() == null ? "not well-formed" : e.getMessage();
            if (m.contains("DOCTYPE")) {
                m = "DOCTYPE is not allowed (no DTDs, no entities)";
            }
            throw new BadXml("malformed XML at line " + e.getLineNumber() + ", column " + e.getColumnNumber()
                    + ": " + m.replace('\n', ' '));
        } catch (Exception e) {
            throw new BadXml("malformed XML: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage().replace('\n', ' ')));
        }
    }

    /** The element children of {@code e}. */
    public static List<Element> children(Element e) {
        List<Element> list = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c) {
                list.add(c);
            }
        }
        return list;
    }

    /** The attribute, or null when absent. */
    public static String attr(Element e, String name) {
        return e.hasAttribute(name) ? e.getAttribute(name) : null;
    }

    /** Escapes for attribute values and text (single-quoted attributes). */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        return org.dyper.runtime.internal.Reports.escape(new StringBuilder(s.length() + 8), s).toString();
    }

    /** Escapes element text: only {@code & < >} (quotes stay readable); characters XML cannot carry become U+FFFD. */
    public static String text(String s) {
        String e = esc(s);
        return e.indexOf('&') < 0 ? e : e.replace("&apos;", "'").replace("&quot;", "\"").replace("&#9;", "\t")
                .replace("&#10;", "\n").replace("&#13;", "\r");
    }

    /** Parses a seed flag: T, t, true, TRUE, 1 / F, f, false, 0 (any case); null when it is none of them. */
    public static Boolean flag(String v) {
        if (v == null) {
            return null;
        }
        String s = v.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (s) {
            case "t", "true", "1", "yes" -> Boolean.TRUE;
            case "f", "false", "0", "no" -> Boolean.FALSE;
            default -> null;
        };
    }
}
