package org.dyper.runtime.wire;

import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * The one hardened XML reader and writer of Dyper's processes: the JDK's own parsers (never one the application
 * ships), DTDs and external entities refused; the DOM child helpers; the escaping for attributes and text; the text
 * of a message off the wire ({@link #message}). Every method is static and thread-safe.
 */
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

    /**
     * The text of a message as it came off the wire: strict UTF-8 (a byte that is not refuses the message, as a model
     * file with one is refused, rather than becoming U+FFFD), and an XML declaration, if any, must not claim another
     * encoding. The error names the message's COMMAND when it has one.
     */
    public static String message(byte[] bytes) throws BadXml {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            int at = firstBadByte(bytes);
            throw new BadXml("malformed message" + command(new String(bytes, StandardCharsets.ISO_8859_1))
                    + ": not UTF-8: byte " + (at + 1) + " of " + bytes.length + " (0x"
                    + String.format("%02X", bytes[at] & 0xff) + ") is not part of a UTF-8 character");
        }
        java.util.regex.Matcher m = DECLARED.matcher(text);
        if (m.lookingAt() && !m.group(2).equalsIgnoreCase("UTF-8")) {
            throw new BadXml("malformed message" + command(text) + ": its XML declaration says encoding='"
                    + m.group(2) + "', but messages are UTF-8");
        }
        return text;
    }

    private static final java.util.regex.Pattern DECLARED = java.util.regex.Pattern.compile(
            "\\uFEFF?<\\?xml\\s[^>]*?encoding\\s*=\\s*(['\"])([^'\"]*)\\1");
    private static final java.util.regex.Pattern COMMAND = java.util.regex.Pattern.compile(
            "X?COMMAND\\s*=\\s*(['\"])([A-Za-z_]{1,40})\\1");

    /** {@code " (COMMAND='PING')"} when the message names its command, else nothing. */
    private static String command(String text) {
        java.util.regex.Matcher m = COMMAND.matcher(text);
        return m.find() ? " (COMMAND='" + m.group(2) + "')" : "";
    }

    /** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
    private static int firstBadByte(byte[] b) {
        java.nio.charset.CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(b);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(b.length + 1);
        java.nio.charset.CoderResult r = d.decode(in, out, true);
        return r.isError() ? Math.min(in.position(), b.length - 1) : b.length - 1;
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

    /**
     * A new hardened SAX parser, for readers that need locations or stream large files: the JDK's own, DTDs, external
     * entities and external schemas refused.
     */
    public static SAXParser saxParser(boolean namespaceAware) throws ParserConfigurationException, SAXException {
        SAXParserFactory f = SAXParserFactory.newDefaultInstance();
        f.setNamespaceAware(namespaceAware);
        f.setValidating(false);
        f.setXIncludeAware(false);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        SAXParser parser = f.newSAXParser();
        parser.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        parser.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return parser;
    }

    /** The first child element of {@code e} named {@code tag}; null when there is none (or {@code e} is null). */
    public static Element child(Element e, String tag) {
        if (e == null) {
            return null;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && c.getTagName().equals(tag)) {
                return c;
            }
        }
        return null;
    }

    /** The child elements of {@code e} named {@code tag} (null: all), in order; empty when {@code e} is null. */
    public static List<Element> children(Element e, String tag) {
        List<Element> r = new ArrayList<>();
        if (e == null) {
            return r;
        }
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element c && (tag == null || c.getTagName().equals(tag))) {
                r.add(c);
            }
        }
        return r;
    }

    /** {@code e} as XML text, without a declaration. */
    public static String serialize(Element e) {
        try {
            var t = javax.xml.transform.TransformerFactory.newDefaultInstance().newTransformer();
            t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
            var w = new java.io.StringWriter();
            t.transform(new javax.xml.transform.dom.DOMSource(e), new javax.xml.transform.stream.StreamResult(w));
            return w.toString();
        } catch (Exception ex) {
            return e.getTextContent();
        }
    }

    /** The element children of {@code e}. */
    public static List<Element> children(Element e) {
        return children(e, null);
    }

    /** {@code e} itself when its tag is {@code tag}, else its first descendant with that tag (depth first), or null. */
    public static Element find(Element e, String tag) {
        if (e.getTagName().equals(tag)) {
            return e;
        }
        for (Element c : children(e)) {
            Element f = find(c, tag);
            if (f != null) {
                return f;
            }
        }
        return null;
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
