package org.dyper.runtime.report.internal;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads one XML report (a {@code DYPER_REPORT}, a {@code MONITOR_REPORT}, or a {@code DYPER_REPLY} wrapping either)
 * with the JDK's own SAX parser, DTDs refused, and checks it as it goes: every problem is kept as
 * {@code file:line:col: ELEMENT: message}. Stacks are merged into trees on the fly, so a large report is never held
 * as text or as a DOM.
 */
public final class ReportParser extends DefaultHandler {
    /** After this many problems reading stops (the rest would mostly repeat them). */
    public static final int MAX_PROBLEMS = 50;

    public static final Set<String> ROOTS = Set.of("DYPER_REPORT", "MONITOR_REPORT", "DYPER_REPLY");

    /**
     * Attributes that hold whole numbers wherever they appear (runtime-contract.md, monitor.md, the stacks format),
     * except a run-time patch's {@code MODEL ID} in the monitor's PATCHES section, a hexadecimal hash.
     */
    private static final Set<String> NUMBERS = Set.of("PID", "TIME", "START", "CHECKTIME", "VERSION", "ID", "COUNT",
            "TOTAL_NS", "MIN_NS", "MAX_NS", "MEAN_NS", "UPPER_NS", "EVERY", "SAMPLES", "SAMPLED_TOTAL_NS",
            "ESTIMATED_TOTAL_NS", "ERROR_NS", "SUM", "MIN", "MAX", "NULLS", "NONNULLS", "CONTENDED_NS", "ACQUISITIONS",
            "CONTENDED", "WAIT_NS", "MAX_WAIT_NS", "HOLD_NS", "MAX_HOLD_NS", "ARRAYS", "TOTAL_LENGTH", "MAX_LENGTH",
            "WRITES", "UNLOCKED_WRITES", "NO_OWNER_WRITES", "TOTAL", "TICKS", "ESTIMATED_NS", "SYSTEM_ONLY",
            "IO_SAMPLES", "IO_NS", "RUNNABLE", "CPU_NS", "SELF", "IO", "SELF_NS", "BLOCKED_COUNT", "BLOCKED_MS",
            "WAITED_COUNT", "WAITED_MS", "BLOCKED_SAMPLES", "BLOCKED_EPISODES", "BLOCKED_NS", "MAXDEPTH", "NODES",
            "NODE_LIMIT", "DROPPED", "WEIGHT", "EVENTS", "OMITTED_PATHS", "OMITTED_WEIGHT", "DROPPED_WEIGHT",
            "THREAD_DROPPED", "THREADS_OMITTED");

    private final String file;
    private final List<String> problems = new ArrayList<>();
    private final Deque<ReportElement> open = new ArrayDeque<>();
    private final Map<String, String> frameNames = new HashMap<>();
    private final List<Stacks> stacks = new ArrayList<>();
    private Locator locator;
    private ReportElement root;
    private int depth;

    private Stacks current;
    private int stacksDepth;
    private Stacks.View view;
    private int viewLine;
    private long viewTotal = -1;
    private Stacks.ThreadTree thread;
    private int threadLine;
    private long threadTotal = -1;
    /** A path of the current view (or thread) was refused, so its TOTAL cannot be checked. */
    private boolean viewBroken;
    private boolean threadBroken;
    private StringBuilder pathText;
    private long pathWeight;
    private int pathLine;
    private int pathCol;

    private ReportParser(String file) {
        this.file = file;
    }

    /** What was read: the element tree (stacks left out of it), the outermost stacks section, and the problems. */
    public record Result(ReportElement root, Stacks stacks, List<String> problems) {}

    /** Reads {@code in}; {@code file} names it in problems. I/O failures are thrown, everything else is a problem. */
    public static Result parse(String file, InputSource in) throws IOException {
        ReportParser p = new ReportParser(file);
        try {
            var parser = org.dyper.runtime.wire.Xml.saxParser(false);
            parser.parse(in, p);
        } catch (SAXParseException e) {
            String m = e.getMessage() == null ? "not well-formed" : e.getMessage().replace('\n', ' ');
            if (m.contains("DOCTYPE")) {
                m = "DOCTYPE is not allowed (no DTDs, no entities)";
            }
            p.problems.add(file + ":" + e.getLineNumber() + ":" + e.getColumnNumber() + ": malformed XML: " + m);
        } catch (TooMany e) {
            p.problems.add(file + ": more than " + MAX_PROBLEMS + " problems; reading stopped");
        } catch (SAXException | javax.xml.parsers.ParserConfigurationException e) {
            p.problems.add(file + ": malformed XML: " + e.getMessage());
        }
        if (p.problems.isEmpty()) {
            p.checkRoot();
        }
        Stacks outer = null;
        for (Stacks s : p.stacks) {
            if (outer == null || s.level < outer.level) {
                outer = s;
            }
        }
        return new Result(p.root, outer, List.copyOf(p.problems));
    }

