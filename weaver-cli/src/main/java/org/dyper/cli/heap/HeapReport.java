package org.dyper.cli.heap;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import org.dyper.runtime.wire.Xml;

/**
 * The heap report ({@code dyper ctl PID heap}): per class, instances, shallow bytes and the classes that refer to it;
 * and the objects with the largest retained sizes (docs/cli.md#dyper-ctl-pid-heap).
 *
 * @param summary the whole heap's figures
 * @param classes the classes of most shallow bytes, most first
 * @param retainers the objects of most retained bytes, most first
 */
public record HeapReport(Summary summary, List<ClassRow> classes, List<Retainer> retainers) {
    /** How many referrer classes a class row names at most. */
    public static final int REFERRERS = 5;

    /**
     * The whole heap.
     *
     * @param objects objects in the dump (class objects included)
     * @param references references between them
     * @param shallowBytes their shallow bytes
     * @param classes classes with at least one object, primitive arrays counted as classes
     * @param roots objects the dump names as GC roots, and class objects
     * @param dumpBytes the dump file's size
     * @param layout the object layout sizes were counted with
     */
    public record Summary(long objects, long references, long shallowBytes, int classes, int roots, long dumpBytes,
            Layout layout) {
    }

    /** A class: its objects' count and shallow bytes, and the classes whose objects refer to them, most first. */
    public record ClassRow(String name, long instances, long shallowBytes, List<Referrer> referrers) {
    }

    /** The objects of class {@code name} (or {@code class X}: the class object of X) and how many references. */
    public record Referrer(String name, long references) {
    }

    /**
     * An object and what it retains: {@code className} ({@code class X} for the class object of X), its id in the
     * dump, its shallow and retained bytes, and the class of its immediate dominator ({@code GC roots} for the
     * virtual root).
     */
    public record Retainer(String className, long id, long shallowBytes, long retainedBytes, String dominator) {
    }

