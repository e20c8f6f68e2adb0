package org.dyper.patch.xml;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;

import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;

import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.ext.DefaultHandler2;
import org.xml.sax.ext.Locator2;

/**
 * Parses Dyper XML into {@link XmlElement}s with a hardened SAX parser: no DOCTYPE, hence no entities and no
 * external resources of any kind. Dyper files are small, so the whole input is buffered; that also lets each element
 * be located at the {@code <} of its start tag rather than where SAX reports it (just after the {@code >}).
 */
final class SecureXml {
    static final String XSI = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;
    static final String DOCTYPE_MESSAGE = "DTDs and entities are not allowed in Dyper XML";

    private SecureXml() {}

    /** What reads one Dyper file from its stream ({@code fileName} for locations). */
    interface FileReader<T> {
        T read(String fileName, InputStream in) throws InvalidInputException;
    }

    /** Opens {@code file} and reads it with {@code reader}; a file that cannot be opened is one FILE problem. */
    static <T> T read(Path file, FileReader<T> reader) throws InvalidInputException {
        String fileName = file.toString();
        try (InputStream in = Files.newInputStream(file)) {
            return reader.read(fileName, in);
        } catch (IOException e) {
            throw new InvalidInputException(List.of(Problem.error(new Location(fileName, 0, 0), "FILE",
                    "cannot read: " + e.getClass().getSimpleName() + ": " + e.getMessage())));
        }
    }

    /**
     * Parses {@code in}; returns the root element, or null after adding exactly one problem when the input cannot be
     * read or is not well-formed XML.
     */
    static XmlElement parse(String fileName, InputStream in, List<Problem> problems) {
        return parse(fileName, in, problems, null);
    }

    /**
     * As above; with {@code rootChildren}, each child of the root is handed to it (with the root) once its end tag is
     * read, and not kept in the root's children: a big file is read without its whole tree in memory.
     */
    static XmlElement parse(String fileName, InputStream in, List<Problem> problems,
            BiConsumer<XmlElement, XmlElement> rootChildren) {
        byte[] bytes;
        try {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            problems.add(Problem.error(new Location(fileName, 0, 0), "FILE", "cannot read: " + e));
            return null;
        }
        Handler handler = new Handler(fileName, bytes, rootChildren);
        try {
            SAXParser parser = org.dyper.runtime.wire.Xml.saxParser(true);
            InputSource source = new InputSource(new ByteArrayInputStream(bytes));
            source.setSystemId(fileName);
            parser.parse(source, handler);
            return handler.root;
        } catch (SAXParseException e) {
            Location at = new Location(fileName, Math.max(e.getLineNumber(), 0), Math.max(e.getColumnNumber(), 0));
            if (isDoctype(e, bytes)) {
                problems.add(Problem.error(at, "DOCTYPE", DOCTYPE_MESSAGE));
            } else {
                problems.add(Problem.error(at, "XML", "not well-formed: " + e.getMessage() + hint(bytes, at.line())));
            }
            return null;
        } catch (SAXException | ParserConfigurationException | IOException e) {
            problems.add(Problem.error(new Location(fileName, 0, 0), "XML", "cannot parse: " + e.getMessage()));
            return null;
        }
    }

    /** The one mistake XML makes easy in Dyper files: a constructor name written with a raw {@code <}. */
    private static String hint(byte[] bytes, int line) {
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\r\n|\r|\n", -1);
        if (line >= 1 && line <= lines.length && lines[line - 1].contains("<init>")) {
            return " (in XML, write <init> as &lt;init&gt;)";
        }
        return "";
    }

