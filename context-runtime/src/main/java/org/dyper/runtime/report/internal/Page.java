package org.dyper.runtime.report.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Assembles the self-contained page: the template with its style sheet and scripts inlined, and the reports as JSON
 * data (element trees, and the stacks as pre-order trees over one frame dictionary). The scripts do the drawing.
 */
public final class Page {
    private static final String BASE = "/org/dyper/runtime/report/";
    private static final String[] SCRIPTS = {"format.js", "flame.js", "tables.js", "page.js", "fleet.js"};

    private Page() {
    }

    /** One report on the page: its label, element tree and stacks, and what is known of its process. */
    public record Run(String label, ReportElement root, Stacks stacks, long startMillis, List<String> agents, String java,
                      String main, boolean process) {}

    /**
     * The page for {@code runs}: one report, or with {@code diff} two (before, after) whose stacks become one
     * differential tree.
     */
    public static String render(String title, List<Run> runs, boolean diff) {
        StringBuilder data = new StringBuilder(4096);
        Json json = new Json(data);
        json.raw("{").key("format", false).num(1).key("title", true).str(title).key("generated", true)
                .num(System.currentTimeMillis()).key("mode", true).str(diff ? "diff" : "report")
                .key("runs", true).raw("[");
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            json.raw(i > 0 ? ",{" : "{").key("label", false).str(r.label()).key("process", true);
            if (r.process()) {
                json.raw("{").key("start", false).num(r.startMillis()).key("java", true).str(r.java())
                        .key("main", true).str(r.main())
                        .key("agents", true).raw("[");
                for (int k = 0; k < r.agents().size(); k++) {
                    json.raw(k > 0 ? "," : "").str(r.agents().get(k));
                }
                json.raw("]}");
            } else {
                json.raw("null");
            }
            json.key("root", true);
            r.root().encode(json);
            json.raw("}");
        }
        json.raw("]");
        StackTree.Frames frames = new StackTree.Frames();
        Stacks after = runs.get(runs.size() - 1).stacks();
        Stacks before = diff ? runs.get(0).stacks() : null;
        if (diff && after == null && before != null) {
            after = new Stacks(0);
        }
        json.key("stacks", true);
        if (after == null) {
            json.raw("null");
        } else {
            after.encode(json, frames, diff && before == null ? new Stacks(0) : before);
        }
        json.key("frames", true);
        frames.encode(json);
        json.raw("}");

        String template = resource("page.html");
        StringBuilder scripts = new StringBuilder();
        for (String s : SCRIPTS) {
            scripts.append(resource(s)).append('\n');
        }
        StringBuilder page = new StringBuilder(template.length() + scripts.length() + data.length() + 16_000);
        int at = 0;
        for (String[] part : new String[][] {{"@TITLE@", escape(title)}, {"/*@CSS@*/", resource("page.css")},
                {"@DATA@", null}, {"/*@JS@*/", scripts.toString()}}) {
            int k = template.indexOf(part[0], at);
            if (k < 0) {
                throw new IllegalStateException("page template has no " + part[0]);
            }
            page.append(template, at, k);
            if (part[1] == null) {
                page.append(data);
            } else {
                page.append(part[1]);
            }
            at = k + part[0].length();
        }
        return page.append(template, at, template.length()).toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String resource(String name) {
        try (InputStream in = Page.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + BASE + name + " in the dyper-runtime jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