    /** Reads the dump {@code file} and reports its {@code top} classes and retainers. */
    public static HeapReport read(Path file, Layout layout, int top) throws IOException {
        Runtime rt = Runtime.getRuntime();
        long spare = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) - (32L << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return read(ch, file.toString(), layout, top, spare);
        }
    }

    /** As {@link #read(Path, Layout, int)}, from an open channel, refusing a graph of more than {@code maxBytes}. */
    public static HeapReport read(FileChannel channel, String name, Layout layout, int top, long maxBytes)
            throws IOException {
        HeapGraph g = HprofReader.read(channel, name, layout, maxBytes);
        return of(g, Dominators.of(g), top);
    }

    static HeapReport of(HeapGraph g, Dominators d, int top) {
        int n = g.objects();
        int c = g.classNames.length;
        long[] instances = new long[c];
        long[] bytes = new long[c];
        long total = 0;
        for (int i = 0; i < n; i++) {
            instances[g.cls[i]]++;
            long s = g.shallow(i);
            bytes[g.cls[i]] += s;
            total += s;
        }
        int used = 0;
        for (long k : instances) {
            used += k > 0 ? 1 : 0;
        }
        Integer[] order = new Integer[c];
        for (int i = 0; i < c; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingLong(i -> -bytes[i]).thenComparing(i -> g.classNames[i]));
        int shown = (int) Math.min(top, used);
        int[] topClasses = new int[shown];
        int[] slot = new int[c];
        Arrays.fill(slot, -1);
        for (int r = 0; r < shown; r++) {
            topClasses[r] = order[r];
            slot[order[r]] = r;
        }
        // referrers of the shown classes: a class object refers as "class X", any other object as its class
        List<Map<String, long[]>> referrers = new ArrayList<>();
        for (int r = 0; r < shown; r++) {
            referrers.add(new HashMap<>());
        }
        for (int v = 0; v < n; v++) {
            String from = null;
            for (int e = g.outStart[v], end = e + g.outCount[v]; e < end; e++) {
                int r = slot[g.cls[g.edges[e]]];
                if (r >= 0) {
                    if (from == null) {
                        from = name(g, v);
                    }
                    referrers.get(r).computeIfAbsent(from, k -> new long[1])[0]++;
                }
            }
        }
        List<ClassRow> rows = new ArrayList<>();
        for (int r = 0; r < shown; r++) {
            int k = topClasses[r];
            List<Referrer> refs = referrers.get(r).entrySet().stream()
                    .sorted(Comparator.<Map.Entry<String, long[]>>comparingLong(e -> -e.getValue()[0])
                            .thenComparing(Map.Entry::getKey))
                    .limit(REFERRERS).map(e -> new Referrer(e.getKey(), e.getValue()[0])).toList();
            rows.add(new ClassRow(g.classNames[k], instances[k], bytes[k], refs));
        }
        // the largest retainers: a bounded heap of the top objects
        PriorityQueue<Integer> best = new PriorityQueue<>(Comparator.<Integer>comparingLong(i -> d.retained[i])
                .thenComparing(i -> -i));
        for (int v = 0; v < n; v++) {
            if (best.size() < top) {
                best.add(v);
            } else if (d.retained[v] > d.retained[best.peek()]) {
                best.poll();
                best.add(v);
            }
        }
        List<Retainer> retainers = new ArrayList<>();
        while (!best.isEmpty()) {
            int v = best.poll();
            int dom = d.idom[v];
            retainers.add(new Retainer(name(g, v), g.ids[v], g.shallow(v), d.retained[v],
                    dom == n || dom < 0 ? "GC roots" : name(g, dom)));
        }
        java.util.Collections.reverse(retainers);
        return new HeapReport(new Summary(n, g.edges.length, total, used, g.rootCount, g.fileBytes, g.layout), rows,
                retainers);
    }

    private static String name(HeapGraph g, int object) {
        Integer mirror = g.mirrors.get(object);
        return mirror != null ? "class " + g.classNames[mirror] : g.classNames[g.cls[object]];
    }

    /** The report as XML ({@code <HEAP>}; docs/cli.md). */
    public String xml() {
        StringBuilder x = new StringBuilder();
        Summary s = summary;
        x.append("<HEAP OBJECTS='").append(s.objects()).append("' REFERENCES='").append(s.references())
                .append("' SHALLOW_BYTES='").append(s.shallowBytes()).append("' CLASSES='").append(s.classes())
                .append("' ROOTS='").append(s.roots()).append("' DUMP_BYTES='").append(s.dumpBytes())
                .append("' REFERENCE_BYTES='").append(s.layout().referenceBytes()).append("' HEADER_BYTES='")
                .append(s.layout().headerBytes()).append("' ALIGNMENT='").append(s.layout().alignment()).append("'>");
        for (ClassRow r : classes) {
            x.append("<CLASS NAME='").append(Xml.esc(r.name())).append("' INSTANCES='").append(r.instances())
                    .append("' SHALLOW_BYTES='").append(r.shallowBytes()).append("'>");
            for (Referrer f : r.referrers()) {
                x.append("<REFERRER CLASS='").append(Xml.esc(f.name())).append("' REFERENCES='")
                        .append(f.references()).append("'/>");
            }
            x.append("</CLASS>");
        }
        for (Retainer t : retainers) {
            x.append("<RETAINER CLASS='").append(Xml.esc(t.className())).append("' OBJECT='0x")
                    .append(Long.toHexString(t.id())).append("' SHALLOW_BYTES='").append(t.shallowBytes())
                    .append("' RETAINED_BYTES='").append(t.retainedBytes()).append("' DOMINATOR='")
                    .append(Xml.esc(t.dominator())).append("'/>");
        }
        return x.append("</HEAP>").toString();
    }

    /** The report as aligned text tables, sizes in B, KB, MB or GB (1024s). */
    public String text() {
        StringBuilder t = new StringBuilder();
        Summary s = summary;
        t.append(String.format(Locale.ROOT, "%,d objects, %s shallow, %,d references, %,d classes, %,d roots; dump "
                + "%s; sizes for %d-byte headers, %d-byte references, %d-byte alignment%n", s.objects(),
                bytes(s.shallowBytes()), s.references(), s.classes(), s.roots(), bytes(s.dumpBytes()),
                s.layout().headerBytes(), s.layout().referenceBytes(), s.layout().alignment()));
        t.append(String.format(Locale.ROOT, "%nclasses by shallow size (top %d of %,d)%n", classes.size(),
                s.classes()));
        int w = 5;
        for (ClassRow r : classes) {
            w = Math.max(w, r.name().length());
        }
        t.append(String.format(Locale.ROOT, "%-" + w + "s  %12s  %10s  %s%n", "class", "instances", "shallow",
                "referred to by (references)"));
        for (ClassRow r : classes) {
            StringBuilder refs = new StringBuilder();
            for (Referrer f : r.referrers()) {
                refs.append(refs.length() == 0 ? "" : ", ").append(f.name()).append(String.format(Locale.ROOT,
                        " %,d", f.references()));
            }
            t.append(String.format(Locale.ROOT, "%-" + w + "s  %,12d  %10s  %s%n", r.name(), r.instances(),
                    bytes(r.shallowBytes()), refs.length() == 0 ? "-" : refs));
        }
        t.append(String.format(Locale.ROOT, "%nlargest retainers (retained: what would be freed with the object, "
                + "from the dominator tree; top %d)%n", retainers.size()));
        int v = 5;
        for (Retainer r : retainers) {
            v = Math.max(v, r.className().length());
        }
        t.append(String.format(Locale.ROOT, "%-" + v + "s  %10s  %10s  %-18s  %s%n", "object", "retained", "shallow",
                "id", "dominated by"));
        for (Retainer r : retainers) {
            t.append(String.format(Locale.ROOT, "%-" + v + "s  %10s  %10s  %-18s  %s%n", r.className(),
                    bytes(r.retainedBytes()), bytes(r.shallowBytes()), "0x" + Long.toHexString(r.id()),
                    r.dominator()));
        }
        return t.toString();
    }

    /** {@code 980 B}, {@code 156.3 KB}, {@code 1.2 MB}, {@code 3.4 GB} (units of 1024). */
    static String bytes(long b) {
        if (b < 1024) {
            return b + " B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double v = b;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