    /**
     * Whether the parser stopped at a DOCTYPE: its message names the feature that refuses them, or (messages are
     * localised) the line it stopped on holds a {@code <!DOCTYPE} outside any comment.
     */
    private static boolean isDoctype(SAXParseException e, byte[] bytes) {
        if (String.valueOf(e.getMessage()).contains("disallow-doctype-decl")) {
            return true;
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        StringBuilder outsideComments = new StringBuilder(text);
        for (int start = text.indexOf("<!--"); start >= 0; start = text.indexOf("<!--", start + 4)) {
            int end = text.indexOf("-->", start + 4);
            end = end < 0 ? text.length() : end + 3;
            for (int i = start; i < end; i++) {
                if (outsideComments.charAt(i) != '\n') {
                    outsideComments.setCharAt(i, ' ');
                }
            }
            start = end - 4;
        }
        String[] lines = outsideComments.toString().split("\n", -1);
        int line = e.getLineNumber();
        return line >= 1 && line <= lines.length && lines[line - 1].contains("<!DOCTYPE");
    }

    private static final class Handler extends DefaultHandler2 {
        private final String fileName;
        private final byte[] bytes;
        private final Deque<XmlElement> open = new ArrayDeque<>();
        private Locator locator;
        private Lines lines;
        private final java.util.Map<String, String> values = new java.util.HashMap<>();
        XmlElement root;

        private final BiConsumer<XmlElement, XmlElement> rootChildren;

        Handler(String fileName, byte[] bytes, BiConsumer<XmlElement, XmlElement> rootChildren) {
            this.fileName = fileName;
            this.bytes = bytes;
            this.rootChildren = rootChildren;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes attributes) {
            boolean foreign = uri != null && !uri.isEmpty();
            XmlElement element = new XmlElement(qName, foreign, startTagLocation());
            for (int i = 0; i < attributes.getLength(); i++) {
                String attributeUri = attributes.getURI(i);
                if (attributeUri == null || attributeUri.isEmpty()) {
                    element.attributes.put(attributes.getQName(i), shared(attributes.getValue(i)));
                } else if (!XSI.equals(attributeUri)) {
                    element.foreignAttributes.add(attributes.getQName(i));
                }
            }
            if (open.isEmpty()) {
                root = element;
            } else if (rootChildren == null || open.size() > 1) {
                open.peek().children.add(element);
            }
            open.push(element);
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            XmlElement element = open.pop();
            if (rootChildren != null && open.size() == 1) {
                rootChildren.accept(root, element);
            }
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            XmlElement current = open.peek();
            if (current == null || current.text != null) {
                return;
            }
            String chunk = new String(ch, start, length);
            String text = chunk.strip();
            if (!text.isEmpty()) {
                current.text = text;
                current.textAt = back(here(), length - chunk.indexOf(text.charAt(0)));
            }
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            throw e;
        }

        private Location here() {
            return locator == null ? new Location(fileName, 0, 0)
                    : new Location(fileName, locator.getLineNumber(), locator.getColumnNumber());
        }

        /**
         * The position {@code n} characters before {@code end}: where a text chunk ending at {@code end} starts.
         * Exact unless the chunk held character or entity references, which Dyper files have no reason to use.
         */
        private Location back(Location end, int n) {
            Lines text = lines();
            int line = end.line() - 1;
            int column = end.column() - 1;
            if (line < 0 || line >= text.count()) {
                return end;
            }
            while (n > 0) {
                if (column > 0) {
                    column--;
                } else if (line > 0) {
                    line--;
                    column = text.length(line);
                } else {
                    return end;
                }
                n--;
            }
            return new Location(fileName, line + 1, column + 1);
        }

        /** SAX reports the position after a start tag's {@code >}; walk back to its {@code <}, which cannot occur inside a tag. */
        private Location startTagLocation() {
            Location end = here();
            Lines text = lines();
            int line = end.line() - 1;
            if (line < 0 || line >= text.count()) {
                return end;
            }
            int index = Math.min(end.column() - 2, text.length(line) - 1);
            while (line >= 0) {
                for (int i = index; i >= 0; i--) {
                    if (text.charAt(line, i) == '<') {
                        return new Location(fileName, line + 1, i + 1);
                    }
                }
                line--;
                if (line >= 0) {
                    index = text.length(line) - 1;
                }
            }
            return end;
        }

        /** The same value as one already read when short (a file of many FORs repeats METHOD='m' and MODE='COUNT'). */
        private String shared(String value) {
            if (value.length() > 64) {
                return value;
            }
            String known = values.get(value);
            if (known != null) {
                return known;
            }
            if (values.size() < 4096) {
                values.put(value, value);
            }
            return value;
        }

        private Lines lines() {
            if (lines == null) {
                String encoding = locator instanceof Locator2 l2 ? l2.getEncoding() : null;
                Charset charset;
                try {
                    charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
                } catch (RuntimeException e) {
                    charset = StandardCharsets.UTF_8;
                }
                String text = new String(bytes, charset);
                if (text.startsWith("\uFEFF")) {
                    text = text.substring(1);
                }
                lines = new Lines(text);
            }
            return lines;
        }
    }

    /**
     * The decoded text by lines (\r\n, \r or \n end a line): one string and where each line starts, not one string
     * per line (a model of 600,000 lines).
     */
    private static final class Lines {
        private final String text;
        private final int[] starts;
        private final int count;

        Lines(String text) {
            this.text = text;
            int[] s = new int[16];
            int n = 0;
            s[n++] = 0;
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\r' || c == '\n') {
                    if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                        i++;
                    }
                    if (n == s.length) {
                        s = java.util.Arrays.copyOf(s, n * 2);
                    }
                    s[n++] = i + 1;
                }
            }
            this.starts = s;
            this.count = n;
        }

        int count() {
            return count;
        }

        /** The length of line {@code line} (from 0) without its line end. */
        int length(int line) {
            int end = line + 1 < count ? starts[line + 1] : text.length() + 1;
            int length = end - 1 - starts[line];
            if (line + 1 < count && length > 0 && text.charAt(starts[line + 1] - 1) == '\n'
                    && text.charAt(starts[line + 1] - 2) == '\r') {
                length--;
            }
            return length;
        }

        char charAt(int line, int index) {
            return text.charAt(starts[line] + index);
        }
    }
}
