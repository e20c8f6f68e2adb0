package org.dyper.patch.ask;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;
import org.xml.sax.Attributes;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The XML form of questions, for builds (a {@code QUESTIONS} file, docs/questions.md): {@code <QUESTIONS>} holding
 * {@code <QUESTION>} elements whose text is one question in the one-line form. Each question keeps the line and
 * column where its text starts, so that a problem in it is reported as {@code file:line:col}. DTDs and external
 * entities are refused, as in every Dyper XML file.
 */
public final class QuestionsFile {
    /** One question of the file, with where its first character is. */
    public record Entry(String text, int line, int column) {
    }

    private QuestionsFile() {
    }

    /** Whether {@code content} is the XML form (its first non-blank character is {@code <}). */
    public static boolean isXml(String content) {
        return content.stripLeading().startsWith("<");
    }

    /**
     * Reads a questions file of either form: one question per line ({@code #} comments and blank lines skipped; each
     * question at column 1 of its line), or the XML form ({@link #read}).
     *
     * @throws QuestionFileException naming {@code file:line:col} and the rule broken, or a file with no question
     */
    public static List<Entry> readAny(Path file) throws IOException, QuestionFileException {
        String content = Files.readString(file, java.nio.charset.StandardCharsets.UTF_8);
        if (isXml(content)) {
            return read(file);
        }
        List<Entry> out = new ArrayList<>();
        List<String> lines = content.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.isBlank() && !l.strip().startsWith("#")) {
                out.add(new Entry(l, i + 1, 1));
            }
        }
        if (out.isEmpty()) {
            throw new QuestionFileException(file + ":1:1: no question in the file (one per line, # comments)");
        }
        return out;
    }

    /**
     * Reads the questions of an XML questions file.
     *
     * @throws QuestionFileException naming {@code file:line:col} and the rule broken
     */
    public static List<Entry> read(Path file) throws IOException, QuestionFileException {
        List<Entry> out = new ArrayList<>();
        Handler h = new Handler(file.toString(), out);
        try (InputStream in = Files.newInputStream(file)) {
            SAXParserFactory f = SAXParserFactory.newInstance();
            f.setNamespaceAware(false);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            SAXParser p = f.newSAXParser();
            p.parse(in, h);
        } catch (SAXParseException e) {
            String m = e.getMessage() != null && e.getMessage().contains("DOCTYPE")
                    ? "DTDs and entities are not allowed in Dyper XML" : e.getMessage();
            throw new QuestionFileException(file + ":" + e.getLineNumber() + ":" + e.getColumnNumber() + ": " + m);
        } catch (SAXException e) {
            if (e.getException() instanceof QuestionFileException q) {
                throw q;
            }
            throw new QuestionFileException(file + ": " + e.getMessage());
        } catch (javax.xml.parsers.ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
        if (out.isEmpty()) {
            throw new QuestionFileException(file + ":1:1: QUESTIONS: no QUESTION in the file");
        }
        return out;
    }

    /** A questions file that breaks a rule; the message starts with {@code file:line:col: ELEMENT:}. */
    public static final class QuestionFileException extends Exception {
        public QuestionFileException(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Handler extends DefaultHandler {
        private final String file;
        private final List<Entry> out;
        private Locator locator;
        private int depth;
        private StringBuilder text;
        private int line;
        private int column;

        Handler(String file, List<Entry> out) {
            this.file = file;
            this.out = out;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
        }

        private SAXException problem(String element, String message) {
            return new SAXException(new QuestionFileException(file + ":" + locator.getLineNumber() + ":"
                    + locator.getColumnNumber() + ": " + element + ": " + message));
        }

        @Override
        public void startElement(String uri, String localName, String name, Attributes atts) throws SAXException {
            depth++;
            if (depth == 1 && !name.equals("QUESTIONS")) {
                throw problem(name, "the root must be QUESTIONS");
            }
            if (depth == 2 && !name.equals("QUESTION") || depth > 2) {
                throw problem(name, "unexpected element (QUESTIONS holds QUESTION elements, each a question as text)");
            }
            if (atts.getLength() > 0) {
                throw problem(name, "unexpected attribute " + atts.getQName(0));
            }
            if (depth == 2) {
                text = new StringBuilder();
                line = locator.getLineNumber();
                column = locator.getColumnNumber();
            }
        }

        @Override
        public void characters(char[] ch, int start, int length) throws SAXException {
            if (text != null) {
                text.append(ch, start, length);
            } else if (!new String(ch, start, length).isBlank()) {
                throw problem("QUESTIONS", "text outside a QUESTION");
            }
        }

        @Override
        public void endElement(String uri, String localName, String name) throws SAXException {
            if (depth == 2) {
                String t = text.toString();
                int l = line;
                int c = column;
                int i = 0;
                while (i < t.length() && Character.isWhitespace(t.charAt(i))) {
                    if (t.charAt(i) == '\n') {
                        l++;
                        c = 1;
                    } else {
                        c++;
                    }
                    i++;
                }
                String q = t.strip();
                if (q.isEmpty()) {
                    throw problem(name, "the question is empty");
                }
                if (q.indexOf('\n') >= 0) {
                    throw problem(name, "a question is one line");
                }
                out.add(new Entry(q, l, c));
                text = null;
            }
            depth--;
        }
    }
}
