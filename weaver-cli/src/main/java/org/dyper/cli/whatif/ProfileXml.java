package org.dyper.cli.whatif;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dyper.cli.CommandFailure;
import org.dyper.cli.ExitCode;
import org.dyper.runtime.wire.Xml;
import org.w3c.dom.Element;

/**
 * A causal profile read back from its XML ({@code dyper whatif --xml}, root {@code WHATIF_PROFILE}), for
 * {@code dyper report}: a page of its own, or a section of the report page.
 */
public final class ProfileXml {
    private final long pid;
    private final ProfileText.Progress progress;
    private final int windows;
    private final long millis;
    private final Profile.Baseline base;
    private final List<Profile.Row> rows;
    private final List<Integer> speedups;

    private ProfileXml(long pid, ProfileText.Progress progress, int windows, long millis, Profile.Baseline base,
            List<Profile.Row> rows, List<Integer> speedups) {
        this.pid = pid;
        this.progress = progress;
        this.windows = windows;
        this.millis = millis;
        this.base = base;
        this.rows = rows;
        this.speedups = speedups;
    }

    /** Whether {@code file} is a causal profile (its root element, from the file's first bytes). */
    public static boolean isProfile(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            String head = new String(in.readNBytes(512), StandardCharsets.UTF_8);
            return head.contains("<WHATIF_PROFILE");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Reads {@code file}; a file that is not a well-formed profile is a failure naming the file and the rule. */
    public static ProfileXml read(Path file) throws CommandFailure {
        Element root;
        try {
            root = Xml.parse(Files.readString(file));
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.IO_ERROR, file + ": cannot read (" + e.getMessage() + ")");
        } catch (Xml.BadXml | RuntimeException e) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, file + ": not well-formed XML (" + e.getMessage() + ")");
        }
        String where = file + ": WHATIF_PROFILE";
        if (!root.getTagName().equals("WHATIF_PROFILE")) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, file + ": the root is <" + root.getTagName()
                    + ">, not <WHATIF_PROFILE> (dyper whatif --xml)");
        }
        long pid = whole(root, "PID", where);
        int windows = (int) whole(root, "WINDOWS", where);
        long millis = whole(root, "MILLIS", where);
        boolean latency = root.getAttribute("METRIC").equals("LATENCY");
        ProfileText.Progress progress = new ProfileText.Progress(root.getAttribute("PROGRESS"),
                root.hasAttribute("BEGIN") ? root.getAttribute("BEGIN") : null, latency,
                root.hasAttribute("ESTIMATOR") ? root.getAttribute("ESTIMATOR") : null);
        Profile.Baseline base = new Profile.Baseline(real(root, "BASELINE_RATE", where),
                (int) whole(root, "BASELINE_WINDOWS", where), 0,
                latency ? real(root, "BASELINE_LATENCY_NS", where) : Double.NaN,
                latency ? whole(root, "BASELINE_UNITS", where) : 0);
        List<Profile.Row> rows = new ArrayList<>();
        List<Integer> speedups = new ArrayList<>();
        for (Element c : Xml.children(root, "CANDIDATE")) {
            String at = where + "/CANDIDATE '" + c.getAttribute("NAME") + "'";
            List<Profile.Point> points = new ArrayList<>();
            for (Element p : Xml.children(c, "POINT")) {
                int s = (int) whole(p, "SPEEDUP", at + "/POINT");
                if (!speedups.contains(s)) {
                    speedups.add(s);
                }
                points.add(new Profile.Point(s, real(p, "PREDICTED", at + "/POINT"), real(p, "LOW", at + "/POINT"),
                        real(p, "HIGH", at + "/POINT"), (int) whole(p, "WINDOWS", at + "/POINT"),
                        whole(p, "VISITS", at + "/POINT")));
            }
            double self = real(c, "CPU_SELF", at);
            double total = real(c, "CPU_TOTAL", at);
            rows.add(new Profile.Row(c.getAttribute("NAME"), Double.isNaN(self) ? -1 : self,
                    Double.isNaN(total) ? -1 : total, "true".equals(c.getAttribute("DELAYED")), points));
        }
        speedups.sort(null);
        return new ProfileXml(pid, progress, windows, millis, base, rows, speedups);
    }

    private static long whole(Element e, String attr, String where) throws CommandFailure {
        try {
            return Long.parseLong(e.getAttribute(attr));
        } catch (NumberFormatException x) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, where + ": " + attr + " is a whole number, not '"
                    + e.getAttribute(attr) + "'");
        }
    }

    /** A fraction or rate; empty is NaN (no figure). */
    private static double real(Element e, String attr, String where) throws CommandFailure {
        String v = e.getAttribute(attr);
        if (v.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException x) {
            throw new CommandFailure(ExitCode.INVALID_INPUT, where + ": " + attr + " is a number, not '" + v + "'");
        }
    }

    /** The page of its own, as {@code dyper whatif --html} writes it. */
    public String page() {
        return ProfileHtml.page(pid, progress, windows, millis, base, rows, speedups);
    }

    /** The profile as a section of another page (the report's): its heading, style, plots and table. */
    public String section() {
        return "<section id='whatif' style='margin:2em 1em'><style>" + ProfileHtml.STYLE + "</style>\n<h2>Causal "
                + "profile of process " + pid + " (dyper whatif)</h2>\n"
                + ProfileHtml.body(progress, windows, millis, base, rows, speedups) + "</section>\n";
    }

    /** How many candidates, for the command's message. */
    public int candidates() {
        return rows.size();
    }
}
