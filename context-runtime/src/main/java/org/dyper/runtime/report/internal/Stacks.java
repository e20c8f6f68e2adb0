package org.dyper.runtime.report.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A report's {@code STACKS} section: its attributes and, per view, the whole tree and the optional per-thread trees. */
public final class Stacks {
    final Map<String, String> attrs = new LinkedHashMap<>();
    final List<View> views = new ArrayList<>();
    /** How many elements enclose it: a report holds one, and the outermost wins. */
    final int level;

    Stacks(int level) {
        this.level = level;
    }

    /** One view (CPU, WALL, LOCK, ALLOC, ...): its unit, the tree of all threads and the trees per thread. */
    public static final class View {
        final String name;
        final String unit;
        /** All its attributes (SOURCE, and what the producer left out: OMITTED_PATHS, DROPPED, ...). */
        final Map<String, String> attrs = new LinkedHashMap<>();
        final StackTree tree = new StackTree();
        final List<ThreadTree> threads = new ArrayList<>();

        View(String name, String unit) {
            this.name = name;
            this.unit = unit;
        }

        public String name() {
            return name;
        }

        public String unit() {
            return unit;
        }

        public StackTree tree() {
            return tree;
        }

        /** The tree of the thread with this id or name, or null. */
        public StackTree thread(String idOrName) {
            for (ThreadTree t : threads) {
                if (t.id.equals(idOrName) || t.name.equals(idOrName)) {
                    return t.tree;
                }
            }
            return null;
        }

        public List<String> threadNames() {
            List<String> names = new ArrayList<>();
            threads.forEach(t -> names.add(t.name + " (" + t.id + ")"));
            return names;
        }
    }

    /** One thread's paths within a view. */
    static final class ThreadTree {
        final String id;
        final String name;
        /** All its attributes (OMITTED_PATHS, OMITTED_WEIGHT, ...). */
        final Map<String, String> attrs = new LinkedHashMap<>();
        final StackTree tree = new StackTree();

        ThreadTree(String id, String name) {
            this.id = id;
            this.name = name;
        }
    }

    public List<View> views() {
        return views;
    }

    /** The view with this name (any case), or null. */
    public View view(String name) {
        for (View v : views) {
            if (v.name.equalsIgnoreCase(name)) {
                return v;
            }
        }
        return null;
    }

    /** Nodes of the whole-view trees, added up. */
    public int nodes() {
        int n = 0;
        for (View v : views) {
            n += v.tree.nodes();
        }
        return n;
    }

    /**
     * {@code {"a":{...},"views":[{"name","unit","total","f","d","w"[,"total0","w0"],"threads":[...]}]}}; with
     * {@code before}, each view is the union with the same view there (views only {@code before} has come last),
     * without threads.
     */
    void encode(Json json, StackTree.Frames frames, Stacks before) {
        json.raw("{").key("a", false);
        attrs(json, attrs);
        json.key("views", true).raw("[");
        List<String> done = new ArrayList<>();
        boolean first = true;
        for (View v : views) {
            View old = before == null ? null : before.view(v.name);
            first = view(json, frames, v, old, before != null, first);
            done.add(v.name);
        }
        if (before != null) {
            for (View old : before.views) {
                if (!done.contains(old.name)) {
                    first = view(json, frames, new View(old.name, old.unit), old, true, first);
                }
            }
        }
        json.raw("]}");
    }

    private static void attrs(Json json, Map<String, String> attrs) {
        json.raw("{");
        boolean comma = false;
        for (Map.Entry<String, String> a : attrs.entrySet()) {
            json.key(a.getKey(), comma).str(a.getValue());
            comma = true;
        }
        json.raw("}");
    }

    private static boolean view(Json json, StackTree.Frames frames, View v, View old, boolean diff, boolean first) {
        if (!first) {
            json.raw(",");
        }
        json.raw("{").key("name", false).str(v.name).key("unit", true).str(v.unit).key("a", true);
        attrs(json, v.attrs);
        json.key("total", true).num(v.tree.total());
        if (diff) {
            StackTree oldTree = old == null ? new StackTree() : old.tree;
            json.key("total0", true).num(oldTree.total()).raw(",");
            v.tree.encode(json, frames, oldTree);
        } else {
            json.raw(",");
            v.tree.encode(json, frames, null);
            json.key("threads", true).raw("[");
            for (int i = 0; i < v.threads.size(); i++) {
                ThreadTree t = v.threads.get(i);
                json.raw(i > 0 ? ",{" : "{").key("id", false).str(t.id).key("name", true).str(t.name).key("a", true);
                attrs(json, t.attrs);
                json.key("total", true).num(t.tree.total()).raw(",");
                t.tree.encode(json, frames, null);
                json.raw("}");
            }
            json.raw("]");
        }
        json.raw("}");
        return false;
    }
}
