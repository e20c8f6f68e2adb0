package org.dyper.runtime.report.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An element of a report outside its stacks: the tag, attributes in document order, children and text. */
public final class ReportElement {
    final String tag;
    final int line;
    final Map<String, String> attrs = new LinkedHashMap<>();
    final List<ReportElement> children = new ArrayList<>();
    StringBuilder text;

    ReportElement(String tag, int line) {
        this.tag = tag;
        this.line = line;
    }

    public String tag() {
        return tag;
    }

    /** The attribute, or null. */
    public String attr(String name) {
        return attrs.get(name);
    }

    /** The first child with this tag, or null. */
    public ReportElement child(String name) {
        for (ReportElement c : children) {
            if (c.tag.equals(name)) {
                return c;
            }
        }
        return null;
    }

    public String text() {
        return text == null ? "" : text.toString().trim();
    }

    /** {@code {"t":tag,"a":{...},"c":[...],"x":text}}, empty parts left out. */
    void encode(Json json) {
        json.raw("{").key("t", false).str(tag);
        if (!attrs.isEmpty()) {
            json.key("a", true).raw("{");
            boolean comma = false;
            for (Map.Entry<String, String> a : attrs.entrySet()) {
                json.key(a.getKey(), comma).str(a.getValue());
                comma = true;
            }
            json.raw("}");
        }
        if (!children.isEmpty()) {
            json.key("c", true).raw("[");
            for (int i = 0; i < children.size(); i++) {
                if (i > 0) {
                    json.raw(",");
                }
                children.get(i).encode(json);
            }
            json.raw("]");
        }
        String t = text();
        if (!t.isEmpty()) {
            json.key("x", true).str(t);
        }
        json.raw("}");
    }
}