    private static final class TooMany extends SAXException {
        TooMany() {
            super("too many problems");
        }
    }

    @Override
    public void setDocumentLocator(Locator locator) {
        this.locator = locator;
    }

    private void problem(int line, int col, String element, String message) throws TooMany {
        problems.add(file + ":" + line + ":" + col + ": " + element + ": " + message);
        if (problems.size() >= MAX_PROBLEMS) {
            throw new TooMany();
        }
    }

    private void problem(String element, String message) throws TooMany {
        problem(locator.getLineNumber(), locator.getColumnNumber(), element, message);
    }

    @Override
    public void startElement(String uri, String localName, String tag, Attributes atts) throws SAXException {
        depth++;
        for (int i = 0; i < atts.getLength(); i++) {
            String name = atts.getQName(i);
            String value = atts.getValue(i);
            if (NUMBERS.contains(name) && !isLong(value) && !(tag.equals("MODEL") && name.equals("ID"))) {
                problem(tag, name + "='" + value + "' is not a whole number");
            }
        }
        if (current != null) {
            stacksElement(tag, atts);
            return;
        }
        ReportElement e = new ReportElement(tag, locator.getLineNumber());
        for (int i = 0; i < atts.getLength(); i++) {
            e.attrs.put(atts.getQName(i), atts.getValue(i));
        }
        if (open.isEmpty()) {
            root = e;
        } else {
            open.peek().children.add(e);
        }
        open.push(e);
        if (tag.equals("STACKS")) {
            current = new Stacks(depth);
            current.attrs.putAll(e.attrs);
            stacksDepth = depth;
        }
    }

    private void stacksElement(String tag, Attributes atts) throws SAXException {
        switch (tag) {
            case "VIEW" -> {
                if (depth != stacksDepth + 1) {
                    problem(tag, "VIEW belongs directly in STACKS");
                    return;
                }
                String name = atts.getValue("NAME");
                String unit = atts.getValue("UNIT");
                if (name == null || name.isBlank()) {
                    problem(tag, "NAME is missing (CPU, WALL, LOCK or ALLOC)");
                    name = "?";
                } else if (current.view(name) != null) {
                    problem(tag, "a second VIEW NAME='" + name + "'; each view comes once");
                }
                if (unit == null || unit.isBlank()) {
                    problem(tag, "UNIT is missing (SAMPLES, NS or BYTES)");
                    unit = "?";
                }
                view = new Stacks.View(name, unit);
                for (int i = 0; i < atts.getLength(); i++) {
                    view.attrs.put(atts.getQName(i), atts.getValue(i));
                }
                current.views.add(view);
                viewLine = locator.getLineNumber();
                viewTotal = total(tag, atts);
                viewBroken = false;
            }
            case "THREAD" -> {
                if (view == null || depth != stacksDepth + 2) {
                    problem(tag, "THREAD belongs directly in a VIEW");
                    return;
                }
                String id = atts.getValue("ID");
                if (id == null || id.isBlank()) {
                    problem(tag, "ID is missing");
                    id = "?";
                }
                String name = atts.getValue("NAME");
                thread = new Stacks.ThreadTree(id, name == null ? "" : name);
                for (int i = 0; i < atts.getLength(); i++) {
                    thread.attrs.put(atts.getQName(i), atts.getValue(i));
                }
                view.threads.add(thread);
                threadLine = locator.getLineNumber();
                threadTotal = total(tag, atts);
                threadBroken = false;
            }
            case "PATH" -> {
                boolean inThread = thread != null && depth == stacksDepth + 3;
                if (view == null || !(inThread || depth == stacksDepth + 2)) {
                    problem(tag, "PATH belongs in a VIEW or in a THREAD of a VIEW");
                    return;
                }
                pathLine = locator.getLineNumber();
                pathCol = locator.getColumnNumber();
                String w = atts.getValue("WEIGHT");
                pathWeight = w != null && isLong(w) ? Long.parseLong(w.trim()) : 0;
                if (w == null) {
                    problem(tag, "WEIGHT is missing");
                } else if (isLong(w) && pathWeight <= 0) {
                    problem(tag, "WEIGHT='" + w + "' is not positive");
                }
                pathText = new StringBuilder();
                if (w == null || pathWeight <= 0) {
                    broken();
                }
            }
            default -> problem(tag, "unexpected element in STACKS (it holds VIEW, THREAD and PATH elements)");
        }
    }

    private long total(String tag, Attributes atts) throws TooMany {
        String t = atts.getValue("TOTAL");
        if (t == null) {
            problem(tag, "TOTAL is missing");
            return -1;
        }
        return isLong(t) ? Long.parseLong(t.trim()) : -1;
    }

    @Override
    public void characters(char[] ch, int start, int length) {
        if (pathText != null) {
            pathText.append(ch, start, length);
        } else if (current == null && !open.isEmpty()) {
            ReportElement e = open.peek();
            if (e.text == null) {
                boolean blank = true;
                for (int i = start; i < start + length && blank; i++) {
                    blank = Character.isWhitespace(ch[i]);
                }
                if (blank) {
                    return;
                }
                e.text = new StringBuilder();
            }
            e.text.append(ch, start, length);
        }
    }

    @Override
    public void endElement(String uri, String localName, String tag) throws SAXException {
        depth--;
        if (current != null && depth >= stacksDepth) {
            switch (tag) {
                case "PATH" -> endPath();
                case "THREAD" -> {
                    if (thread != null) {
                        checkTotal("THREAD", threadLine, threadTotal, thread.tree.total(), threadBroken);
                        thread = null;
                    }
                }
                case "VIEW" -> {
                    if (view != null) {
                        checkTotal("VIEW", viewLine, viewTotal, view.tree.total(), viewBroken);
                        view = null;
                    }
                }
                default -> { }
            }
            return;
        }
        if (current != null) {
            stacks.add(current);
            current = null;
        }
        open.pop();
    }

    private void endPath() throws TooMany {
        if (pathText == null) {
            return;
        }
        String text = pathText.toString().trim();
        pathText = null;
        int before = problems.size();
        try {
            addPath(text);
        } finally {
            if (problems.size() > before) {
                broken();
            }
        }
    }

    private void addPath(String text) throws TooMany {
        if (text.isEmpty()) {
            problem(pathLine, pathCol, "PATH", "no frames (expected frames separated by ';', root first)");
            return;
        }
        String[] frames = text.split(";", -1);
        if (frames.length > StackTree.MAX_DEPTH) {
            problem(pathLine, pathCol, "PATH", frames.length + " frames (at most " + StackTree.MAX_DEPTH + ")");
            return;
        }
        for (int i = 0; i < frames.length; i++) {
            String f = frames[i].trim();
            if (f.isEmpty()) {
                problem(pathLine, pathCol, "PATH", "frame " + (i + 1) + " of " + frames.length + " is empty in '"
                        + abbreviate(text) + "'");
                return;
            }
            if (f.startsWith("[") && i != frames.length - 1) {
                problem(pathLine, pathCol, "PATH", "synthetic frame " + f + " is not the leaf in '"
                        + abbreviate(text) + "'");
                return;
            }
            frames[i] = frameNames.computeIfAbsent(f, k -> k);
        }
        if (pathWeight <= 0) {
            return;
        }
        StackTree tree = thread != null ? thread.tree : view.tree;
        if (!tree.add(frames, pathWeight)) {
            problem(pathLine, pathCol, "PATH", "the same path comes twice in one " + (thread != null ? "THREAD"
                    : "VIEW") + ": '" + abbreviate(text) + "'");
        }
    }

    private void broken() {
        if (thread != null) {
            threadBroken = true;
        } else {
            viewBroken = true;
        }
    }

    private void checkTotal(String tag, int line, long declared, long sum, boolean broken) throws TooMany {
        if (!broken && declared >= 0 && declared != sum) {
            problem(line, 1, tag, "TOTAL='" + declared + "' but its PATH weights add up to " + sum);
        }
    }

    private void checkRoot() {
        if (root == null) {
            problems.add(file + ": no XML element in it");
            return;
        }
        if (!ROOTS.contains(root.tag)) {
            problems.add(file + ":" + root.line + ":1: " + root.tag + ": not a Dyper report (expected DYPER_REPORT, "
                    + "MONITOR_REPORT, or the DYPER_REPLY of a REPORT command)");
            return;
        }
        if (root.tag.equals("DYPER_REPLY")) {
            ReportElement error = root.child("ERROR");
            if (error != null) {
                problems.add(file + ":" + error.line + ":1: ERROR: the monitor answered with an error: "
                        + error.text());
            } else if (root.child("DYPER_REPORT") == null && root.child("MONITOR_REPORT") == null) {
                problems.add(file + ":" + root.line + ":1: DYPER_REPLY: holds no MONITOR_REPORT or DYPER_REPORT "
                        + "(is it the reply to REPORT?)");
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 57) + " ... " + s.substring(s.length() - 57);
    }

    static boolean isLong(String s) {
        String t = s.trim();
        int i = t.startsWith("-") ? 1 : 0;
        if (t.length() == i || t.length() > 20) {
            return false;
        }
        for (int k = i; k < t.length(); k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') {
                return false;
            }
        }
        try {
            Long.parseLong(t);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
